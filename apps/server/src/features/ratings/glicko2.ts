/**
 * Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) through the `glicko2` package, and how a
 * day's placements become one game per player (docs/ratings.md):
 * - every rating period is one UTC day; a player's deviation grows by the volatility for each period
 *   without a game (`inactive`), up to a new player's;
 * - a daily's board gives player i the score s_i = (players ranked below i + ½ · players tied with i) /
 *   (n − 1), a share of the field beaten, and one game with that score against the **field**: an opponent
 *   with the mean rating of the day's n players and the root mean square of their deviations. The same
 *   opponent for everyone and a Glicko-2 update increasing in the score make a better placement never rate
 *   lower than a worse one from the same rating; sorting is the only super-linear step (n log n).
 * Pure: no I/O, no clock.
 */
import glicko2 from 'glicko2';

/** The system's constants (docs/ratings.md). */
export const GLICKO2 = {
  /** τ: how much the volatility may change in a period (Glickman: 0.3–1.2). */
  tau: 0.5,
  /** A new player's rating. */
  rating: 1500,
  /** A new player's deviation, and the most any deviation grows to. */
  deviation: 350,
  /** A new player's volatility σ. */
  volatility: 0.06,
} as const;

/** Glicko-2's scale factor between the Glicko scale and its own (Glickman: 173.7178). */
export const GLICKO2_SCALE = 173.7178;

/** A rating is provisional while its deviation is above this (points): too few games to trust. */
export const PROVISIONAL_DEVIATION = 110;

/** A rating on the Glicko scale. */
export interface Rated {
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
}

/** A new player's rating. */
export const NEW_RATING: Rated = {
  rating: GLICKO2.rating,
  deviation: GLICKO2.deviation,
  volatility: GLICKO2.volatility,
};

/** One game of a rating period: the opponent's rating and deviation, and the score 0…1 (1 = a win). */
export interface RatedGame {
  readonly opponent: { readonly rating: number; readonly deviation: number };
  readonly score: number;
}

/**
 * `r` after `periods` rating periods without a game: φ' = √(φ² + periods·σ²) (Glickman step 6 per period),
 * never above a new player's deviation.
 */
export function inactive(r: Rated, periods: number): Rated {
  if (periods <= 0) return r;
  const phi = r.deviation / GLICKO2_SCALE;
  const grown = Math.sqrt(phi * phi + periods * r.volatility * r.volatility) * GLICKO2_SCALE;
  return { ...r, deviation: Math.min(GLICKO2.deviation, grown) };
}

/**
 * Rates many players over one rating period at once: `players[i]` played `games[i]` (an empty list: only
 * the deviation grows, Glickman step 6). Returns the new ratings in the same order. O(total games).
 */
export function ratePeriod(players: readonly Rated[], games: readonly (readonly RatedGame[])[]): Rated[] {
  const calc = new glicko2.Glicko2({
    tau: GLICKO2.tau,
    rating: GLICKO2.rating,
    rd: GLICKO2.deviation,
    vol: GLICKO2.volatility,
  });
  const opponents = new Map<string, ReturnType<typeof calc.makePlayer>>();
  const made = players.map((p) => calc.makePlayer(p.rating, p.deviation, p.volatility));
  players.forEach((_, i) => {
    for (const g of games[i] ?? []) {
      const key = `${g.opponent.rating}|${g.opponent.deviation}`;
      let o = opponents.get(key);
      if (o === undefined) {
        o = calc.makePlayer(g.opponent.rating, g.opponent.deviation, GLICKO2.volatility);
        opponents.set(key, o);
      }
      calc.addResult(made[i] as ReturnType<typeof calc.makePlayer>, o, g.score);
    }
  });
  calc.calculatePlayersRatings();
  return made.map((m) => ({ rating: m.getRating(), deviation: m.getRd(), volatility: m.getVol() }));
}

/**
 * Scores 0…1 of a board in placement order: `tieKeys[i]` is row i's placement key (rows with equal keys are
 * tied); rows must be sorted best first. s_i = (rows below + ½ · other tied rows) / (n − 1); a lone row
 * scores ½.
 */
export function placementScores(tieKeys: readonly string[]): number[] {
  const n = tieKeys.length;
  if (n <= 1) return tieKeys.map(() => 0.5);
  const out = new Array<number>(n);
  let start = 0;
  while (start < n) {
    let end = start;
    while (end + 1 < n && tieKeys[end + 1] === tieKeys[start]) end++;
    const tied = end - start + 1;
    const below = n - 1 - end;
    const s = (below + 0.5 * (tied - 1)) / (n - 1);
    for (let i = start; i <= end; i++) out[i] = s;
    start = end + 1;
  }
  return out;
}

/** The field of a day's board: the mean of its ratings and the root mean square of its deviations. */
export function fieldOf(players: readonly Rated[]): { rating: number; deviation: number } {
  if (players.length === 0) return { rating: GLICKO2.rating, deviation: GLICKO2.deviation };
  let sum = 0;
  let squares = 0;
  for (const p of players) {
    sum += p.rating;
    squares += p.deviation * p.deviation;
  }
  return { rating: sum / players.length, deviation: Math.sqrt(squares / players.length) };
}

/**
 * Rates one day's board (rows sorted best first, `tieKeys` as for `placementScores`, `priors` the players'
 * ratings at the start of the day): each player's one game against the field with their placement score.
 * Returns the new ratings in row order. A board of one player is not rated (returned unchanged).
 */
export function rateBoard(priors: readonly Rated[], tieKeys: readonly string[]): Rated[] {
  if (priors.length < 2) return [...priors];
  const scores = placementScores(tieKeys);
  const field = fieldOf(priors);
  return ratePeriod(
    priors,
    scores.map((score) => [{ opponent: field, score }]),
  );
}

/**
 * A deal's difficulty from a day's results: the deal rated from a new player's rating as a player who
 * "beats" each player who did not win it and loses to each winner, against their ratings at the start of
 * the day. Null without results.
 */
export function deckDifficulty(priors: readonly Rated[], won: readonly boolean[]): Rated | null {
  if (priors.length === 0) return null;
  const [deal] = ratePeriod(
    [NEW_RATING],
    [priors.map((p, i) => ({ opponent: p, score: won[i] === true ? 0 : 1 }))],
  );
  return deal ?? null;
}
