/**
 * The batching shared by the database's write paths: items submitted while a statement is on its way share
 * the next one. Used by the move log's group commit (core/rooms/group-commit.ts `GroupCommitter`) and the
 * batched inserts of new games (infra/db/insert-batches.ts `InsertBatcher`); each keeps its own statement,
 * counters and error translation, and this file only gathers the work and hands each caller its answer.
 */

/**
 * Runs one batch in one statement. Resolves with one answer per item, in the batch's order (an answer
 * array of another length rejects the whole batch with a `RangeError`); rejects when the statement failed,
 * and every item of the batch is rejected with that error.
 */
export type BatchStatement<T, A> = (batch: readonly T[]) => Promise<readonly A[]>;

/** Options of `Batcher`. */
export interface BatcherOptions<T> {
  /** Most items in one statement (at least 1). */
  readonly maxBatch: number;
  /** Statements in flight at once (at least 1). */
  readonly concurrency: number;
  /**
   * Items with the same key never share a statement: the later ones wait, in their order, for a following
   * one (the move log: one entry of a game a flush). Absent: any items may share a statement.
   */
  readonly distinctBy?: (item: T) => string;
  /** Called each time the batcher has nothing waiting and nothing in flight after its work ran. */
  readonly onIdle?: () => void;
}

interface Waiting<T, A> {
  readonly item: T;
  readonly resolve: (answer: A) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * Gathers items into statements: when idle, a statement starts on the next turn of the event loop (so the
 * items submitted in one I/O phase share it); while `concurrency` statements are in flight, new items wait
 * for the next one to end, and the statement that follows takes them all (up to `maxBatch`).
 */
export class Batcher<T, A> {
  private readonly waiting: Waiting<T, A>[] = [];
  private running = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  /** Statements in flight at once at most (BatcherOptions.concurrency, at least 1). */
  readonly concurrency: number;
  private readonly distinctBy: ((item: T) => string) | undefined;
  private readonly onIdle: (() => void) | undefined;

  /** `statement` runs one batch (see `BatchStatement`). */
  constructor(
    private readonly statement: BatchStatement<T, A>,
    options: BatcherOptions<T>,
  ) {
    this.maxBatch = Math.max(1, options.maxBatch);
    this.concurrency = Math.max(1, options.concurrency);
    this.distinctBy = options.distinctBy;
    this.onIdle = options.onIdle;
  }

  /** Items waiting for a statement (not counting those in statements under way). */
  get queued(): number {
    return this.waiting.length;
  }

  /** Statements under way. */
  get inFlight(): number {
    return this.running;
  }

  /**
   * Queues an item. Resolves with its answer from its statement; rejects with the statement's error when
   * it failed.
   */
  submit(item: T): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.concurrency) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) void this.run(this.take());
    if (this.waiting.length === 0 && this.running === 0) this.onIdle?.();
  }

  /** Removes the next batch from the queue: its first `maxBatch` items, with distinct keys if asked. */
  private take(): Waiting<T, A>[] {
    const distinctBy = this.distinctBy;
    if (distinctBy === undefined) return this.waiting.splice(0, this.maxBatch);
    const batch: Waiting<T, A>[] = [];
    const keys = new Set<string>();
    const rest: Waiting<T, A>[] = [];
    for (const w of this.waiting) {
      const key = distinctBy(w.item);
      if (batch.length < this.maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(w);
      } else rest.push(w);
    }
    this.waiting.length = 0;
    this.waiting.push(...rest);
    return batch;
  }

  private async run(batch: Waiting<T, A>[]): Promise<void> {
    this.running++;
    try {
      const answers = await this.statement(batch.map((w) => w.item));
      if (answers.length !== batch.length)
        throw new RangeError(`a statement of ${batch.length} item(s) gave ${answers.length} answer(s)`);
      batch.forEach((w, i) => w.resolve(answers[i] as A));
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      this.running--;
      this.pump();
    }
  }
}
