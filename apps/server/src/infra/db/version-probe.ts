/**
 * The freshness probe's batching (Database.gameVersion): the versions asked for while a look-up is on its
 * way go together in the next one (`SELECT id, version FROM "Game" WHERE id = ANY($1)`, batched-lookup.ts),
 * so that under load many reads share one round trip to Postgres, and a read alone waits for nothing.
 */
import { batchedLookup } from './batched-lookup.js';

/** Looks up the stored versions of `ids` (distinct): one row per game that exists. */
export type VersionLookup = (ids: readonly string[]) => Promise<readonly { id: string; version: number }[]>;

/**
 * A function answering a game's stored version (null: no such game) through `lookup`, at most one look-up
 * in flight; questions asked meanwhile wait for the next one. Database failures reject every question of
 * that look-up.
 */
export function batchedVersionProbe(lookup: VersionLookup): (id: string) => Promise<number | null> {
  return batchedLookup(async (ids) => new Map((await lookup(ids)).map((r) => [r.id, r.version])));
}
