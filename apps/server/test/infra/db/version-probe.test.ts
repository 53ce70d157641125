/**
 * The freshness probe's batching (src/infra/db/version-probe.ts): a question alone is sent at once; questions
 * asked while a look-up is on its way share the next one, never the one already sent (its answer could be
 * older than their question); a failed look-up rejects its questions only.
 */
import { describe, expect, it } from 'vitest';
import { batchedVersionProbe } from '../../../src/infra/db/version-probe.js';

/** A look-up whose calls the test answers by hand; `stored` is the database at the moment of answering. */
function manualLookup() {
  const calls: {
    ids: readonly string[];
    answer: (stored: Record<string, number>) => void;
    fail: (e: Error) => void;
  }[] = [];
  const lookup = (ids: readonly string[]) =>
    new Promise<readonly { id: string; version: number }[]>((resolve, reject) => {
      calls.push({
        ids,
        answer: (stored) =>
          resolve(ids.filter((id) => id in stored).map((id) => ({ id, version: stored[id] ?? -1 }))),
        fail: reject,
      });
    });
  return { calls, lookup };
}

describe('batchedVersionProbe', () => {
  it('sends a lone question at once and batches the ones asked while it is on its way', async () => {
    const { calls, lookup } = manualLookup();
    const probe = batchedVersionProbe(lookup);
    const first = probe('a');
    expect(calls.map((c) => c.ids)).toEqual([['a']]);
    const second = probe('a'); // asked after the first look-up left: must not share its answer
    const third = probe('b');
    const missing = probe('zzz');
    expect(calls).toHaveLength(1);
    calls[0]?.answer({ a: 3 });
    expect(await first).toBe(3);
    await Promise.resolve();
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['a', 'b', 'zzz']]);
    calls[1]?.answer({ a: 4, b: 7 });
    expect(await Promise.all([second, third, missing])).toEqual([4, 7, null]);
  });

  it('a failed look-up rejects its own questions and the next one still runs', async () => {
    const { calls, lookup } = manualLookup();
    const probe = batchedVersionProbe(lookup);
    const failed = probe('a');
    const later = probe('b');
    calls[0]?.fail(new Error('connection refused'));
    await expect(failed).rejects.toThrow('connection refused');
    await Promise.resolve();
    calls[1]?.answer({ b: 1 });
    expect(await later).toBe(1);
  });
});
