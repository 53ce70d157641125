/** What the server benchmark's phases share: the real server, its inspector, the database, the load records. */
import type pg from 'pg';
import type { Inspector, Server } from './child.js';

/** The context every phase of the server benchmark runs in. */
export interface BenchRun {
  /** The real server (one child process). */
  readonly server: Server;
  /** The real server's inspector (undefined with BENCH_INSPECT=0). */
  readonly inspector: Inspector | undefined;
  /** A client of the bench database (no schema): Postgres's backends, the count of `Move` rows. */
  readonly db: pg.Client;
  /** 1, 5 and 15-minute load averages at the start and after each phase (each phase pushes its own). */
  readonly load: number[][];
  /** Runs one measured phase, recording the load averages before and after it under `phase`. */
  readonly measured: <T>(phase: string, run: () => Promise<T>) => Promise<T>;
}
