/**
 * Plugin `solver`: a pool of worker threads (piscina) running the solver, so a long search never blocks
 * the event loop. Decorates `app.solver.run(task)`. Jobs beyond the queue bound are refused with
 * `503 solver-busy`. The pool is destroyed on close.
 */
import fp from 'fastify-plugin';
import { Piscina } from 'piscina';
import { ApiError } from '../errors.js';
import type { SolverOutcome, SolverTask } from '../solver/task.js';
import '../types.js';

/** The solver pool's interface. */
export interface SolverPool {
  /** Runs a job on a worker thread. Errors: ApiError `solver-busy` when the queue is full. */
  run(task: SolverTask): Promise<SolverOutcome>;
  /** Jobs waiting for a thread. */
  readonly queued: number;
}

/** Registers the pool. */
export const solverPlugin = fp(
  async (app) => {
    const pool = new Piscina<SolverTask, SolverOutcome>({
      filename: new URL('../solver/worker.mjs', import.meta.url).href,
      minThreads: 1,
      maxThreads: app.config.solverThreads,
      // Hint and solve jobs are CPU-bound: one at a time per thread.
      concurrentTasksPerWorker: 1,
      idleTimeout: 60_000,
    });
    const maxQueue = app.config.solverQueue;
    const solver: SolverPool = {
      async run(task) {
        if (pool.queueSize >= maxQueue)
          throw new ApiError('solver-busy', 'the solver is busy, try again shortly');
        return pool.run(task);
      },
      get queued() {
        return pool.queueSize;
      },
    };
    app.decorate('solver', solver);
    app.addHook('onClose', async () => {
      await pool.destroy();
    });
  },
  { name: 'solver', fastify: '5.x', dependencies: ['config'] },
);
