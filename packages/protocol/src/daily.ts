/**
 * Wire protocol of players, daily challenges, leaderboards and replays (issue "The daily challenge, players
 * and leaderboards"). Shared by server (validation, OpenAPI) and web client (parsing).
 */
import { z } from 'zod';
import { DeprecatedOffsetSchema, NextCursorSchema, pageQuery } from './pagination.js';
import { GameIdSchema, MoveSchema, PresetSchema, GameOptionsSchema } from './game.js';
import { DailyPresetSchema, DateSchema } from './refs.js';
import { SettingsPatchSchema } from './settings.js';

// ---------- Players ----------

/** A player id. */
export const PlayerIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/**
 * Characters a name may never hold: Unicode's Default_Ignorable_Code_Point set (the Hangul fillers U+115F,
 * U+1160, U+3164, U+FFA0, the zero-width U+200B–U+200D, U+2060, U+FEFF, the bidi marks and controls U+200E/F,
 * U+202A–U+202E, U+2066–U+2069, U+061C, variation selectors, …): each draws nothing, or turns text around.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;

/**
 * The alphabets whose letters look alike (Latin a/Cyrillic а/Greek α, …): one word may use only one of them.
 * Scripts that are written together on purpose (Han with Hiragana or Katakana, Hangul with Han) are not in
 * this list; digits and punctuation belong to no script here.
 */
const LOOKALIKE_SCRIPTS: readonly RegExp[] = [
  /\p{Script=Latin}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Cherokee}/u,
  /\p{Script=Coptic}/u,
];

/**
 * What makes a player or arena name deceptive, in words, or null when it is fine: an invisible, filler or
 * bidi-control character, or a word (split at spaces, `_`, `.`, `-`) mixing letters of two alphabets that look
 * alike (Latin with Cyrillic, Latin with Greek, …). Checked on the NFKC form, so full-width letters count as
 * the letters they stand for.
 */
export function deceptiveNameProblem(name: string): string | null {
  if (INVISIBLE.test(name)) return 'invisible, filler and bidi-control characters are not allowed';
  for (const word of name.normalize('NFKC').split(/[\s_.-]+/u)) {
    let scripts = 0;
    for (const script of LOOKALIKE_SCRIPTS) if (script.test(word)) scripts++;
    if (scripts > 1) return `"${word}" mixes the letters of different scripts (such as Latin and Cyrillic)`;
  }
  return null;
}

/**
 * A display name: 3–20 characters, letters (any script), digits, space, `_`, `-`, `.`; trimmed; no leading,
 * trailing or double spaces; no invisible, filler or bidi-control character, and no word mixing alphabets
 * that look alike (`deceptiveNameProblem`). Unique by its confusable skeleton (the server's `nameSkeleton`).
 */
