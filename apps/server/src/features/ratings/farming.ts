/**
 * No farming (docs/ratings.md "No farming"): a rated race result between the same two accounts counts fully
 * once per race pool per UTC day, and then not at all.
 *
 * A race of n racers is n(n−1)/2 pairwise games. When a rated race ends, each of its pairs is claimed in
 * `RatedPair` (pool, day, the two ids) inside the transaction that rates it: a pair whose row already exists
 * (an earlier race of the same two accounts that day, rated on any node) plays no game in this race. The
 * primary key decides a race between two nodes: one insert wins, the other finds the row.
 */
import type { RatingPool } from '@klondike/protocol';
import type { Prisma } from '../../generated/prisma/client.js';

/** The key of a pair of accounts, in either order: `smaller id|larger id`. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/**
 * Claims every pair of `playerIds` in `pool` on `day` (UTC date `YYYY-MM-DD`) for race `raceCode` and returns
 * the keys (`pairKey`) of the pairs this call claimed: the pairs whose result counts. A pair claimed earlier
 * that day, by any race on any node, is not returned. Also deletes the pool's rows of days before `day`.
 * Runs in the caller's transaction (the race's rating); at most n(n−1)/2 rows for n racers.
 */
export async function claimPairs(
  tx: Prisma.TransactionClient,
  pool: RatingPool,
  day: string,
  raceCode: string,
  playerIds: readonly string[],
): Promise<Set<string>> {
  const ids = [...new Set(playerIds)].sort();
  const args: unknown[] = [pool, day, raceCode];
  const values: string[] = [];
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      args.push(ids[i], ids[j]);
      values.push(`($1, $2, $${args.length - 1}, $${args.length}, $3)`);
    }
  await tx.$executeRawUnsafe(`DELETE FROM "RatedPair" WHERE pool = $1 AND day < $2`, pool, day);
  if (values.length === 0) return new Set();
  const claimed = await tx.$queryRawUnsafe<{ playerA: string; playerB: string }[]>(
    `INSERT INTO "RatedPair" (pool, day, "playerA", "playerB", "raceCode")
     VALUES ${values.join(', ')}
     ON CONFLICT DO NOTHING
     RETURNING "playerA", "playerB"`,
    ...args,
  );
  return new Set(claimed.map((c) => pairKey(c.playerA, c.playerB)));
}
