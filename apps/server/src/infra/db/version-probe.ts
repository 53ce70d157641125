/**
 * The freshness probe's batching (Database.gameVersion): the versions asked for while a look-up is on its
 * way go together in the next one (`SELECT id, version FROM "Game" WHERE id = ANY($1)`), so that under load
 * many reads share one round trip to Postgres, and a read alone waits for nothing. Each answer comes from a
 * statement sent after its question was asked, so it is at least as new as every commit made before.
 */

/** Looks up the stored versions of `ids` (distinct): one row per game that exists. */
export type VersionLookup = (ids: readonly string[]) => Promise<readonly { id: string; version: number }[]>;

/** Most ids in one look-up. */
const MAX_BATCH = 500;

/**
 * A function answering a game's stored version (null: no such game) through `lookup`, at most one look-up
 * in flight; questions asked meanwhile wait for the next one. Database failures reject every question of
 * that look-up.
 */
export function batchedVersionProbe(lookup: VersionLookup): (id: string) => Promise<number | null> {
  /** Questions not yet sent: id → the callers waiting for it. */
  const waiting = new Map<string, Asker[]>();
  let inFlight = false;

  const flush = (): void => {
    if (inFlight || waiting.size === 0) return;
    inFlight = true;
    const batch = new Map<string, Asker[]>();
    for (const [id, askers] of waiting) {
      if (batch.size >= MAX_BATCH) break;
      batch.set(id, askers);
    }
    for (const id of batch.keys()) waiting.delete(id);
    lookup([...batch.keys()])
      .then(
        (rows) => {
          const found = new Map(rows.map((r) => [r.id, r.version]));
          for (const [id, askers] of batch) for (const a of askers) a.resolve(found.get(id) ?? null);
        },
        (e: unknown) => {
          for (const askers of batch.values()) for (const a of askers) a.reject(e);
        },
      )
      .finally(() => {
        inFlight = false;
        flush();
      });
  };

  return (id) =>
    new Promise<number | null>((resolve, reject) => {
      const askers = waiting.get(id);
      if (askers) askers.push({ resolve, reject });
      else waiting.set(id, [{ resolve, reject }]);
      flush();
    });
}

/** A caller waiting for a version. */
interface Asker {
  readonly resolve: (version: number | null) => void;
  readonly reject: (error: unknown) => void;
}
