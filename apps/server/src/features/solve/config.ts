/** The solver's settings (SOLVER_*, SOLVE_*, HINT_TIME_MS, WINNABLE_RATE_MAX): its slice of `AppConfig`. */
import { availableParallelism } from 'node:os';
import { MAX_SOLVE_TIME_MS } from '@klondike/protocol';
import { z } from 'zod';

/** The solver's settings. */
export interface SolveConfig {
  /** Interactive solver worker threads: hints, solve, race and daily certification (env SOLVER_THREADS, default cores − 1, at least 1). */
  readonly solverThreads: number;
  /**
   * Background solver worker threads, at the lowest CPU priority: par refinement and the
   * archive (env SOLVER_BACKGROUND_THREADS, default 1; 0 = background jobs share the interactive threads,
   * after every waiting interactive job).
   */
  readonly solverBackgroundThreads: number;
  /** Cap on a POST /api/solve time limit, ms (env SOLVE_MAX_MS, default 10000). */
  readonly solveMaxMs: number;
  /** Time a hint may search, ms (env HINT_TIME_MS, default 3000). */
  readonly hintTimeMs: number;
  /** Solve and hint requests per client per minute (env SOLVE_RATE_MAX, default 30; 0 = no extra limit). */
  readonly solveRateMax: number;
  /**
   * "Still winnable?" checks per client per minute (env WINNABLE_RATE_MAX, default 120; 0 = the global limit):
   * the badge's own allowance, apart from the hints'.
   */
  readonly winnableRateMax: number;
  /**
   * Solver jobs one client (address or player) may have waiting or running at once; more get 503
   * solver-busy (env SOLVER_JOBS_PER_CLIENT, default 2).
   */
  readonly solverJobsPerClient: number;
  /** Solver jobs waiting for a thread before new ones get 503 solver-busy (env SOLVER_QUEUE, default 64). */
  readonly solverQueue: number;
  /** A solver thread ends after this long without a job, ms (env SOLVER_IDLE_MS, default 30000); threads start on demand. */
  readonly solverIdleMs: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the solver's settings join AppConfig
  interface AppConfig extends SolveConfig {}
}

/** The solver's slice of the configuration. */
export const SOLVE_CONFIG = z
  .object({
    SOLVER_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, availableParallelism() - 1)),
    SOLVER_BACKGROUND_THREADS: z.coerce.number().int().min(0).max(16).default(1),
    SOLVE_MAX_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(10_000),
    HINT_TIME_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(3_000),
    SOLVE_RATE_MAX: z.coerce.number().int().min(0).default(30),
    WINNABLE_RATE_MAX: z.coerce.number().int().min(0).default(120),
    SOLVER_QUEUE: z.coerce.number().int().min(0).default(64),
    SOLVER_IDLE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
    SOLVER_JOBS_PER_CLIENT: z.coerce.number().int().min(1).default(2),
  })
  .transform((e): SolveConfig => ({
    solverThreads: e.SOLVER_THREADS,
    solverBackgroundThreads: e.SOLVER_BACKGROUND_THREADS,
    solveMaxMs: e.SOLVE_MAX_MS,
    hintTimeMs: e.HINT_TIME_MS,
    solveRateMax: e.SOLVE_RATE_MAX,
    winnableRateMax: e.WINNABLE_RATE_MAX,
    solverQueue: e.SOLVER_QUEUE,
    solverIdleMs: e.SOLVER_IDLE_MS,
    solverJobsPerClient: e.SOLVER_JOBS_PER_CLIENT,
  }));
