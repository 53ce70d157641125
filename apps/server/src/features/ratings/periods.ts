/**
 * The decisions of ratings, pure (docs/ratings.md): which pool a game counts in, a stored rating as of a
 * later period, and what a closed daily or a finished race does to its players' ratings. The rows are read
 * and written by repository.ts, which calls these inside its transactions.
 */
import type { RatingPool } from '@klondike/protocol';
import { DAY_MS, startOfDate } from '../../infra/dates.js';
import { pairKey } from './farming.js';
import { NEW_RATING, type Rated, deckDifficulty, inactive, rateBoard, ratePeriod } from './glicko2.js';

/** A stored rating row. */
export interface RatingRow {
  readonly playerId: string;
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly games: number;
  /** The last rating period with a result, `YYYY-MM-DD`. */
  readonly period: string;
}

/** A rating to write for rating period `date`: the player's new rating and their count of rated periods. */
export interface RatingWrite {
  readonly playerId: string;
  readonly rated: Rated;
  readonly games: number;
}

/** Whole closed days from `from` to `to` (UTC dates), negative when `to` is earlier. */
function daysBetween(from: string, to: string): number {
  return Math.round((startOfDate(to) - startOfDate(from)) / DAY_MS);
}

/** The race pool of a classic preset, or null for any other game (never rated). */
export function racePool(preset: string | null): RatingPool | null {
  return preset === 'classic-draw1'
    ? 'race-classic-draw1'
    : preset === 'classic-draw3'
      ? 'race-classic-draw3'
      : null;
}

/** The daily pool of a daily preset. */
export function dailyPool(preset: string): RatingPool {
  return preset === 'classic-draw3' ? 'daily-classic-draw3' : 'daily-classic-draw1';
}

/** `stored` as of rating period `date` (its deviation grown for the closed days between). */
export function asOf(stored: RatingRow | undefined, date: string): Rated {
  if (stored === undefined) return NEW_RATING;
  return inactive(stored, daysBetween(stored.period, date) - 1);
}

/** One established player's result of a closed daily, in leaderboard order. */
export interface DailyResultRow {
  readonly playerId: string;
  readonly won: boolean;
  readonly score: number;
  readonly timeMs: number;
  readonly moves: number;
  readonly bot: boolean;
}

/**
 * A closed daily's ratings of period `date`: each board (people, bots) rated on its own, its `rows` in
 * leaderboard order, one game each against the board's field (glicko2.ts `rateBoard`; a board of one rates
 * nobody), from the players' `stored` ratings. `difficulty`: the deck's, from the people's board (null
 * without people).
 */
export function rateDaily(
  rows: readonly DailyResultRow[],
  stored: readonly RatingRow[],
  date: string,
): { writes: RatingWrite[]; difficulty: Rated | null } {
  const byPlayer = new Map(stored.map((r) => [r.playerId, r]));
  let difficulty: Rated | null = null;
  const writes: RatingWrite[] = [];
  for (const board of ['humans', 'bots'] as const) {
    const mine = rows.filter((r) => r.bot === (board === 'bots'));
    if (mine.length === 0) continue;
    const priors = mine.map((r) => asOf(byPlayer.get(r.playerId), date));
    if (board === 'humans')
      difficulty = deckDifficulty(
        priors,
        mine.map((r) => r.won),
      );
    if (mine.length < 2) continue; // nobody to be ranked against
    const after = rateBoard(
      priors,
      mine.map((r) => `${r.won ? 1 : 0}|${r.score}|${r.timeMs}|${r.moves}`),
    );
    writes.push(
      ...mine.map((r, i) => ({
        playerId: r.playerId,
        rated: after[i] as Rated,
        games: (byPlayer.get(r.playerId)?.games ?? 0) + 1,
      })),
    );
  }
  return { writes, difficulty };
}

/** The racers `rateRace` rates: those with at least one counted game (`counts`, ratings/farming.ts). */
export function ratedRacers(
  placements: readonly { playerId: string; placement: number }[],
  counts: ReadonlySet<string>,
): { playerId: string; placement: number }[] {
  return placements.filter((p) =>
    placements.some((q) => q.playerId !== p.playerId && counts.has(pairKey(p.playerId, q.playerId))),
  );
}

/**
 * A finished race's ratings of period `date`: every racer plays every other racer whose pair counts
 * (`counts`, the keys of ratings/farming.ts `pairKey`), scoring 1 against each racer placed below, ½ against
 * an equal place, 0 against each above, all in one rating period, from their `stored` ratings. `placements`
 * are the rated racers' (`ratedRacers`): fewer than two rate nobody. Returns the writes and each rated racer's
 * rating before and after (Glicko scale, unrounded).
 */
export function rateRace(
  placements: readonly { playerId: string; placement: number }[],
  counts: ReadonlySet<string>,
  stored: readonly RatingRow[],
  date: string,
): { writes: RatingWrite[]; moved: { playerId: string; before: number; after: number }[] } {
  const rated = ratedRacers(placements, counts);
  if (rated.length < 2) return { writes: [], moved: [] };
  const byPlayer = new Map(stored.map((r) => [r.playerId, r]));
  const prior = new Map(rated.map((p) => [p.playerId, asOf(byPlayer.get(p.playerId), date)]));
  const priors = rated.map((p) => prior.get(p.playerId) as Rated);
  const after = ratePeriod(
    priors,
    rated.map((p) =>
      placements
        .filter((q) => q.playerId !== p.playerId && counts.has(pairKey(p.playerId, q.playerId)))
        .map((q) => ({
          opponent: prior.get(q.playerId) as Rated,
          score: p.placement < q.placement ? 1 : p.placement === q.placement ? 0.5 : 0,
        })),
    ),
  );
  return {
    writes: rated.map((p, i) => ({
      playerId: p.playerId,
      rated: after[i] as Rated,
      games: (byPlayer.get(p.playerId)?.games ?? 0) + 1,
    })),
    moved: rated.map((p, i) => ({
      playerId: p.playerId,
      before: (priors[i] as Rated).rating,
      after: (after[i] as Rated).rating,
    })),
  };
}
