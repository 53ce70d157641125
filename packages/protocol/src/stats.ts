/**
 * Player statistics and game history (docs/features.md "Statistics"): GET /api/players/:id/stats (public, like the
 * player page), GET /api/players/:id/games (the player's own history: owner-only) and
 * GET /api/me/games/current (the caller's unfinished game, resumed on another device).
 *
 * A finished game is one whose status is `won`, `resigned` or `blocked` (docs/rules.md R12/R13), of any kind —
 * casual games created with the player's token included. Times are the server's game clock (ms, from the
 * first logged action — a ranked attempt: its creation — to the end).
 */
import { z } from 'zod';
import { BotFlagSchema, PlayerIdSchema, TimeHistogramSchema } from './daily.js';
import { GameIdSchema, GameKindSchema, PresetSchema } from './game.js';
import { DailyPresetSchema, DateSchema } from './refs.js';

/** What a game's statistics are grouped by: its preset, or `custom` for options matching no preset. */
export const StatsPresetSchema = z.union([PresetSchema, z.literal('custom')]);
/** A preset name or `custom`. */
export type StatsPreset = z.infer<typeof StatsPresetSchema>;

/** Statistics of one preset's finished games. Ranked dailies count under their daily preset. */
export const PresetStatsSchema = z.object({
  preset: StatsPresetSchema,
  /** Finished games. */
  games: z.number().int().min(0),
  wins: z.number().int().min(0),
  /** wins / games (0 … 1). */
  winRate: z.number().min(0).max(1),
  /** Wins in a row ending with the latest finished game (0 when it was lost). */
  currentStreak: z.number().int().min(0),
  /** Longest run of wins in a row, by end time. */
  bestStreak: z.number().int().min(0),
  /** Fastest win, ms; null without a win. */
  bestTimeMs: z.number().int().min(0).nullable(),
  /** Mean time of the wins, ms (rounded); null without a win. */
  averageTimeMs: z.number().int().min(0).nullable(),
  /** Fewest moves of a win; null without a win. */
  bestMoves: z.number().int().min(0).nullable(),
  /** Mean moves of the wins (one decimal); null without a win. */
  averageMoves: z.number().min(0).nullable(),
  /** Sum of the final Vegas scores (docs/rules.md S2) of its finished games; null when the preset is not Vegas. */
  vegasBalance: z.number().int().nullable(),
});
/** One preset's statistics. */
export type PresetStats = z.infer<typeof PresetStatsSchema>;

/** One UTC day of the win-rate series (days without a finished game are left out). */
export const WinRateDaySchema = z.object({
  date: DateSchema,
  games: z.number().int().min(1),
  wins: z.number().int().min(0),
  /** Win rate of every finished game up to and including this day (0 … 1). */
  cumulativeWinRate: z.number().min(0).max(1),
});

/** One ranked daily of the last 30 days (closed or not) that the player finished. */
export const DailyRankPointSchema = z.object({
  date: DateSchema,
  preset: DailyPresetSchema,
  status: z.enum(['won', 'resigned', 'blocked', 'unfinished']),
  /** Rank on the player's board (humans or bots; provisional rows rank among all rows). */
  rank: z.number().int().min(1),
  /** Finished attempts on that board. */
  of: z.number().int().min(1),
});

/** GET /api/players/:id/stats (public). */
export const PlayerStatisticsSchema = z
  .object({
    id: PlayerIdSchema,
    name: z.string(),
    bot: BotFlagSchema,
    /** Server time of the answer (ISO). */
    asOf: z.string(),
    /** Totals over every finished game. */
    total: z.object({
      games: z.number().int().min(0),
      wins: z.number().int().min(0),
      winRate: z.number().min(0).max(1),
    }),
    /** One row per preset the player has finished a game of, most played first. */
    presets: z.array(PresetStatsSchema),
    /** Finished games per UTC day over the last 90 days (oldest first). */
    winRate: z.array(WinRateDaySchema),
    /** The player's winning times, all presets. */
    winTimes: TimeHistogramSchema,
    /** The player's fastest win (ms), null without one: the mark on the histogram. */
    bestTimeMs: z.number().int().min(0).nullable(),
    /** Ranked daily results of the last 30 days (oldest first). */
    dailyRanks: z.array(DailyRankPointSchema),
  })
  .meta({ id: 'PlayerStatistics' });
/** A player's statistics. */
export type PlayerStatistics = z.infer<typeof PlayerStatisticsSchema>;

/** How a finished game ended, as the history filters it: `lost` = resigned or blocked. */
export const HistoryResultSchema = z.enum(['won', 'lost']);

/** An opaque history cursor (the `nextCursor` of the previous page). */
export const HistoryCursorSchema = z
  .string()
  .regex(/^\d{1,15}_[A-Za-z0-9_-]{1,64}$/, 'a cursor from nextCursor');

/** GET /api/players/:id/games query. */
export const HistoryQuerySchema = z.object({
  preset: StatsPresetSchema.optional(),
  result: HistoryResultSchema.optional(),
  cursor: HistoryCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/** A history query. */
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

/** One finished game of the history. */
export const HistoryEntrySchema = z.object({
  gameId: GameIdSchema,
  kind: GameKindSchema,
  preset: StatsPresetSchema,
  status: z.enum(['won', 'resigned', 'blocked']),
  score: z.number().int(),
  moves: z.number().int().min(0),
  timeMs: z.number().int().min(0),
  /** When it ended (ISO). */
  endedAt: z.string(),
  /**
   * Whether `GET /api/games/:id/replay` answers now (docs/features.md "Fair play": a daily game once its day has
   * closed, a race game once the race has finished, another game once won or resigned).
   */
  replay: z.boolean(),
});
/** One history row. */
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** GET /api/players/:id/games: finished games, newest first. */
export const HistoryPageSchema = z
  .object({
    games: z.array(HistoryEntrySchema),
    /** Pass as `cursor` for the next page; null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'HistoryPage' });
/** A history page. */
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

/** The kinds of game `/` resumes: every kind but `race` (a race game stays with its race page). */
export const ResumableKindSchema = z.enum(['casual', 'daily-practice', 'daily-ranked']);

/**
 * The caller's unfinished game they acted on last (GET /api/me/games/current): status `playing`, created
 * with one of the player's tokens (so any device signed in as the player may play it, nobody else), of a
 * resumable kind — a ranked daily attempt only while its day is open.
 */
export const CurrentGameSchema = z.object({
  id: GameIdSchema,
  kind: ResumableKindSchema,
  /** The game's preset; null for options matching none. */
  preset: PresetSchema.nullable(),
  /** The daily a daily game plays, else null. */
  daily: z.object({ date: DateSchema, preset: DailyPresetSchema }).nullable(),
  /** The game's version (entries in its move log). */
  version: z.number().int().min(0),
  /** Moves made (an undo takes one back). */
  moves: z.number().int().min(0),
  /** When its last action was stored (ISO, server clock); its creation when it has none. */
  lastActionAt: z.string(),
});
/** The caller's current game. */
export type CurrentGame = z.infer<typeof CurrentGameSchema>;

/** GET /api/me/games/current: the caller's current game, or `null` when they have no unfinished game. */
export const CurrentGameResponseSchema = z
  .object({ game: CurrentGameSchema.nullable() })
  .meta({ id: 'CurrentGame' });
/** The answer of GET /api/me/games/current. */
export type CurrentGameResponse = z.infer<typeof CurrentGameResponseSchema>;
