/**
 * Who is paired with whom in a quick-pairing pool (docs/ratings.md "Quick race"): pure, no I/O, no clock.
 *
 * Each waiting player accepts opponents within a rating window that widens with the time waited:
 * `windowPoints(waitedMs)` = WINDOW_START_POINTS + WINDOW_POINTS_PER_SECOND × seconds waited, and anyone at
 * all once ANYONE_AFTER_MS have passed. Two players may be paired when they wait in the same pool, are of
 * the same kind (bots only with bots), are not the same player, and their ratings differ by no more than the
 * wider of their two windows (the longer waiter's patience decides). Longest waiters are served first: each
 * takes the closest-rated acceptable player still unpaired (ties: the one waiting longer).
 *
 * Repeat opponents (docs/ratings.md "No farming"): two players who already met today in the pool (`met`,
 * `metKey`) are not paired while anyone else of their pool and kind waits unpaired; left the only two, they
 * are paired again (their result does not count: ratings/farming.ts).
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

/** The key of two players who met in pool `preset` (either order), as `pairUp`'s `met` holds it. */
export function metKey(preset: string, a: string, b: string): string {
  return a < b ? `${preset}|${a}|${b}` : `${preset}|${b}|${a}`;
}

/**
 * The pairs to make now among `waiting` (any order; a player listed twice counts once): longest waiter
 * first, each with the closest-rated acceptable player left whom they have not met (`met`: `metKey`s of the
 * pairs who already met today). Then, of each pool and kind, two players left alone unpaired are paired
 * even when they met (see the module comment). Every player is in at most one pair, never with themself.
 * Cost O(n²) comparisons for n waiting players of one pool.
 */
export function pairUp(
  waiting: readonly WaitingPlayer[],
  now: number,
  met: ReadonlySet<string> = new Set(),
): [WaitingPlayer, WaitingPlayer][] {
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
      if (met.has(metKey(a.preset, a.playerId, b.playerId))) continue;
      if (best === null || Math.abs(a.rating - b.rating) < Math.abs(a.rating - best.rating)) best = b;
    }
    if (best === null) continue;
    taken.add(a.playerId);
    taken.add(best.playerId);
    pairs.push([a, best]);
  }
  // Two met players left alone in their pool and kind: nobody else waits, so they meet again.
  const left = new Map<string, WaitingPlayer[]>();
  for (const p of queue)
    if (!taken.has(p.playerId)) {
      const group = `${p.preset}|${p.bot ? 'bot' : 'person'}`;
      left.set(group, [...(left.get(group) ?? []), p]);
    }
  for (const group of left.values()) {
    const [a, b] = group;
    if (group.length === 2 && a !== undefined && b !== undefined && acceptable(a, b, now)) pairs.push([a, b]);
  }
  return pairs;
}
