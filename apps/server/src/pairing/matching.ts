/**
 * Who is paired with whom in a quick-pairing pool (docs/ratings.md "Quick race"): pure, no I/O, no clock.
 *
 * Each waiting player accepts opponents within a rating window that widens with the time waited:
 * `windowPoints(waitedMs)` = WINDOW_START_POINTS + WINDOW_POINTS_PER_SECOND × seconds waited, and anyone at
 * all once ANYONE_AFTER_MS have passed. Two players may be paired when they wait in the same pool, are of
 * the same kind (bots only with bots), are not the same player, and their ratings differ by no more than the
 * wider of their two windows (the longer waiter's patience decides). Longest waiters are served first: each
 * takes the closest-rated acceptable player still unpaired (ties: the one waiting longer).
 */

/** Rating window of a player who has just entered, points. */
export const WINDOW_START_POINTS = 100;
/** How fast the window widens, points per second waited. */
export const WINDOW_POINTS_PER_SECOND = 20;
/** After this long (ms) a waiting player accepts anyone of their pool and kind. */
export const ANYONE_AFTER_MS = 30_000;

/** One waiting player as the matcher sees them. */
export interface WaitingPlayer {
  readonly playerId: string;
  /** The pool (a pairing preset). */
  readonly preset: string;
  readonly bot: boolean;
  /** Race rating (Glicko scale). */
  readonly rating: number;
  /** When they entered, ms since the epoch. */
  readonly enteredAt: number;
}

/**
 * The rating window after `waitedMs` ms of waiting, in points (rounded down), or null once anyone is
 * acceptable.
 */
export function windowPoints(waitedMs: number): number | null {
  if (waitedMs >= ANYONE_AFTER_MS) return null;
  return Math.floor(WINDOW_START_POINTS + (WINDOW_POINTS_PER_SECOND * Math.max(0, waitedMs)) / 1000);
}

/** Whether `a` and `b` may be paired at time `now` (ms since the epoch); see the module comment. */
export function acceptable(a: WaitingPlayer, b: WaitingPlayer, now: number): boolean {
  if (a.playerId === b.playerId || a.preset !== b.preset || a.bot !== b.bot) return false;
  const wa = windowPoints(now - a.enteredAt);
  const wb = windowPoints(now - b.enteredAt);
  if (wa === null || wb === null) return true;
  return Math.abs(a.rating - b.rating) <= Math.max(wa, wb);
}

/**
 * The pairs to make now among `waiting` (any order; a player listed twice counts once): longest waiter
 * first, each with the closest-rated acceptable player left. Every player is in at most one pair, never
 * with themself. Cost O(n²) comparisons for n waiting players of one pool.
 */
export function pairUp(waiting: readonly WaitingPlayer[], now: number): [WaitingPlayer, WaitingPlayer][] {
  const seen = new Set<string>();
  const queue = [...waiting]
    .sort((x, y) => x.enteredAt - y.enteredAt || (x.playerId < y.playerId ? -1 : 1))
    .filter((p) => (seen.has(p.playerId) ? false : (seen.add(p.playerId), true)));
  const taken = new Set<string>();
  const pairs: [WaitingPlayer, WaitingPlayer][] = [];
  for (const a of queue) {
    if (taken.has(a.playerId)) continue;
    let best: WaitingPlayer | null = null;
    for (const b of queue) {
      if (taken.has(b.playerId) || !acceptable(a, b, now)) continue;
      if (best === null || Math.abs(a.rating - b.rating) < Math.abs(a.rating - best.rating)) best = b;
    }
    if (best === null) continue;
    taken.add(a.playerId);
    taken.add(best.playerId);
    pairs.push([a, best]);
  }
  return pairs;
}
