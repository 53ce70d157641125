/**
 * Batched inserts: the new games of one kind submitted while an insert statement is on its way share the
 * next statement, as a game's actions share the move log's flush (core/rooms/group-commit.ts). It is what
 * lets a midnight's ranked openings, thousands in a second, reach the database as a few statements instead of
 * a transaction each (docs/capacity.md "Midnight").
 *
 * The statement is the kind's own (game-store.ts `KindRows.insertBatch`); this file only gathers the work
 * and hands each caller its own answer.
 */

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

interface Waiting<T> {
  readonly item: T;
  readonly resolve: (stored: boolean) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * Gathers items into statements: when idle, a statement starts on the next turn of the event loop (so the
 * requests read in one I/O phase share it); while `concurrency` statements are in flight, new items wait for
 * the next one, which takes them all (up to `maxBatch`).
 */
export class InsertBatcher<T> {
  private readonly waiting: Waiting<T>[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly concurrency: number;
  /** Counters since creation. */
  readonly stats: InsertBatchStats = { statements: 0, stored: 0, refused: 0, largestBatch: 0 };

  /** `insert` runs one batch; `key` names an item in its answer (a game's id). */
  constructor(
    private readonly insert: InsertStatement<T>,
    private readonly key: (item: T) => string,
    options: InsertBatcherOptions = {},
  ) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 500);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
  }

  /**
   * Queues an item. Resolves true once its statement has stored it, false when a unique row refused it;
   * rejects with the statement's error when it failed (nothing of that statement is stored).
   */
  submit(item: T): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.concurrency) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.waiting.length > 0)
      void this.run(this.waiting.splice(0, this.maxBatch));
  }

  private async run(batch: Waiting<T>[]): Promise<void> {
    this.inFlight++;
    this.stats.statements++;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    try {
      const stored = await this.insert(batch.map((w) => w.item));
      for (const w of batch) {
        const ok = stored.has(this.key(w.item));
        if (ok) this.stats.stored++;
        else this.stats.refused++;
        w.resolve(ok);
      }
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      this.inFlight--;
      this.pump();
    }
  }
}
