/**
 * Look-ups by key that share round trips: the keys asked for while a look-up is on its way go together in the
 * next one, so that under load many requests share one statement (a midnight's thousands of token look-ups,
 * the freshness probes of a busy node), and a question alone waits for nothing. Each answer comes from a
 * statement sent after its question was asked, so it is at least as new as every write made before.
 */

/** Looks up `keys` (distinct): the value of each key found; a key missing from the answer has none. */
export type KeysLookup<T> = (keys: readonly string[]) => Promise<ReadonlyMap<string, T>>;

/** Most keys in one look-up. */
const MAX_BATCH = 500;

/** A caller waiting for a key's value. */
interface Asker<T> {
  readonly resolve: (value: T | null) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A function answering one key's value (null: none) through `lookup`, at most one look-up in flight;
 * questions asked meanwhile wait for the next one. A failed look-up rejects every question it carried.
 */
export function batchedLookup<T>(lookup: KeysLookup<T>): (key: string) => Promise<T | null> {
  /** Questions not yet sent: key → the callers waiting for it. */
  const waiting = new Map<string, Asker<T>[]>();
  let inFlight = false;

  const flush = (): void => {
    if (inFlight || waiting.size === 0) return;
    inFlight = true;
    const batch = new Map<string, Asker<T>[]>();
    for (const [key, askers] of waiting) {
      if (batch.size >= MAX_BATCH) break;
      batch.set(key, askers);
    }
    for (const key of batch.keys()) waiting.delete(key);
    lookup([...batch.keys()])
      .then(
        (found) => {
          for (const [key, askers] of batch) for (const a of askers) a.resolve(found.get(key) ?? null);
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

  return (key) =>
    new Promise<T | null>((resolve, reject) => {
      const askers = waiting.get(key);
      if (askers) askers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      flush();
    });
}
