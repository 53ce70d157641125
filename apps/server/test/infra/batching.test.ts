/**
 * The shared batching primitive (infra/batching.ts `Batcher`), without a database: items submitted in one
 * turn of the event loop share a statement, no more than `concurrency` statements run at once, a failing
 * statement rejects its own batch only, and `distinctBy` keeps items of one key in separate statements.
 */
import { describe, expect, it } from 'vitest';
import { Batcher } from '../../src/infra/batching.js';

/** Resolves after the event loop's current turn (the batcher's statements start on the next one). */
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A statement that records its batches and waits until the test releases it; answers each item doubled. */
function heldStatement(): {
  readonly batches: number[][];
  readonly releases: ((fail?: Error) => void)[];
  readonly statement: (batch: readonly number[]) => Promise<number[]>;
  readonly most: () => number;
} {
  const batches: number[][] = [];
  const releases: ((fail?: Error) => void)[] = [];
  let running = 0;
  let most = 0;
  const statement = async (batch: readonly number[]): Promise<number[]> => {
    batches.push([...batch]);
    running++;
    most = Math.max(most, running);
    try {
      await new Promise<void>((resolve, reject) =>
        releases.push((fail) => (fail === undefined ? resolve() : reject(fail))),
      );
    } finally {
      running--;
    }
    return batch.map((n) => n * 2);
  };
  return { batches, releases, statement, most: () => most };
}

describe('Batcher', () => {
  it('items submitted in one turn share one statement, and each gets its own answer', async () => {
    const held = heldStatement();
    const batcher = new Batcher(held.statement, { maxBatch: 10, concurrency: 2 });
    const answers = Promise.all([1, 2, 3, 4].map((n) => batcher.submit(n)));
    // Nothing is sent in the turn the items arrive in.
    expect(held.batches).toEqual([]);
    await nextTurn();
    expect(held.batches).toEqual([[1, 2, 3, 4]]);
    held.releases.shift()?.();
    expect(await answers).toEqual([2, 4, 6, 8]);
  });

  it('at most `concurrency` statements at once; what waits goes together in the next, up to `maxBatch`', async () => {
    const held = heldStatement();
    const batcher = new Batcher(held.statement, { maxBatch: 3, concurrency: 2 });
    const done: Promise<number>[] = [];
    // One item a turn: the first two start a statement each; the next five wait for one to end.
    for (let n = 1; n <= 7; n++) {
      done.push(batcher.submit(n));
      await nextTurn();
    }
    expect(held.batches).toEqual([[1], [2]]);
    expect(batcher.inFlight).toBe(2);
    expect(batcher.queued).toBe(5);
    held.releases.shift()?.();
    await nextTurn();
    // One slot freed: the next statement takes three of the five waiting (maxBatch), still two at once.
    expect(held.batches).toEqual([[1], [2], [3, 4, 5]]);
    expect(batcher.queued).toBe(2);
    while (held.releases.length > 0) {
      held.releases.shift()?.();
      await nextTurn();
    }
    expect(held.batches).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    expect(held.most()).toBe(2);
    expect(await Promise.all(done)).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(batcher.inFlight).toBe(0);
  });

  it('a failing statement rejects only its own batch; the others and later ones are answered', async () => {
    const held = heldStatement();
    const batcher = new Batcher(held.statement, { maxBatch: 10, concurrency: 2 });
    const first = Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    await nextTurn();
    const second = Promise.allSettled([batcher.submit(3), batcher.submit(4)]);
    await nextTurn();
    expect(held.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const lost = new Error('connection lost');
    held.releases[0]?.(lost);
    held.releases[1]?.();
    expect(await first).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(await second).toEqual([
      { status: 'fulfilled', value: 6 },
      { status: 'fulfilled', value: 8 },
    ]);
    const later = batcher.submit(5);
    await nextTurn();
    held.releases[2]?.();
    expect(await later).toBe(10);
  });

  it('a statement answering the wrong number of items rejects its batch with a RangeError', async () => {
    const batcher = new Batcher((batch: readonly number[]) => Promise.resolve(batch.slice(1)), {
      maxBatch: 10,
      concurrency: 1,
    });
    const results = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RangeError);
    }
  });

  it('distinctBy: items of one key go in separate statements, in order; onIdle hears the end', async () => {
    const batches: string[][] = [];
    let idle = 0;
    const batcher = new Batcher(
      (batch: readonly string[]) => {
        batches.push([...batch]);
        return Promise.resolve(batch.map(() => true));
      },
      { maxBatch: 10, concurrency: 1, distinctBy: (s) => s.slice(0, 1), onIdle: () => idle++ },
    );
    await Promise.all(['a1', 'b1', 'a2', 'c1', 'a3', 'b2'].map((s) => batcher.submit(s)));
    expect(batches).toEqual([['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3']]);
    expect(idle).toBe(1);
    expect(batcher.queued).toBe(0);
    expect(batcher.inFlight).toBe(0);
  });
});
