/**
 * Plugin `solver`: a pool of worker threads (piscina) running the solver, so a long search never blocks
 * the event loop. Decorates `app.solver.run(task, job)`. Jobs wait in a SolverScheduler (priority: daily
 * generation, hints, solve, race certification; bounded overall and per client); refusals are
 * `503 solver-busy`. The pool is destroyed on close.
 */
import fp from 'fastify-plugin';
import { Piscina } from 'piscina';
import { SolverScheduler } from '../solver/scheduler.js';
import type { SolverOutcome, SolverPool, SolverTask } from '../solver/task.js';
import '../types.js';

/**
 * The worker-thread entry: next to the bundle when running the build (dist/solver-worker.js, see build.mjs),
 * else the sources' CommonJS entry (solver/worker.cjs), which imports solver/worker.mjs, which loads the
 * TypeScript task through tsx.
 */
const WORKER_ENTRY = import.meta.url.endsWith('.ts')
  ? new URL('../solver/worker.cjs', import.meta.url).href
  : new URL('./solver-worker.js', import.meta.url).href;

/** Registers the pool. */
export const solverPlugin = fp(
  async (app) => {
    const pool = new Piscina<SolverTask, SolverOutcome>({
      filename: WORKER_ENTRY,
      // Threads start on demand and end after SOLVER_IDLE_MS without a job: an idle server holds no solver
      // thread, and with it goes the V8 heap that a search grew (README "Idle memory").
      minThreads: 0,
      maxThreads: app.config.solverThreads,
      // Hint and solve jobs are CPU-bound: one at a time per thread.
      concurrentTasksPerWorker: 1,
      idleTimeout: app.config.solverIdleMs,
    });
    // Readiness: a thread that fails to start (a broken worker entry) rejects its job and marks the pool
    // failed until a thread starts again.
    let failed = false;
    pool.on('workerCreate', () => {
      failed = false;
    });
    pool.on('error', () => {
      failed = true;
    });
    // The scheduler hands piscina one job per thread, so piscina's own queue stays empty and the order of
    // waiting jobs is the scheduler's.
    const scheduler = new SolverScheduler<SolverOutcome>({
      concurrency: app.config.solverThreads,
      maxQueued: app.config.solverQueue,
      maxPerClient: app.config.solverJobsPerClient,
    });
    const solver: SolverPool = {
      run(task, job = { priority: 'solve' }) {
        return scheduler.submit(job, () =>
          pool.run(task).catch((e: unknown) => {
            if (pool.threads.length === 0) failed = true;
            throw e;
          }),
        );
      },
      get queued() {
        return scheduler.queued;
      },
      get threads() {
        return pool.threads.length;
      },
      get failed() {
        return failed;
      },
    };
    app.decorate('solver', solver);
    app.addHook('onClose', async () => {
      await pool.destroy();
    });
  },
  { name: 'solver', fastify: '5.x', dependencies: ['config'] },
);
