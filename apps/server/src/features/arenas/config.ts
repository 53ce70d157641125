/** The arenas' settings (ARENA_SCHEDULE): their slice of `AppConfig`. */
import { z } from 'zod';
import { emptyToUndefined } from '../../infra/config.js';

/** The arenas' settings. */
export interface ArenasConfig {
  /**
   * Whether the server makes the scheduled arenas (env ARENA_SCHEDULE `on`|`off`, default on; docs/arenas.md
   * "Schedule"), by the daily job's lease holder (so only with DAILY_SCHEDULE on).
   */
  readonly arenaSchedule: boolean;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the arenas' settings join AppConfig
  interface AppConfig extends ArenasConfig {}
}

/** The arenas' slice of the configuration. */
export const ARENAS_CONFIG = z
  .object({
    ARENA_SCHEDULE: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  })
  .transform((e): ArenasConfig => ({ arenaSchedule: e.ARENA_SCHEDULE === 'on' }));
