/** The puzzles' settings (PUZZLES_*): their slice of `AppConfig` (docs/puzzles.md "Settings"). */
import { z } from 'zod';
import { DEFAULT_GENERATION_LIMITS as D } from './generation.js';

/** The puzzles' settings. */
export interface PuzzlesConfig {
  /**
   * Period of the generation pass, ms (env PUZZLES_SWEEP_MS, default 60000; 0 = off: no start-up, periodic or
   * nudged pass, only `app.puzzles.sweep()` when called — for tests and tools).
   */
  readonly puzzlesSweepMs: number;
  /** Games one pass cuts at most (env PUZZLES_BATCH, default 20). */
  readonly puzzlesBatch: number;
  /** Most unseen cards of a puzzle's position (env PUZZLES_MAX_UNSEEN, default 5; k! arrangements are checked). */
  readonly puzzlesMaxUnseen: number;
  /** Most puzzles cut from one game (env PUZZLES_PER_GAME, default 3). */
  readonly puzzlesPerGame: number;
  /** Positions one solve of the fairness check may generate (env PUZZLES_SOLVE_NODES, default 50000). */
  readonly puzzlesSolveNodes: number;
  /** Most solver calls for one game (env PUZZLES_MAX_SOLVES, default 4000). */
  readonly puzzlesMaxSolves: number;
  /** Node budget of a clear-the-table par's shortest-line search (env PUZZLES_MINIMAL_NODES, default 500000). */
  readonly puzzlesMinimalNodes: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the puzzles' settings join AppConfig
  interface AppConfig extends PuzzlesConfig {}
}

/** The puzzles' slice of the configuration. */
export const PUZZLES_CONFIG = z
  .object({
    PUZZLES_SWEEP_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
    PUZZLES_BATCH: z.coerce.number().int().min(1).max(10_000).default(20),
    PUZZLES_MAX_UNSEEN: z.coerce.number().int().min(0).max(6).default(D.maxUnseen),
    PUZZLES_PER_GAME: z.coerce.number().int().min(1).max(50).default(D.perGame),
    PUZZLES_SOLVE_NODES: z.coerce.number().int().min(1_000).max(10_000_000).default(D.solveNodes),
    PUZZLES_MAX_SOLVES: z.coerce.number().int().min(1).max(1_000_000).default(D.maxSolves),
    PUZZLES_MINIMAL_NODES: z.coerce.number().int().min(1_000).max(50_000_000).default(D.minimalNodes),
  })
  .transform((e): PuzzlesConfig => ({
    puzzlesSweepMs: e.PUZZLES_SWEEP_MS,
    puzzlesBatch: e.PUZZLES_BATCH,
    puzzlesMaxUnseen: e.PUZZLES_MAX_UNSEEN,
    puzzlesPerGame: e.PUZZLES_PER_GAME,
    puzzlesSolveNodes: e.PUZZLES_SOLVE_NODES,
    puzzlesMaxSolves: e.PUZZLES_MAX_SOLVES,
    puzzlesMinimalNodes: e.PUZZLES_MINIMAL_NODES,
  }));
