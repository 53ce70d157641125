/**
 * Who already met today (docs/ratings.md "No farming"): the pairs of waiting players whose rated race result
 * has counted today in their pool, read from `RatedPair` (ratings/farming.ts) inside the pairing transaction,
 * so every node pairs from the same facts.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { racePool } from '../ratings/service.js';
import { metKey } from './matching.js';

/**
 * The `metKey`s (matching.ts) of the pairs among `waiting` who met today (UTC date of `now`, ms since the
 * epoch) in the race pool of their pairing preset. One indexed read; empty for fewer than two players.
 */
export async function metToday(
  tx: Prisma.TransactionClient,
  waiting: readonly { readonly playerId: string; readonly preset: string }[],
  now: number,
): Promise<Set<string>> {
  if (waiting.length < 2) return new Set();
  const presetOf = new Map<string, string>();
  for (const w of waiting) {
    const pool = racePool(w.preset);
    if (pool !== null) presetOf.set(pool, w.preset);
  }
  const ids = waiting.map((w) => w.playerId);
  const rows = await tx.ratedPair.findMany({
    where: {
      pool: { in: [...presetOf.keys()] },
      day: new Date(now).toISOString().slice(0, 10),
      playerA: { in: ids },
      playerB: { in: ids },
    },
    select: { pool: true, playerA: true, playerB: true },
  });
  return new Set(rows.map((r) => metKey(presetOf.get(r.pool) ?? r.pool, r.playerA, r.playerB)));
}
