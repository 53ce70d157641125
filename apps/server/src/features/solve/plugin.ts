/**
 * Plugin `solver`: worker threads (piscina) running the solver, so a long search never blocks the event
 * loop. Decorates `app.solver.run(task, job)`. Two pools: the interactive threads (SOLVER_THREADS: hints,
 * the winnable badge, `POST /api/solve`, race certification, certifying dailies) and the background threads
 * (SOLVER_BACKGROUND_THREADS: par refinement, the archive fill), which run at the lowest
 * CPU priority the OS gives a thread (nice 19 on Linux), so that on a small machine a background search
 * yields the cores to the event loop and to interactive searches. Jobs wait in a SolverScheduler (lanes and
 * priorities: solve/scheduler.ts; interactive jobs bounded overall and per client); refusals are `503
 * solver-busy`. The pools are destroyed on close.
 */
import fp from 'fastify-plugin';
import { Piscina } from 'piscina';
import type { Metrics } from '../../infra/metrics/registry.js';
import { SolverScheduler } from './scheduler.js';
import { BACKGROUND_THREAD_ENV, type SolverOutcome, type SolverPool, type SolverTask } from './task.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The solver's worker pool (plugin `solver`). */
    solver: SolverPool;
  }
}

/**
 * The worker-thread entry: next to the bundle when running the build (dist/solver-worker.js, see build.mjs),
 * else the sources' CommonJS entry (solve/worker.cjs), which imports solve/worker.mjs, which loads the
 * TypeScript task through tsx.
 */
const WORKER_ENTRY = import.meta.url.endsWith('.ts')
  ? new URL('./worker.cjs', import.meta.url).href
  : new URL('./solver-worker.js', import.meta.url).href;

/** Bucket upper bounds of a solver job's wait for its slot, seconds. */
const SOLVER_WAIT_BUCKETS: readonly number[] = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120];

/** The solver's figures: jobs queued and running by lane (read at scrape time), and their wait for a slot. */
function registerSolverMetrics(metrics: Metrics, scheduler: SolverScheduler<SolverOutcome>): void {
  metrics.gaugeByLabel('solver_jobs_queued', 'Solver jobs waiting for a slot, by lane.', 'lane', () => [
    ['interactive', scheduler.queued - scheduler.queuedBackground],
    ['background', scheduler.queuedBackground],
  ]);
  metrics.gaugeByLabel('solver_jobs_running', 'Solver jobs running, by lane.', 'lane', () => {
    const running = scheduler.running();
    return (['interactive', 'background'] as const).map((lane) => [
      lane,
      running.filter((j) => j.lane === lane).length,
    ]);
  });
  if (!metrics.enabled) return;
  const wait = metrics.histogram(
    'solver_job_wait_seconds',
    'Solver jobs by seconds waited for a slot, by lane.',
    ['lane'],
    SOLVER_WAIT_BUCKETS,
  );
  scheduler.observe((e) => {
    if (e.type === 'start') wait.observe({ lane: e.lane }, e.waitedMs / 1000);
  });
}

/** Registers the pool. */
export const solverPlugin = fp(
  (app) => {
    const makePool = (maxThreads: number, background: boolean): Piscina<SolverTask, SolverOutcome> =>
      new Piscina<SolverTask, SolverOutcome>({
        filename: WORKER_ENTRY,
        // Threads start on demand and end after SOLVER_IDLE_MS without a job: an idle server holds no solver
        // thread, and with it goes the V8 heap that a search grew (docs/benchmarks.md "Idle memory").
        minThreads: 0,
        maxThreads,
        // Solver jobs are CPU-bound: one at a time per thread.
        concurrentTasksPerWorker: 1,
        idleTimeout: app.config.solverIdleMs,
        // Read by the worker at start-up (solve/task.ts): background threads lower their own priority.
        env: { ...process.env, [BACKGROUND_THREAD_ENV]: background ? '1' : '0' },
      });
    const backgroundThreads = app.config.solverBackgroundThreads;
    const interactive = makePool(app.config.solverThreads, false);
    const background = backgroundThreads > 0 ? makePool(backgroundThreads, true) : interactive;
    const pools = background === interactive ? [interactive] : [interactive, background];
    // Readiness: a thread that fails to start (a broken worker entry) rejects its job and marks the pool
    // failed until a thread starts again.
    let failed = false;
    for (const pool of pools) {
      pool.on('workerCreate', () => {
        failed = false;
      });
      pool.on('error', () => {
        failed = true;
      });
    }
    // The scheduler hands piscina one job per thread, so piscina's own queues stay empty and the order of
    // waiting jobs is the scheduler's.
    const scheduler = new SolverScheduler<SolverOutcome>({
      concurrency: app.config.solverThreads,
      backgroundConcurrency: backgroundThreads,
      maxQueued: app.config.solverQueue,
      maxPerClient: app.config.solverJobsPerClient,
    });
    const solver: SolverPool = {
      run(task, job = { priority: 'solve' }) {
        return scheduler.submit(job, (lane) => {
          const pool = lane === 'background' ? background : interactive;
          return pool.run(task).catch((e: unknown) => {
            if (pool.threads.length === 0) failed = true;
            throw e;
          });
        });
      },
      get queued() {
        return scheduler.queued;
      },
      get queuedBackground() {
        return scheduler.queuedBackground;
      },
      get threads() {
        return pools.reduce((n, p) => n + p.threads.length, 0);
      },
      get failed() {
        return failed;
      },
      running: () => scheduler.running(),
      observe: (listener) => scheduler.observe(listener),
    };
    app.decorate('solver', solver);
    registerSolverMetrics(app.metrics, scheduler);
    app.addHook('onClose', async () => {
      await Promise.all(pools.map((p) => p.destroy()));
    });
    return Promise.resolve();
  },
  { name: 'solver', fastify: '5.x', dependencies: ['config', 'metrics'] },
);
