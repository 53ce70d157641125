/**
 * Fair play with due process (docs/fair-play.md): the signals of each finished rated game, automatic flags,
 * player reports, the moderators' queue and actions, marks and their rating refunds, appeals, the audit log
 * and the published figures.
 */
import { z } from 'zod';
import { NextCursorSchema, pageQuery } from './pagination.js';
import { PlayerIdSchema, PlayerNameSchema } from './daily.js';
import { GameIdSchema } from './game.js';

/** An ISO 8601 timestamp (UTC). */
const TimestampSchema = z.iso.datetime();

/** Why a player reports another (POST /api/reports). */
export const REPORT_REASONS = [
  /** Play helped by a program: a solver, a bot, an oracle of the face-down cards. */
  'assistance',
  /** Rating manipulation: losing on purpose, second accounts, arranged results. */
  'boosting',
  /** A name that offends or impersonates. */
  'name',
  /** Abuse of other players. */
  'abuse',
  'other',
] as const;
/** A report's reason. */
export const ReportReasonSchema = z.enum(REPORT_REASONS);
/** A report's reason. */
export type ReportReason = z.infer<typeof ReportReasonSchema>;

/** POST /api/reports body: who, why, and optionally the game and a few words. */
export const ReportBodySchema = z
  .object({
    playerId: PlayerIdSchema,
    reason: ReportReasonSchema,
    gameId: GameIdSchema.optional(),
    /** What the reporter saw, shown to moderators (at most 500 characters). */
    text: z.string().trim().max(500).optional(),
  })
  .strict()
  .meta({ id: 'ReportBody' });
/** POST /api/reports body. */
export type ReportBody = z.infer<typeof ReportBodySchema>;

/** A report as its reporter and moderators see it. */
export const ReportSchema = z
  .object({
    id: z.number().int(),
    reporterId: PlayerIdSchema,
    playerId: PlayerIdSchema,
    reason: ReportReasonSchema,
    gameId: GameIdSchema.nullable(),
    text: z.string().nullable(),
    createdAt: TimestampSchema,
    /** `open` until a moderator closes it as `marked` or `dismissed`. */
    status: z.enum(['open', 'marked', 'dismissed']),
  })
  .meta({ id: 'Report' });
/** A report. */
export type Report = z.infer<typeof ReportSchema>;

/** What a finished rated game counted for. */
export const SignalledGameKindSchema = z.enum(['daily', 'race', 'arena']);

/** The signals of one finished rated game (docs/fair-play.md "Signals"). */
export const GameSignalsSchema = z
  .object({
    gameId: GameIdSchema,
    playerId: PlayerIdSchema,
    kind: SignalledGameKindSchema,
    /** Moves in the game's log (undos not counted). */
    moves: z.number().int().min(0),
    /** Median gap between consecutive moves, ms; null below two moves. */
    medianGapMs: z.number().int().min(0).nullable(),
    /** Share 0…1 of the gaps under 150 ms. */
    fastShare: z.number().min(0).max(1),
    /** Coefficient of variation of the gaps (low: machine-regular); null below three moves. */
    gapVariation: z.number().min(0).nullable(),
    /** Share 0…1 of moves agreeing with the solver's line from the same position; null: no verdict. */
    solverAgreement: z.number().min(0).max(1).nullable(),
    /** Positions where the best choice depended on face-down cards the player had not seen. */
    hiddenChoices: z.number().int().min(0),
    /** Of those, the times the player chose the branch only full knowledge favours. */
    hiddenHits: z.number().int().min(0),
    /** The thresholds the game passed (docs/fair-play.md "Flags"). */
    flags: z.array(z.string()),
    computedAt: TimestampSchema,
  })
  .meta({ id: 'GameSignals' });
/** The signals of one finished rated game. */
export type GameSignals = z.infer<typeof GameSignalsSchema>;

/** An automatic flag: a threshold passed, with its evidence. */
export const FairPlayFlagSchema = z
  .object({
    id: z.number().int(),
    playerId: PlayerIdSchema,
    gameId: GameIdSchema.nullable(),
    /** The threshold's name, e.g. `machine-speed`. */
    reason: z.string(),
    /** The figures that passed it. */
    evidence: z.record(z.string(), z.unknown()),
    createdAt: TimestampSchema,
    closedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'FairPlayFlag' });
/** An automatic flag. */
export type FairPlayFlag = z.infer<typeof FairPlayFlagSchema>;

/** POST /api/appeals body: the marked player's one appeal against their mark. */
export const AppealBodySchema = z
  .object({ text: z.string().trim().min(10).max(2000) })
  .strict()
  .meta({ id: 'AppealBody' });

/** An appeal and, once decided, its outcome. */
export const AppealSchema = z
  .object({
    id: z.number().int(),
    playerId: PlayerIdSchema,
    markId: z.number().int(),
    text: z.string(),
    createdAt: TimestampSchema,
    /** `open` until a moderator grants it (the mark is lifted) or denies it. */
    status: z.enum(['open', 'granted', 'denied']),
    /** The moderator's answer, once decided. */
    answer: z.string().nullable(),
    decidedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'Appeal' });
/** An appeal. */
export type Appeal = z.infer<typeof AppealSchema>;

/** A mark (open while `liftedAt` is null). */
export const FairPlayMarkSchema = z
  .object({
    id: z.number().int(),
    playerId: PlayerIdSchema,
    reason: z.string(),
    createdAt: TimestampSchema,
    liftedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'FairPlayMark' });