export const PlayerNameSchema = z
  .string()
  .trim()
  .min(3)
  .max(20)
  .superRefine((n, ctx) => {
    const problem = deceptiveNameProblem(n);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .regex(/^[\p{L}\p{N}_.-]+( [\p{L}\p{N}_.-]+)*$/u, 'letters, digits, _ . - and single spaces only');

/** A new name alone (the rename part of PATCH /api/me). */
export const PlayerNameBodySchema = z.object({ name: PlayerNameSchema }).strict();

/**
 * PATCH /api/me body: a new name, a change of settings (the keys sent replace the stored ones; the others
 * stay), or both. Unknown keys, here or among the settings, are refused (400); so is an empty body.
 */
export const PatchMeBodySchema = z
  .object({ name: PlayerNameSchema.optional(), settings: SettingsPatchSchema.optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.settings !== undefined, 'send a name, settings or both')
  .meta({ id: 'PatchMe' });
/** PATCH /api/me body. */
export type PatchMeBody = z.infer<typeof PatchMeBodySchema>;

/**
 * POST /api/players body. `bot: true` creates a bot account: labelled as a bot wherever players are shown,
 * ranked only on the bot boards, racing only other bots, with its own per-token rate limit.
 */
export const CreatePlayerBodySchema = z
  .object({ name: PlayerNameSchema, bot: z.boolean().optional() })
  .strict()
  .meta({ id: 'CreatePlayer' });
/** POST /api/players body. */
export type CreatePlayerBody = z.infer<typeof CreatePlayerBodySchema>;

/** Whether a player is a bot account (shown next to every player name). */
export const BotFlagSchema = z.boolean().meta({ description: 'true for a bot account' });

/** POST /api/players → 201: the secret token is shown once (only its hash is stored). */
export const PlayerCreatedSchema = z
  .object({ id: PlayerIdSchema, name: z.string(), bot: BotFlagSchema, token: z.string() })
  .meta({ id: 'PlayerCreated' });

/** Which ranking a leaderboard shows: people (`humans`, the default) or bot accounts (`bots`). */
export const BoardSchema = z.enum(['humans', 'bots']);
/** A leaderboard's board. */
export type Board = z.infer<typeof BoardSchema>;

/** All-time numbers of a player. Streaks count consecutive UTC days with a won daily (any daily preset). */
export const PlayerStatsSchema = z.object({
  /** Ranked daily attempts finished. */
  played: z.number().int().min(0),
  wins: z.number().int().min(0),
  /** wins / played, 0 when nothing played. */
  winRate: z.number().min(0).max(1),
  currentStreak: z.number().int().min(0),
  bestStreak: z.number().int().min(0),
  /** Best winning time in ms per daily preset, null when never won. */
  bestTimeMs: z.object({
    'classic-draw1': z.number().int().nullable(),
    'classic-draw3': z.number().int().nullable(),
  }),
});

/** GET /api/me → the caller (Authorization: Bearer <token>). */
export const MeSchema = z
  .object({
    id: PlayerIdSchema,
    name: z.string(),
    bot: BotFlagSchema,
    createdAt: z.string(),
    stats: PlayerStatsSchema,
    /** The settings the player stored (missing keys: the defaults, `DEFAULT_SETTINGS`). */
    settings: SettingsPatchSchema,
  })
  .meta({ id: 'Me' });

/** GET /api/me/transfer → a link that signs another device in as this player (it carries the token). */
export const TransferSchema = z
  .object({
    /** The single-use code (also inside `url`). */
    code: z.string(),
    /** The sign-in link, relative: `/#signin=<code>` (a fragment: browsers never send it to a server). */
    url: z.string(),
    /** When the code stops working (ISO). */
    expiresAt: z.string(),
  })
  .meta({ id: 'Transfer' });

/** POST /api/players/transfer body: a transfer code, exchanged for a new token of its player. */
export const RedeemTransferBodySchema = z.object({ code: z.string().min(1).max(64) }).strict();

/** POST /api/me/token: the caller's new token (the one it sent no longer works). */
export const RotatedTokenSchema = z.object({ token: z.string() }).meta({ id: 'RotatedToken' });

/** POST /api/me/sign-out-everywhere: how many devices (tokens) were signed out, the caller's included. */
export const SignedOutSchema = z.object({ devices: z.number().int().min(0) });

/** Outcome of a finished ranked attempt. */
export const ResultStatusSchema = z.enum(['won', 'resigned', 'blocked', 'unfinished']);

/** A player's result on one daily. */
export const DailyResultSchema = z.object({
  gameId: GameIdSchema,
  /** `playing` while the attempt is under way. */
  status: z.union([ResultStatusSchema, z.literal('playing')]),
  score: z.number().int(),
  timeMs: z.number().int().min(0),
  moves: z.number().int().min(0),
  /** Rank on the daily's leaderboard once finished. */
  rank: z.number().int().min(1).nullable(),
});

/** GET /api/players/:id → a player's page. */
export const PlayerPageSchema = z
  .object({
    id: PlayerIdSchema,
    name: z.string(),
    bot: BotFlagSchema,
    createdAt: z.string(),
    /**
     * A moderator marked the player for breaking the fair-play rules (docs/moderation.md): they are on no
     * board. Absent from servers before issue 55 (read as false).
     */
    marked: z.boolean().optional(),
    stats: PlayerStatsSchema,
    recent: z.array(DailyResultSchema.extend({ date: DateSchema, preset: DailyPresetSchema })),
    /**
     * Glicko-2 ratings by pool (`daily-classic-draw1`, …; docs/ratings.md), each with `rating`, `deviation`,
     * `games`, `provisional`; pools without a rated result are absent.
     */
    ratings: z
      .record(
        z.string(),
        z.object({
          rating: z.number().int(),
          deviation: z.number().int().min(0),
          games: z.number().int().min(0),
          provisional: z.boolean(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'PlayerPage' });

// ---------- Daily challenges ----------

/**
 * A daily's commitment (docs/fairness.md): SHA-256, lower-case hex, of its preimage
 * `klondike-daily|<date>|<preset>|deal-v2|<candidate>|<key>`. Public from the moment the daily is stored
 * (a day ahead); the preimage is revealed once the day has closed.
 */
export const CommitmentSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: 'SHA-256 (hex) of the daily preimage (docs/fairness.md)' });

/** Path params of a daily. */
export const DailyParamsSchema = z.object({ date: DateSchema, preset: DailyPresetSchema });

/** One daily challenge as listed (never its deal, seed or line while open). */
export const DailyChallengeSchema = z.object({
  date: DateSchema,
  preset: DailyPresetSchema,
  /** Ranked attempts started so far. */
  players: z.number().int().min(0),
  /** When the day closes (ISO time, UTC midnight after `date`). */
  closesAt: z.string(),
  /** Whether the day has closed (deal, line and replays are public). */
  closed: z.boolean(),
  /** Length of the solver's line for the deal (public: it reveals nothing of the deal). */
  par: z.number().int().min(0),
  /**
   * Whether `par` is proven to be the fewest moves of any winning line ("par N (proven shortest)"); false:
   * some line may be shorter ("par ≤ N"). Public like `par` (one bit about the length, nothing of the deal).
   */
  parProven: z.boolean(),
  /** The caller's own result, when a player token is sent. */
  you: DailyResultSchema.nullable(),
  /** The daily's commitment; null only for a daily dealt before deal algorithm v2 (no key). */
  commitment: CommitmentSchema.nullable(),
  /**
   * The deal's difficulty on the rating scale (docs/ratings.md), from its results once its day has closed
   * and been rated: the rating of a player who would score even against it. Null before.
   */
  difficulty: z.number().int().nullable(),
  /**
   * The caller's daily rating before and after this day's rating period (whole points), once the day has
   * been rated with the caller's result; null otherwise (no token, no rated result, or the day still open).
   */
  yourRating: z.object({ before: z.number().int(), after: z.number().int() }).nullable(),
});

/** A daily not yet open, as GET /api/daily lists it: only its commitment is public. */
export const DailyUpcomingSchema = z.object({
  date: DateSchema,
  preset: DailyPresetSchema,
  /** When the day opens (ISO time, UTC midnight of `date`). */
  opensAt: z.string(),
  commitment: CommitmentSchema,
});

/** GET /api/daily → today's challenges. */
export const DailyTodaySchema = z
  .object({
    date: DateSchema,
    /** Server time now (ISO). */
    now: z.string(),
    /** When the next daily opens (ISO). */
    nextAt: z.string(),
    challenges: z.array(DailyChallengeSchema),
    /** Tomorrow's dailies, stored a day ahead: their commitments, published before they open. */
    tomorrow: z.array(DailyUpcomingSchema),
  })
  .meta({ id: 'DailyToday' });

/**
 * GET /api/daily/archive → the closed days' challenges of the archive window (the last DAILY_ARCHIVE_DAYS
 * days) that exist now, newest first, and how many of the window's challenges are still being prepared
 * (`pending`: the server fills the archive in the background; the list grows until `pending` is 0).
 */
export const DailyArchiveSchema = z.object({
  days: z.array(DailyChallengeSchema),
  nextCursor: NextCursorSchema,
  pending: z.number().int().min(0),
});

/**
 * The preimage of a closed day's commitment and its parts: SHA-256(`preimage`) = `commitment`, and the deal
 * is `dealFromKey(key)` (rules package, deal algorithm v2 = `algorithm`).
 */
export const DailyPreimageSchema = z.object({
  /** The exact string whose SHA-256 is the commitment. */
  preimage: z.string(),
  /** The deal's 256-bit key, 64 lower-case hex characters. */
  key: z.string().regex(/^[0-9a-f]{64}$/),
  algorithm: z.literal('deal-v2'),
  /** The candidate index k that became the daily (docs/fairness.md, "Selection rule"). */
  candidate: z.number().int().min(0),
});

/** GET /api/daily/:date/:preset once closed → the deal, its par and the solver's line. 403 while open. */
export const DailyRevealSchema = z
  .object({
    date: DateSchema,
    preset: DailyPresetSchema,
    /** The commitment published before the day opened; null for a daily dealt before algorithm v2. */
    commitment: CommitmentSchema.nullable(),
    /** The commitment's preimage and parts; null with `commitment`. */
    reveal: DailyPreimageSchema.nullable(),
    /** 52 card codes in deal order. */
    deal: z.string(),
    par: z.number().int().min(0),
    /** Whether `par` (the line's length) is proven shortest. */
    parProven: z.boolean(),
    /** A proven lower bound on the moves of any winning line (= par when proven); null when not computed. */
    parLowerBound: z.number().int().min(0).nullable(),
    line: z.array(MoveSchema),
  })
  .meta({ id: 'DailyReveal' });

// ---------- Leaderboards ----------

/** One row of a daily leaderboard. Order: winners first, then score (high first), time, moves, finishing time. */
export const LeaderboardEntrySchema = z.object({
  rank: z.number().int().min(1),
  playerId: PlayerIdSchema,
  name: z.string(),
  bot: BotFlagSchema,
  status: ResultStatusSchema,
  score: z.number().int(),
  timeMs: z.number().int().min(0),
  moves: z.number().int().min(0),
  /** When the attempt ended (ISO). */
  finishedAt: z.string(),
  /** The ranked game (its replay is public once the day has closed). */
  gameId: GameIdSchema,
  /**
   * The player's account was created on the daily's date (or later): the row is provisional, left out of
   * the default view and of its ranks (docs/features.md "Ranked rules").
   */
  provisional: z.boolean(),
});

/**
 * GET /api/daily/:date/:preset/leaderboard query: a page (`offset`, `limit`) or the page around the caller,
 * of the human board (default) or the bot board (`board=bots`).
 */
export const LeaderboardQuerySchema = z.object({
  board: BoardSchema.default('humans'),
  ...pageQuery(20, 100),
  offset: DeprecatedOffsetSchema,
  around: z.literal('me').optional(),
  /** `provisional`: also list the rows of accounts created on the daily's date (left out by default). */
  include: z.literal('provisional').optional(),
});

/** One bucket of a histogram of winning times: [fromMs, toMs). */
export const TimeBucketSchema = z.object({
  fromMs: z.number().int().min(0),
  toMs: z.number().int().min(0),
  count: z.number().int().min(0),
});

/** A histogram of winning times: equal buckets of `bucketMs`, from the first bucket holding a win. */
export const TimeHistogramSchema = z.object({
  /** Width of every bucket, ms. */
  bucketMs: z.number().int().min(1),
  buckets: z.array(TimeBucketSchema),
});
/** A histogram of winning times. */
export type TimeHistogram = z.infer<typeof TimeHistogramSchema>;

/**
 * The distribution of a daily's results on one board (part of the leaderboard response): winning times as
 * a histogram, and where the caller stands.
 */
export const ResultDistributionSchema = z.object({
  /** Finished attempts counted (the board's rows of the default view: no provisional rows). */
  finished: z.number().int().min(0),
  wins: z.number().int().min(0),
  winTimes: TimeHistogramSchema,
  /** The caller's winning time (ms), when the caller won on this board; the mark on the histogram. */
  yourTimeMs: z.number().int().min(0).nullable(),
  /**
   * Share 0 … 1 of the other finished attempts the caller's row ranks above ("better than 73 %"); null
   * without a token, without a row on this board, or when nobody else finished.
   */
  youBeat: z.number().min(0).max(1).nullable(),
});
/** A daily's result distribution. */
export type ResultDistribution = z.infer<typeof ResultDistributionSchema>;

/** GET /api/daily/:date/:preset/leaderboard. */
export const LeaderboardSchema = z
  .object({
    date: DateSchema,
    preset: DailyPresetSchema,
    board: BoardSchema,
    /** The daily's par (as in the challenge list), so rows can show their moves against it. */
    par: z.number().int().min(0),
    /** Whether `par` is proven shortest. */
    parProven: z.boolean(),
    /** Finished ranked attempts. */
    total: z.number().int().min(0),
    offset: z.number().int().min(0),
    limit: z.number().int().min(1),
    entries: z.array(LeaderboardEntrySchema),
    nextCursor: NextCursorSchema,
    /** The caller's own row, when a player token is sent and the caller has finished. */
    me: LeaderboardEntrySchema.nullable(),
    /** The distribution of the board's results and where the caller stands. */
    distribution: ResultDistributionSchema,
  })
  .meta({ id: 'Leaderboard' });

/** GET /api/leaderboard query: the human board (default) or the bot board. */
export const AllTimeLeaderboardQuerySchema = z.object({
  board: BoardSchema.default('humans'),
  ...pageQuery(100, 100),
});

/** GET /api/leaderboard → all-time: wins, win rate, streaks, best time per preset. */
export const AllTimeLeaderboardSchema = z.object({
  board: BoardSchema,
  nextCursor: NextCursorSchema,
  entries: z.array(
    PlayerStatsSchema.extend({
      rank: z.number().int().min(1),
      playerId: PlayerIdSchema,
      name: z.string(),
      bot: BotFlagSchema,
    }),
  ),
});

/**
 * GET /api/daily/:date/:preset/fair-play: the fair-play signals of the caller's own ranked result, once the
 * day has closed (docs/features.md "Fair play").
 */
export const FairPlaySignalsSchema = z
  .object({
    date: DateSchema,
    preset: DailyPresetSchema,
    /** ms from the attempt's creation (cards shown) to its first move; null when no move was made. */
    firstMoveMs: z.number().int().min(0).nullable(),
    /** Share 0…1 of the attempt's moves equal to the server's solver line at the same position. */
    lineShare: z.number().min(0).max(1),
    moves: z.number().int().min(0),
  })
  .meta({ id: 'FairPlaySignals' });
/** The fair-play signals of one ranked result. */
export type FairPlaySignals = z.infer<typeof FairPlaySignalsSchema>;

// ---------- Replays ----------

/** One step of a game's log, with its server time offset from the game's first action (ms). */
export const ReplayStepSchema = z.object({
  type: z.enum(['move', 'undo', 'resign']),
  move: MoveSchema.optional(),
  atMs: z.number().int().min(0),
});

/**
 * GET /api/games/:id/replay → a finished game's deal and log, to watch move by move. For a ranked daily
 * game only once its day has closed; for other games once they are won or resigned. 403 before.
 */
export const ReplaySchema = z
  .object({
    id: GameIdSchema,
    deal: z.string(),
    options: GameOptionsSchema,
    preset: PresetSchema.nullable(),
    player: z.object({ id: PlayerIdSchema, name: z.string(), bot: BotFlagSchema }).nullable(),
    steps: z.array(ReplayStepSchema),
  })
  .meta({ id: 'Replay' });

// ---------- Open data (docs/data.md) ----------

/** One entry of the export's move list: a move and when it was made, ms since the attempt was created. */
export const ExportMoveSchema = z.object({ move: MoveSchema, atMs: z.number().int().min(0) });

/**
 * One line of a day's export (NDJSON, gzip-compressed): a ranked attempt of a closed day, with its deal,
 * moves and leaderboard result. `result.rank` is the rank on the attempt's own board (people or bots),
 * counting every row of that board, provisional ones included (`include=provisional`).
 */
export const ExportGameSchema = z.object({
  gameId: GameIdSchema,
  playerId: PlayerIdSchema,
  name: z.string(),
  bot: z.boolean(),
  /** The account was created on the daily's date or later (left out of the default leaderboard view). */
  provisional: z.boolean(),
  date: DateSchema,
  preset: DailyPresetSchema,
  options: GameOptionsSchema,
  /** 52 card codes in deal order, space-separated (as in the reveal). */
  deal: z.string(),
  /** When the attempt was created and its clock started (ISO). */
  createdAt: z.string(),
  moves: z.array(ExportMoveSchema),
  result: z.object({
    status: ResultStatusSchema,
    score: z.number().int(),
    timeMs: z.number().int().min(0),
    moves: z.number().int().min(0),
    rank: z.number().int().min(1),
    /** When the attempt ended (ISO; the day's close for `unfinished`): the last tie-breaker of the order. */
    finishedAt: z.string(),
  }),
});
/** One line of a day's export. */
export type ExportGame = z.infer<typeof ExportGameSchema>;

/** One export file: a closed day's ranked attempts (both daily presets). */
export const ExportFileSchema = z.object({
  date: DateSchema,
  /** Where to download it (relative to the server): GET /api/exports/:date. */
  url: z.string(),
  /** SHA-256 (hex) of the file's bytes (the gzip stream as served). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Size of the file, bytes. */
  bytes: z.number().int().min(0),
  /** Lines (games) in the file. */
  games: z.number().int().min(0),
});

/** GET /api/exports → the open data files of the closed days, newest first (docs/data.md, CC0). */
export const ExportListSchema = z
  .object({
    /** The licence of every file: CC0 1.0 (public domain dedication). */
    license: z.literal('CC0-1.0'),
    files: z.array(ExportFileSchema),
    nextCursor: NextCursorSchema,
  })
  .meta({ id: 'ExportList' });

/**
 * GET /api/exports and GET /api/daily/archive query: a page, newest first. The default page holds the whole
 * list of clients written before pagination (up to 1000 rows).
 */
export const DayListQuerySchema = z.object(pageQuery(1000, 1000));

/** Path params of GET /api/exports/:date. */
export const ExportParamsSchema = z.object({ date: DateSchema });
