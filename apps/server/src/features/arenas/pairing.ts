/**
 * Who plays whom next in an arena (docs/arenas.md "Pairing"): pure. Waiting players are ordered by standing
 * (points, then rating, then id) and each takes the next player below them who was not their last opponent.
 * An immediate rematch of the same pair is made only when nobody else waits, nobody else of the arena is in a
 * race (they will be waiting in a moment: docs/ratings.md "No farming"), and both have waited
 * REMATCH_AFTER_MS (so a player whose race is just ending can come in first).
 */

/** How long the last two waiting players, each other's last opponent, wait before they meet again, ms. */
export const REMATCH_AFTER_MS = 10_000;

/** A waiting arena player as the pairer sees them. */
export interface ArenaWaiting {
  readonly playerId: string;
  readonly points: number;
  /** Race rating of the arena's preset (Glicko scale). */
  readonly rating: number;
  readonly lastOpponent: string | null;
  /** Waiting since, ms since the epoch. */
  readonly waitingSince: number;
}

function rematch(a: ArenaWaiting, b: ArenaWaiting): boolean {
  return a.lastOpponent === b.playerId || b.lastOpponent === a.playerId;
}

/**
 * The pairs to make now (see the module comment); each player in at most one, never with themself.
 * `racing`: how many other players of the arena (not paused) are in a race or having one made now.
 */
export function pairArena(
  waiting: readonly ArenaWaiting[],
  now: number,
  racing = 0,
): [ArenaWaiting, ArenaWaiting][] {
  const order = [...new Map(waiting.map((w) => [w.playerId, w])).values()].sort(
    (x, y) => y.points - x.points || y.rating - x.rating || (x.playerId < y.playerId ? -1 : 1),
  );
  const taken = new Set<string>();
  const pairs: [ArenaWaiting, ArenaWaiting][] = [];
  for (const [i, a] of order.entries()) {
    if (taken.has(a.playerId)) continue;
    const rest = order.slice(i + 1).filter((b) => !taken.has(b.playerId));
    let b = rest.find((c) => !rematch(a, c));
    if (b === undefined && rest.length === 1 && order.length - taken.size === 2 && racing === 0) {
      const only = rest[0] as ArenaWaiting;
      if (now - a.waitingSince >= REMATCH_AFTER_MS && now - only.waitingSince >= REMATCH_AFTER_MS) b = only;
    }
    if (b === undefined) continue;
    taken.add(a.playerId);
    taken.add(b.playerId);
    pairs.push([a, b]);
  }
  return pairs;
}
