/** The arenas' settings (ARENA_SCHEDULE, ARENA_PUBLIC_LIMIT, ARENA_TICK_MS): their slice of `AppConfig`. */
import { z } from 'zod';
import { emptyToUndefined } from '../../infra/config.js';

/** The arenas' settings. */
export interface ArenasConfig {
  /**
   * Whether the server makes the scheduled arenas (env ARENA_SCHEDULE `on`|`off`, default on; docs/arenas.md
   * "Schedule"), by the daily job's lease holder (so only with DAILY_SCHEDULE on).
   */
  readonly arenaSchedule: boolean;
  /**
   * How many public arenas (not invite-only) one player may have upcoming or running at once (env
   * ARENA_PUBLIC_LIMIT, default 3; 0 forbids them): one more is refused with 409 `conflict`. Scheduled arenas
   * are the server's and do not count.
   */
  readonly arenaPublicLimit: number;
  /**
   * How often each node ticks while an arena runs, ms (env ARENA_TICK_MS, default 1000, 100–3600000): the
   * clock of the arenas' waits (the rematch wait, stale claims, berserk half times, the end). A race's end
   * and a join do not wait for it: they tick at once (docs/arenas.md "The tick").
   */
  readonly arenaTickMs: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the arenas' settings join AppConfig
  interface AppConfig extends ArenasConfig {}
}

/** The arenas' slice of the configuration. */
export const ARENAS_CONFIG = z
  .object({
    ARENA_SCHEDULE: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    ARENA_PUBLIC_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1000).default(3)),
    ARENA_TICK_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(100).max(3_600_000).default(1000),
    ),
  })
  .transform((e): ArenasConfig => ({
    arenaSchedule: e.ARENA_SCHEDULE === 'on',
    arenaPublicLimit: e.ARENA_PUBLIC_LIMIT,
    arenaTickMs: e.ARENA_TICK_MS,
  }));
