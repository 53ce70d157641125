/**
 * The maintenance job's settings (MAINTENANCE_TICK_MS, GAME_RETENTION_DAYS, MOVE_ARCHIVE_AFTER_MS): its
 * slice of `AppConfig`.
 */
import { z } from 'zod';

/** The maintenance job's settings. */
export interface MaintenanceConfig {
  /** Unfinished anonymous games untouched this many days are deleted (env GAME_RETENTION_DAYS, default 30; 0 = keep). */
  readonly gameRetentionDays: number;
  /** How often the maintenance job runs, ms (env MAINTENANCE_TICK_MS, default 10 min; 0 = never). */
  readonly maintenanceTickMs: number;
  /**
   * A game won or resigned this long ago, ms, has its move log compacted into its row (env
   * MOVE_ARCHIVE_AFTER_MS, default 1 day; 0 = never): maintenance/compaction.ts.
   */
  readonly moveArchiveAfterMs: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the maintenance job's settings join AppConfig
  interface AppConfig extends MaintenanceConfig {}
}

/** The maintenance job's slice of the configuration. */
export const MAINTENANCE_CONFIG = z
  .object({
    GAME_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
    MAINTENANCE_TICK_MS: z.coerce.number().int().min(0).default(600_000),
    MOVE_ARCHIVE_AFTER_MS: z.coerce.number().int().min(0).default(86_400_000),
  })
  .transform((e): MaintenanceConfig => ({
    gameRetentionDays: e.GAME_RETENTION_DAYS,
    maintenanceTickMs: e.MAINTENANCE_TICK_MS,
    moveArchiveAfterMs: e.MOVE_ARCHIVE_AFTER_MS,
  }));
