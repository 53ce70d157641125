/**
 * Puzzles (docs/puzzles.md): positions cut from finished games and closed dailies, each fair (its answer holds
 * for every arrangement of the cards the player has not seen), rated with Glicko-2 like players, served near
 * the player's puzzle rating; a puzzle of the day; a timed run (as many as you can in three minutes, a wrong
 * answer costs time) with a daily and an all-time board.
 */
import { z } from 'zod';
import { BotFlagSchema, PlayerIdSchema } from './daily.js';
import { GameIdSchema, MoveSchema, PlayerViewSchema } from './game.js';
import { DateSchema } from './refs.js';
import { NextCursorSchema, pageQuery } from './pagination.js';

/**
 * Themes a puzzle is tagged with (docs/puzzles.md "Themes"):
 * - `only-move`: one move keeps the deal winnable, every other loses it;
 * - `clear-the-table`: every card is known; win in at most the puzzle's par;
 * - `uncover`: the answer turns up a face-down card;
 * - `king-to-empty-column`: the answer moves a king (or a run headed by one) to an empty column;
 * - `stock-timing`: the answer is to draw, recycle or take the last pass, or to play from the waste;
 * - `hold-back`: the answer keeps a card off a foundation (a tableau move where a foundation move was legal);
 * - `foundation`: the answer puts a card on a foundation;
 * - `long`: the answer (or the par) is 20 moves or more.
 */
export const PUZZLE_THEMES = [
  'only-move',
  'clear-the-table',
  'uncover',
  'king-to-empty-column',
  'stock-timing',
  'hold-back',
  'foundation',
  'long',
] as const;
/** A puzzle theme. */
export const PuzzleThemeSchema = z.enum(PUZZLE_THEMES);
/** A puzzle theme. */
export type PuzzleTheme = z.infer<typeof PuzzleThemeSchema>;

/** A puzzle id (opaque, URL-safe). */
export const PuzzleIdSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/);

/**
 * What the player is asked to do:
 * - `only-move`: play the one move (`moves` = 1) that keeps the deal winnable;
 * - `clear-the-table`: win from a position with no unseen card in at most `moves` moves (the puzzle's par:
 *   the shortest line the solver found; a proven shortest when `proven`).
 */
export const PuzzleGoalSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('only-move'), moves: z.literal(1) }).strict(),
    z
      .object({ type: z.literal('clear-the-table'), moves: z.number().int().min(1), proven: z.boolean() })
      .strict(),
  ])
  .meta({ id: 'PuzzleGoal' });
/** A puzzle's goal. */
export type PuzzleGoal = z.infer<typeof PuzzleGoalSchema>;

/** Where a puzzle was cut from: a finished game (its replay is public) and the ply of the position. */
export const PuzzleSourceSchema = z
  .object({
    gameId: GameIdSchema,
    /** Moves of the game's played line before the puzzle's position. */
    ply: z.number().int().min(0),
    /** The daily's date, when the game was a daily attempt. */
    date: DateSchema.nullable(),
  })
  .strict();

/**
 * A puzzle as served (GET /api/puzzles/next, /api/puzzles/daily, /api/puzzles/:id). `view` is the position as
 * the player sees it (the one view function: face-down cards and the stock's order are never sent).
 */
export const PuzzleSchema = z
  .object({
    id: PuzzleIdSchema,
    view: PlayerViewSchema,
    goal: PuzzleGoalSchema,
    /** The puzzle's own Glicko-2 rating (whole points). */
    rating: z.number().int(),
    themes: z.array(PuzzleThemeSchema),
    /** Rated attempts so far. */
    plays: z.number().int().min(0),
    source: PuzzleSourceSchema,
  })
  .meta({ id: 'Puzzle' });
/** A puzzle. */
export type Puzzle = z.infer<typeof PuzzleSchema>;

/** Path params of a puzzle route. */
export const PuzzleParamsSchema = z.object({ id: PuzzleIdSchema });

/** GET /api/puzzles/next query: optionally one theme. */
export const NextPuzzleQuerySchema = z.object({ theme: PuzzleThemeSchema.optional() });

/** POST /api/puzzles/:id/attempt body: the moves played from the puzzle's position, in order. */
export const PuzzleAttemptBodySchema = z.object({ moves: z.array(MoveSchema).min(1).max(200) }).strict();
/** A puzzle attempt. */
export type PuzzleAttemptBody = z.infer<typeof PuzzleAttemptBodySchema>;

/** A rating before and after one attempt (whole points). */
const RatingChangeSchema = z.object({ before: z.number().int(), after: z.number().int() });

/**
 * POST /api/puzzles/:id/attempt → the verdict and the solution. Only a player's first attempt at a puzzle is
 * rated (`rated`); later ones answer with `before` = `after`.
 */
export const PuzzleAttemptResultSchema = z
  .object({
    correct: z.boolean(),
    /** A correct answer: the only move, or a winning line in at most the goal's moves. */
    solution: z.array(MoveSchema),
    /** The player's puzzle rating. */
    rating: RatingChangeSchema,
    /** The puzzle's rating. */
    puzzleRating: RatingChangeSchema,
    rated: z.boolean(),
  })
  .meta({ id: 'PuzzleAttemptResult' });