/**
 * GET /api/me/fair-play: the caller's own standing: their open mark (if any), its appeal and whether they
 * may still appeal (once per mark).
 */
export const FairPlayStandingSchema = z
  .object({
    marked: z.boolean(),
    mark: FairPlayMarkSchema.nullable(),
    appeal: AppealSchema.nullable(),
    canAppeal: z.boolean(),
  })
  .meta({ id: 'FairPlayStanding' });
/** The caller's fair-play standing. */
export type FairPlayStanding = z.infer<typeof FairPlayStandingSchema>;

/** A player as moderators see them. */
export const ModPlayerSummarySchema = z
  .object({
    id: PlayerIdSchema,
    name: z.string(),
    bot: z.boolean(),
    createdAt: TimestampSchema,
    markedAt: TimestampSchema.nullable(),
    closedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'ModPlayerSummary' });

/** One player in the moderators' queue: why they are there and the evidence. */
export const ModQueueEntrySchema = z
  .object({
    player: ModPlayerSummarySchema,
    /** Open automatic flags. */
    flags: z.array(FairPlayFlagSchema),
    /** Open reports about the player. */
    reports: z.array(ReportSchema),
    /** The player's open appeal, if any. */
    appeal: AppealSchema.nullable(),
    /** Their recent finished rated games with their signals, newest first. */
    games: z.array(GameSignalsSchema),
  })
  .meta({ id: 'ModQueueEntry' });

/** GET /api/mod/queue: players with an open flag, report or appeal, the oldest waiting first. */
export const ModQueueSchema = z
  .object({ entries: z.array(ModQueueEntrySchema), nextCursor: NextCursorSchema })
  .meta({ id: 'ModQueue' });

/** One action of the moderators' audit log. */
export const ModActionSchema = z
  .object({
    id: z.number().int(),
    /** The moderator's player id, or `system` / `cli`. */
    moderatorId: z.string(),
    moderatorName: z.string().nullable(),
    action: z.string(),
    playerId: PlayerIdSchema.nullable(),
    reason: z.string(),
    details: z.record(z.string(), z.unknown()),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'ModAction' });

/** GET /api/mod/players/:id: everything moderators know about one player. */
export const ModPlayerViewSchema = ModQueueEntrySchema.extend({
  /** Every mark, newest first. */
  marks: z.array(FairPlayMarkSchema),
  /** Every report about them (open and closed), newest first. */
  allReports: z.array(ReportSchema),
  /** Moderators' actions about them, newest first. */
  actions: z.array(ModActionSchema),
}).meta({ id: 'ModPlayerView' });

/** GET /api/mod/log query: a page of the log, newest first, before a cursor (an action id). */
export const ModLogQuerySchema = z.object({
  before: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .meta({ deprecated: true, description: 'Deprecated: an action id to list before. Use `cursor`.' }),
  ...pageQuery(50, 200),
});

/** GET /api/mod/queue query: a page of the queue (the default: the whole queue, at most 100). */
export const ModQueueQuerySchema = z.object(pageQuery(100, 100));

/** GET /api/mod/log: a page of the audit log, newest first; `next` is the cursor of the next page. */
export const ModLogSchema = z
  .object({
    entries: z.array(ModActionSchema),
    /** Deprecated: the `before` of the next page. Use `nextCursor`. */
    next: z.number().int().nullable(),
    nextCursor: NextCursorSchema,
  })
  .meta({ id: 'ModLog' });

/** A moderator's reason for an action (shown in the log). */
const ModReasonSchema = z.string().trim().min(3).max(500);

/** POST /api/mod/players/:id/mark, …/unmark, …/close and …/dismiss body. */
export const ModReasonBodySchema = z
  .object({ reason: ModReasonSchema })
  .strict()
  .meta({ id: 'ModReasonBody' });

/** POST /api/mod/players/:id/rename body: the new name and why. */
export const ModRenameBodySchema = z
  .object({ name: PlayerNameSchema, reason: ModReasonSchema })
  .strict()
  .meta({ id: 'ModRenameBody' });

/** POST /api/mod/appeals/:id/decide body. */
export const AppealDecisionBodySchema = z
  .object({ outcome: z.enum(['granted', 'denied']), answer: z.string().trim().min(3).max(2000) })
  .strict()
  .meta({ id: 'AppealDecisionBody' });

/** The result of a mark or an unmark: the refunds it gave or took back. */
export const MarkResultSchema = z
  .object({
    playerId: PlayerIdSchema,
    marked: z.boolean(),
    /** Rating points given back (mark) or taken back (unmark), one per opponent and race. */
    refunds: z.array(
      z.object({ playerId: PlayerIdSchema, raceCode: z.string(), pool: z.string(), points: z.number() }),
    ),
  })
  .meta({ id: 'MarkResult' });

/** One month of the published figures. */
export const FairPlayMonthSchema = z.object({
  /** `YYYY-MM` (UTC). */
  month: z.string().regex(/^\d{4}-\d{2}$/),
  reportsReceived: z.number().int().min(0),
  reportsClosed: z.number().int().min(0),
  flags: z.number().int().min(0),
  marks: z.number().int().min(0),
  unmarks: z.number().int().min(0),
  appeals: z.number().int().min(0),
  appealsGranted: z.number().int().min(0),
});

/** GET /api/fair-play/stats: the published figures, by month, newest first. */
export const FairPlayStatsSchema = z
  .object({ months: z.array(FairPlayMonthSchema) })
  .meta({ id: 'FairPlayStats' });
/** The published fair-play figures. */
export type FairPlayStats = z.infer<typeof FairPlayStatsSchema>;
