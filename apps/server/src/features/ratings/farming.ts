/**
 * No farming (docs/ratings.md "No farming"): a rated race result between the same two accounts counts fully
 * once per race pool per UTC day, and then not at all.
 *
 * A race of n racers is n(n−1)/2 pairwise games. When a rated race ends, each of its pairs is claimed in
 * `RatedPair` (pool, day, the two ids) inside the transaction that rates it: a pair whose row already exists
 * (an earlier race of the same two accounts that day, rated on any node) plays no game in this race. The
 * primary key decides a race between two nodes: one insert wins, the other finds the row. The claim is
 * ratings/repository.ts `rateRaceIn`; what a claimed pair counts for is periods.ts `rateRace`.
 */

/** The key of a pair of accounts, in either order: `smaller id|larger id`. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
