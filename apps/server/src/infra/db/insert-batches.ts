/**
 * Batched inserts: the new games of one kind submitted while an insert statement is on its way share the
 * next statement, as a game's actions share the move log's flush (core/rooms/group-commit.ts). It is what
 * lets a midnight's ranked openings, thousands in a second, reach the database as a few statements instead of
 * a transaction each (docs/capacity.md "Midnight").
 *
 * The statement is the kind's own (game-store.ts `KindRows.insertBatch`); the gathering is the shared
 * `Batcher` (infra/batching.ts); this file counts the statements and answers each item stored or refused.
 */
import { Batcher } from '../batching.js';

/**
 * Inserts one batch in one statement; resolves with the keys of the items it stored (the others were refused
 * by a unique row, and nothing of them is stored); rejects when the statement failed (nothing of it stored).
 */
export type InsertStatement<T> = (batch: readonly T[]) => Promise<ReadonlySet<string>>;

/** Options of `InsertBatcher`. */
export interface InsertBatcherOptions {
  /** Most items in one statement (default 500). */
  readonly maxBatch?: number;
  /** Statements in flight at once (default 2: the pool keeps connections for everything else). */
  readonly concurrency?: number;
}

/** Counters of an InsertBatcher (tests, benchmarks). */
export interface InsertBatchStats {
  /** Statements sent. */
  statements: number;
  /** Items stored. */
  stored: number;
  /** Items refused by a unique row. */
  refused: number;
  /** Largest batch so far. */
  largestBatch: number;
}

/**
 * Gathers items into statements (a `Batcher`): when idle, a statement starts on the next turn of the event
 * loop (so the requests read in one I/O phase share it); while `concurrency` statements are in flight, new
 * items wait for the next one, which takes them all (up to `maxBatch`).
 */
export class InsertBatcher<T> {
  private readonly batcher: Batcher<T, boolean>;
  /** Counters since creation. */
  readonly stats: InsertBatchStats = { statements: 0, stored: 0, refused: 0, largestBatch: 0 };

  /** `insert` runs one batch; `key` names an item in its answer (a game's id). */
  constructor(
    private readonly insert: InsertStatement<T>,
    private readonly key: (item: T) => string,
    options: InsertBatcherOptions = {},
  ) {
    this.batcher = new Batcher((batch) => this.run(batch), {
      maxBatch: options.maxBatch ?? 500,
      concurrency: options.concurrency ?? 2,
    });
  }

  /**
   * Queues an item. Resolves true once its statement has stored it, false when a unique row refused it;
   * rejects with the statement's error when it failed (nothing of that statement is stored).
   */
  submit(item: T): Promise<boolean> {
    return this.batcher.submit(item);
  }

  /** One statement: counts it, and answers each item stored or refused. */
  private async run(batch: readonly T[]): Promise<boolean[]> {
    this.stats.statements++;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    const stored = await this.insert(batch);
    return batch.map((item) => {
      const ok = stored.has(this.key(item));
      if (ok) this.stats.stored++;
      else this.stats.refused++;
      return ok;
    });
  }
}
