/**
 * Puzzle ratings (docs/puzzles.md "Rating"), with the project's Glicko-2 (ratings/glicko2.ts): a player's
 * puzzle rating and each puzzle's own; a rated attempt is one game between them (the player wins when the
 * answer is correct), both rated at once in a rating period of their own, as lichess does for puzzles.
 * Pure.
 */
import { GLICKO2, NEW_RATING, type Rated, ratePeriod } from '../ratings/glicko2.js';
import type { PuzzleCandidate } from './generation.js';

/** A new puzzle's deviation: high, so its first attempts move it fast. */
export const NEW_PUZZLE_DEVIATION = 300;

/** Bounds of a new puzzle's rating. */
const START_MIN = 800;
const START_MAX = 2_200;

/**
 * A new puzzle's rating from its difficulty (docs/puzzles.md "Rating"):
 * - `only-move`: 1300 + 40 per legal move beyond two + 60 per unseen card;
 * - `clear-the-table`: 1000 + 30 per move of par, + 100 when the par is not proven shortest;
 * clamped to 800 … 2200, deviation NEW_PUZZLE_DEVIATION, volatility a new player's.
 */
export function startRating(
  p: Pick<PuzzleCandidate, 'goal' | 'par' | 'proven' | 'choices' | 'unseen'>,
): Rated {
  const raw =
    p.goal === 'only-move'
      ? 1_300 + 40 * Math.max(0, p.choices - 2) + 60 * p.unseen
      : 1_000 + 30 * p.par + (p.proven ? 0 : 100);
  return {
    rating: Math.min(START_MAX, Math.max(START_MIN, raw)),
    deviation: NEW_PUZZLE_DEVIATION,
    volatility: GLICKO2.volatility,
  };
}

/** A player's puzzle rating before their first rated attempt. */
export const NEW_PUZZLE_PLAYER: Rated = NEW_RATING;

/**
 * One rated attempt: the player against the puzzle, score 1 when `correct`. Returns both new ratings: a
 * correct answer raises the player's rating and lowers the puzzle's, a wrong one the reverse.
 */
export function rateAttempt(
  player: Rated,
  puzzle: Rated,
  correct: boolean,
): { player: Rated; puzzle: Rated } {
  const [p, z] = ratePeriod(
    [player, puzzle],
    [[{ opponent: puzzle, score: correct ? 1 : 0 }], [{ opponent: player, score: correct ? 0 : 1 }]],
  );
  return { player: p ?? player, puzzle: z ?? puzzle };
}
