/** The moderation settings (MODERATORS, REPORT_RATE_MAX): their slice of `AppConfig` (docs/moderation.md). */
import { z } from 'zod';

/** The moderation settings. */
export interface ModerationConfig {
  /**
   * Player ids that are moderators (env MODERATORS, comma-separated, spaces ignored; default none). The
   * `Moderator` rows written by the CLI (scripts/moderator.ts) name others.
   */
  readonly moderators: readonly string[];
  /** Reports one player may file per hour (env REPORT_RATE_MAX, default 10; 0 = only the global limit). */
  readonly reportRateMax: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the moderation settings join AppConfig
  interface AppConfig extends ModerationConfig {}
}

/** A comma-separated list of player ids (empty entries dropped). */
const IdListSchema = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id.length > 0),
  )
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'player ids: letters, digits, _ and -')));

/** The moderation slice of the configuration. */
export const MODERATION_CONFIG = z
  .object({
    MODERATORS: IdListSchema,
    REPORT_RATE_MAX: z.coerce.number().int().min(0).default(10),
  })
  .transform((e): ModerationConfig => ({ moderators: e.MODERATORS, reportRateMax: e.REPORT_RATE_MAX }));
