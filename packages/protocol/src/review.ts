/**
 * Game review (docs/review.md): where a finished game's deal died, the winning continuation from the last
 * winnable position, and accuracy against par.
 */
import { z } from 'zod';
import { GameIdSchema, MoveSchema } from './game.js';

/** A solver verdict on one position: winnable, lost, or `null` when the solver's budget ran out. */
const WinnableSchema = z.boolean().nullable();

/** One move of the played line and whether the deal could still be won after it. */
export const ReviewPlySchema = z.object({
  /** 1-based: the position after this many moves of the played line. */
  ply: z.number().int().min(1),
  move: MoveSchema,
  /** Whether the position after this move could still be won; null: unknown (solver budget). */
  winnable: WinnableSchema,
});

/**
 * GET /api/games/:id/review → 200 once computed. The played line is the game's moves that stand (an undone
 * move is not part of it). Every verdict comes from the solver with full knowledge of the deal.
 */
export const GameReviewSchema = z
  .object({
    id: GameIdSchema,
    status: z.literal('done'),
    /** Whether the deal could be won from its start; null: unknown. */
    winnableAtStart: WinnableSchema,
    /**
     * The first move after which the deal could no longer be won (`ply` = its 1-based position in the played
     * line); null for a won game, a deal lost from the start, a game resigned while still winnable, or when
     * a verdict on the way was unknown (`decided` false).
     */
    pointOfNoReturn: z.object({ ply: z.number().int().min(1), move: MoveSchema }).nullable(),
    /**
     * The last winnable position of a lost game (`ply` moves into the played line) and a winning
     * continuation from it; null for a won game or a deal lost from the start.
     */
    lastWinnable: z.object({ ply: z.number().int().min(0), line: z.array(MoveSchema) }).nullable(),
    /** 0–100 (docs/review.md "Accuracy"); null when it cannot be measured (deal lost from the start, unknown). */
    accuracy: z.number().int().min(0).max(100).nullable(),
    /** Every move of the played line with its verdict (inferred from the searched ones: winnability only falls). */
    plies: z.array(ReviewPlySchema),
    /** Moves of the shortest winning line from the start the solver found within its budget; null if none. */
    par: z.number().int().min(0).nullable(),
    /** Moves of the played line. */
    moves: z.number().int().min(0),
    /** The game was won. */
    won: z.boolean(),
    /** False when an unknown verdict left the point of no return undecided. */
    decided: z.boolean(),
    /** Solver verdicts this review needed. */
    solverCalls: z.number().int().min(0),
  })
  .meta({ id: 'GameReview' });
/** A game's review. */
export type GameReview = z.infer<typeof GameReviewSchema>;

/** GET /api/games/:id/review → 202 while it is being computed: ask again after `retryAfterMs`. */
export const GameReviewPendingSchema = z
  .object({ id: GameIdSchema, status: z.literal('pending'), retryAfterMs: z.number().int().min(0) })
  .meta({ id: 'GameReviewPending' });
/** A review being computed. */
export type GameReviewPending = z.infer<typeof GameReviewPendingSchema>;
