/** The fair-play signals' settings (SIGNALS_*): their slice of `AppConfig`. */
import { z } from 'zod';

/** The fair-play signals' settings. */
export interface SignalsConfig {
  /**
   * Period of the pass that computes the signals of ended rated games without them, ms (env
   * SIGNALS_SWEEP_MS, default 15000; 0 = off: no start-up, periodic or nudged pass, only `app.signals.sweep()`
   * when called — for tests and tools).
   */
  readonly signalsSweepMs: number;
  /** Games one pass computes at most (env SIGNALS_BATCH, default 50). */
  readonly signalsBatch: number;
  /** Positions one solve of the signals may generate (env SIGNALS_SOLVE_NODES, default 20000; 0 = no solver signals). */
  readonly signalsSolveNodes: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the signals' settings join AppConfig
  interface AppConfig extends SignalsConfig {}
}

/** The fair-play signals' slice of the configuration. */
export const SIGNALS_CONFIG = z
  .object({
    SIGNALS_SWEEP_MS: z.coerce.number().int().min(0).max(86_400_000).default(15_000),
    SIGNALS_BATCH: z.coerce.number().int().min(1).max(10_000).default(50),
    SIGNALS_SOLVE_NODES: z.coerce.number().int().min(0).max(10_000_000).default(20_000),
  })
  .transform((e): SignalsConfig => ({
    signalsSweepMs: e.SIGNALS_SWEEP_MS,
    signalsBatch: e.SIGNALS_BATCH,
    signalsSolveNodes: e.SIGNALS_SOLVE_NODES,
  }));
