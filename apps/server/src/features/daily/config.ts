/** The daily challenge's settings (DAILY_*): its slice of `AppConfig`. */
import { MAX_SOLVE_TIME_MS } from '@klondike/protocol';
import { z } from 'zod';
import { emptyToUndefined } from '../../infra/config.js';
import { DAILY_SECRET_HOWTO, dailySecretProblem } from './secret-strength.js';

/** The daily challenge's settings. */
export interface DailyConfig {
  /**
   * Secret the daily deals are derived from (env DAILY_SECRET). Unset: a random secret is generated once and
   * kept in the database (table Setting), so restarts and other nodes deal the same dailies.
   */
  readonly dailySecret: string | undefined;
  /** Closed days whose dailies exist from the first start on and are listed by the archive (env DAILY_ARCHIVE_DAYS, default 30). */
  readonly dailyArchiveDays: number;
  /** Solver time per daily candidate deal, ms (env DAILY_SOLVE_MS, default 3000); unknown → next candidate. */
  readonly dailySolveMs: number;
  /** How often the daily job checks that today and tomorrow are ready and closed days are settled, ms (env DAILY_TICK_MS, default 60000). */
  readonly dailyTickMs: number;
  /**
   * How long after each UTC midnight the daily job waits before the new day's rollover (tomorrow's dailies and
   * their pars, the closed day's settling, open data and ratings), ms (env DAILY_ROLLOVER_DELAY_MS, default
   * 120000): midnight is when every daily player opens the new day at once, and that work would take the
   * cores from their openings. Today's dailies were stored a day ahead and are not waited for.
   */
  readonly dailyRolloverDelayMs: number;
  /**
   * Whether the daily job runs (env DAILY_SCHEDULE `on`|`off`, default on): start-up preparation and the
   * timer. Off, dailies are still prepared on first use by the daily routes (tests use this).
   */
  readonly dailySchedule: boolean;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the daily's settings join AppConfig
  interface AppConfig extends DailyConfig {}
}

/** The daily challenge's slice of the configuration (DAILY_SECRET's strength: secret-strength.ts). */
export const DAILY_CONFIG = z
  .object({
    DAILY_SECRET: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .superRefine((secret, ctx) => {
          const problem = dailySecretProblem(secret);
          if (problem !== null)
            ctx.addIssue({
              code: 'custom',
              message: `DAILY_SECRET needs 32 random bytes (43+ base64 or 64+ hex characters), but ${problem}: ${DAILY_SECRET_HOWTO}`,
            });
        })
        .optional(),
    ),
    DAILY_ARCHIVE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    DAILY_SOLVE_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(3_000),
    DAILY_TICK_MS: z.coerce.number().int().min(1000).default(60_000),
    DAILY_ROLLOVER_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(120_000),
    DAILY_SCHEDULE: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  })
  .transform((e): DailyConfig => ({
    dailySecret: e.DAILY_SECRET,
    dailyArchiveDays: e.DAILY_ARCHIVE_DAYS,
    dailySolveMs: e.DAILY_SOLVE_MS,
    dailyTickMs: e.DAILY_TICK_MS,
    dailyRolloverDelayMs: e.DAILY_ROLLOVER_DELAY_MS,
    dailySchedule: e.DAILY_SCHEDULE === 'on',
  }));
