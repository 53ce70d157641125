/** The game rooms' settings (MAX_LIVE_GAMES, COMMIT_QUEUE, COMMIT_CONCURRENCY): their slice of `AppConfig`. */
import { z } from 'zod';
import { emptyToUndefined } from '../../infra/config.js';

/** The game rooms' settings. */
export interface GamesConfig {
  /** Most games kept in memory (env MAX_LIVE_GAMES, default 10000); idle games without subscribers are evicted first. */
  readonly maxLiveGames: number;
  /**
   * Moves (and undos, resignations) admitted and not yet committed before new ones are refused with
   * `overloaded` (WebSocket error frame; REST 503 with Retry-After) (env COMMIT_QUEUE, default 256).
   */
  readonly commitQueue: number;
  /**
   * Move-log flushes in flight at once, each on its own connection and carrying other games (env
   * COMMIT_CONCURRENCY; default null: 2 on Postgres, 1 on PGlite, which runs one statement at a time).
   */
  readonly commitConcurrency: number | null;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the game rooms' settings join AppConfig
  interface AppConfig extends GamesConfig {}
}

/** The game rooms' slice of the configuration. */
export const GAMES_CONFIG = z
  .object({
    MAX_LIVE_GAMES: z.coerce.number().int().min(1).default(10_000),
    COMMIT_QUEUE: z.coerce.number().int().min(1).default(256),
    COMMIT_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(16).optional()),
  })
  .transform((e): GamesConfig => ({
    maxLiveGames: e.MAX_LIVE_GAMES,
    commitQueue: e.COMMIT_QUEUE,
    commitConcurrency: e.COMMIT_CONCURRENCY ?? null,
  }));