/** The result of a puzzle attempt. */
export type PuzzleAttemptResult = z.infer<typeof PuzzleAttemptResultSchema>;

/** GET /api/puzzles/daily → the puzzle of the day (the same for everyone on a UTC date). */
export const DailyPuzzleSchema = z
  .object({ date: DateSchema, puzzle: PuzzleSchema })
  .meta({ id: 'DailyPuzzle' });

/** GET /api/puzzles/me → the caller's puzzle rating, its history and results by theme. */
export const PuzzleProfileSchema = z
  .object({
    playerId: PlayerIdSchema,
    rating: z.number().int(),
    deviation: z.number().int().min(0),
    /** Rated attempts. */
    attempts: z.number().int().min(0),
    solved: z.number().int().min(0),
    /** One point per rated attempt, oldest first (the last 200). */
    history: z.array(z.object({ at: z.string(), rating: z.number().int() })),
    /** Results by theme. */
    themes: z.array(
      z.object({
        theme: PuzzleThemeSchema,
        attempts: z.number().int().min(0),
        solved: z.number().int().min(0),
      }),
    ),
    /** Best timed-run scores. */
    bestRun: z.object({
      today: z.number().int().min(0).nullable(),
      allTime: z.number().int().min(0).nullable(),
    }),
  })
  .meta({ id: 'PuzzleProfile' });
/** A player's puzzle profile. */
export type PuzzleProfile = z.infer<typeof PuzzleProfileSchema>;

// ---------- The timed run ----------

/** A timed run lasts this long, ms. */
export const PUZZLE_RUN_MS = 180_000;
/** A wrong answer in a timed run costs this much of the run's time, ms. */
export const PUZZLE_RUN_PENALTY_MS = 10_000;

/** A timed run's id. */
export const PuzzleRunIdSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/);

/** Path params of a timed-run route. */
export const PuzzleRunParamsSchema = z.object({ id: PuzzleRunIdSchema });

/**
 * A timed run's state (POST /api/puzzles/runs, POST /api/puzzles/runs/:id/answer). The server keeps the clock:
 * the run ends at `endsAt` (ISO), moved earlier by PUZZLE_RUN_PENALTY_MS for each wrong answer; `puzzle` is
 * the one to answer now, null once the run is over.
 */
export const PuzzleRunSchema = z
  .object({
    id: PuzzleRunIdSchema,
    startedAt: z.string(),
    endsAt: z.string(),
    /** ms left now by the server's clock (0 once over). */
    remainingMs: z.number().int().min(0),
    solved: z.number().int().min(0),
    wrong: z.number().int().min(0),
    /** The run's score: puzzles solved. */
    score: z.number().int().min(0),
    finished: z.boolean(),
    puzzle: PuzzleSchema.nullable(),
  })
  .meta({ id: 'PuzzleRun' });
/** A timed run. */
export type PuzzleRun = z.infer<typeof PuzzleRunSchema>;

/** POST /api/puzzles/runs/:id/answer body: the answer to the run's current puzzle. */
export const PuzzleRunAnswerBodySchema = z
  .object({ puzzleId: PuzzleIdSchema, moves: z.array(MoveSchema).min(1).max(200) })
  .strict();

/** POST /api/puzzles/runs/:id/answer → whether it was right, its solution, and the run after it. */
export const PuzzleRunAnswerSchema = z
  .object({ correct: z.boolean(), solution: z.array(MoveSchema), run: PuzzleRunSchema })
  .meta({ id: 'PuzzleRunAnswer' });

/** GET /api/puzzles/runs/board query: today's (UTC) board or the all-time one. */
export const PuzzleRunBoardQuerySchema = z.object({
  period: z.enum(['day', 'all']).default('day'),
  ...pageQuery(20, 100),
});

/** One row of a timed-run board: a player's best run of the period. */
export const PuzzleRunBoardEntrySchema = z.object({
  rank: z.number().int().min(1),
  playerId: PlayerIdSchema,
  name: z.string(),
  bot: BotFlagSchema,
  score: z.number().int().min(0),
  /** When that run ended (ISO). */
  finishedAt: z.string(),
});

/** GET /api/puzzles/runs/board. */
export const PuzzleRunBoardSchema = z
  .object({
    period: z.enum(['day', 'all']),
    /** The UTC date of a `day` board; null for `all`. */
    date: DateSchema.nullable(),
    entries: z.array(PuzzleRunBoardEntrySchema),
    /** The caller's own row, when a token is sent and the caller has a finished run in the period. */
    me: PuzzleRunBoardEntrySchema.nullable(),
    nextCursor: NextCursorSchema,
  })
  .meta({ id: 'PuzzleRunBoard' });
/** A timed-run board. */
export type PuzzleRunBoard = z.infer<typeof PuzzleRunBoardSchema>;
