/** The game review's settings (REVIEW_*): its slice of `AppConfig`. */
import { MAX_SOLVE_TIME_MS } from '@klondike/protocol';
import { z } from 'zod';

/** The game review's settings (docs/review.md). */
export interface ReviewConfig {
  /** Time one solver verdict of a review may search, ms (env REVIEW_VERDICT_MS, default 2000). */
  readonly reviewVerdictMs: number;
  /** Reviews kept in memory on a node, least recently used dropped first (env REVIEW_CACHE, default 1000). */
  readonly reviewCache: number;
  /**
   * Reviews being computed at once on a node; a request for another gets 503 solver-busy (env
   * REVIEW_PENDING_MAX, default 16).
   */
  readonly reviewPendingMax: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the review's settings join AppConfig
  interface AppConfig extends ReviewConfig {}
}

/** The review's slice of the configuration. */
export const REVIEW_CONFIG = z
  .object({
    REVIEW_VERDICT_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(2_000),
    REVIEW_CACHE: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
    REVIEW_PENDING_MAX: z.coerce.number().int().min(1).max(10_000).default(16),
  })
  .transform((e): ReviewConfig => ({
    reviewVerdictMs: e.REVIEW_VERDICT_MS,
    reviewCache: e.REVIEW_CACHE,
    reviewPendingMax: e.REVIEW_PENDING_MAX,
  }));
