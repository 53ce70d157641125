/**
 * The game log's commit, on the rooms' side of the storage contract: group commit (`GroupCommitter`: the
 * actions of different games submitted while a flush runs share the next one, one statement a flush) and
 * the commit queue (`MoveLog`: a bound on the writes admitted and not yet settled, past which a write is
 * refused at once with `overloaded`, and the translation of a flush's failure into the answer a client
 * gets). The statement itself is the database's (infra/db/move-log.ts `BatchWriter`), handed in through
 * the store (store.ts `GameStore.writeMoves`).
 */
import { Batcher } from '../../infra/batching.js';
import { isDatabaseUnavailable } from '../../infra/db/availability.js';
import type { GameRef, ResultRow } from '../../infra/db/game-rows.js';
import type { BatchWriter, MoveCommit } from '../../infra/db/move-log.js';
import { ApiError } from '../../infra/errors.js';
import type { GameStore } from './store.js';

/** A flush failed: nothing of it is stored. `cause` is the database error. */
export class CommitFailedError extends Error {
  override readonly name = 'CommitFailedError';
}

/** Options of `GroupCommitter`. */
export interface GroupCommitterOptions {
  /** Most entries in one statement (default 1,000). */
  readonly maxBatch?: number;
  /** Flushes in flight at once (default 1); each carries different games. */
  readonly concurrency?: number;
}

/** Counters of a GroupCommitter (tests, benchmark). */
export interface GroupCommitStats {
  /** Statements sent. */
  flushes: number;
  /** Statements that failed. */
  failedFlushes: number;
  /** Entries that committed. */
  committed: number;
  /** Entries refused by their version check. */
  conflicts: number;
  /** Largest batch so far. */
  largestBatch: number;
}

/**
 * Group commit: entries submitted while a flush runs wait for the next one, which takes them all (up to
 * `maxBatch`, one entry of a game a flush) in one statement. When idle, a flush starts on the next turn of
 * the event loop, so the actions of every frame read in one I/O phase share it. The gathering is the shared
 * `Batcher` (infra/batching.ts); this class counts the flushes, translates a failed one into
 * `CommitFailedError` and tells `drain` when all is stored.
 */
export class GroupCommitter {
  private readonly batcher: Batcher<MoveCommit, boolean>;
  /** Most flushes in flight at once (GroupCommitterOptions.concurrency). */
  readonly concurrency: number;
  private readonly idle = new Set<() => void>();
  /** Counters since creation. */
  readonly stats: GroupCommitStats = {
    flushes: 0,
    failedFlushes: 0,
    committed: 0,
    conflicts: 0,
    largestBatch: 0,
  };

  /** `write` executes one batch (see `pgBatchWriter`, `pgliteBatchWriter`). */
  constructor(
    private readonly write: BatchWriter,
    options: GroupCommitterOptions = {},
  ) {
    this.batcher = new Batcher((batch) => this.flush(batch), {
      maxBatch: options.maxBatch ?? 1000,
      concurrency: options.concurrency ?? 1,
      distinctBy: (entry) => entry.gameId,
      onIdle: () => {
        for (const res of this.idle) res();
        this.idle.clear();
      },
    });
    this.concurrency = this.batcher.concurrency;
  }

  /** Entries waiting for a flush (not counting those in flushes under way). */
  get queued(): number {
    return this.batcher.queued;
  }

  /**
   * Queues an entry. Resolves true once its flush is durable, false when its version check failed (the
   * database is not at `version − 1`); rejects with `CommitFailedError` when its flush failed (nothing of
   * that flush is stored).
   */
  submit(entry: MoveCommit): Promise<boolean> {
    return this.batcher.submit(entry);
  }

  /** Resolves once nothing is waiting or in flight. */
  async drain(): Promise<void> {
    if (this.batcher.queued === 0 && this.batcher.inFlight === 0) return;
    await new Promise<void>((res) => this.idle.add(res));
  }

  /** One flush: counts it, answers each entry committed or refused; a failure becomes `CommitFailedError`. */
  private async flush(batch: readonly MoveCommit[]): Promise<boolean[]> {
    this.stats.flushes++;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    let committed: ReadonlySet<string>;
    try {
      committed = await this.write(batch);
    } catch (e) {
      this.stats.failedFlushes++;
      throw new CommitFailedError(`the commit of ${batch.length} action(s) failed`, { cause: e });
    }
    return batch.map((entry) => {
      const ok = committed.has(entry.gameId);
      if (ok) this.stats.committed++;
      else this.stats.conflicts++;
      return ok;
    });
  }
}

/** Options of `MoveLog`. */
export interface MoveLogOptions {
  /** Most writes admitted and not yet settled (default 256; at least 1). */
  readonly commitQueue?: number;
  /** Group-commit flushes in flight at once (default 1). */
  readonly commitConcurrency?: number;
  /**
   * Hears the latency of every stored action (metrics; issue 58). Absent (METRICS_PORT unset): the commit
   * path reads no clock for it.
   */
  readonly commitObserver?: CommitObserver;
}

/** Hears each action stored: its commit's latency, from `commit` called to the write durable. */
export interface CommitObserver {
  /** One action stored, `seconds` after its commit began. Must not throw nor allocate (the move path). */
  record(seconds: number): void;
}

/** How a commit ended when it did not fail: stored, refused by the version check, or its row was there. */
export type CommitOutcome = 'committed' | 'stale' | 'row-exists';

/**
 * The commits of one node's rooms: the commit queue's bound (`admit`/`release`) and each action's commit,
 * grouped with other games' (`GroupCommitter`) or, with a leaderboard row, alone in one transaction.
 */
export class MoveLog {
  private readonly committer: GroupCommitter;
  private readonly bound: number;
  /** Writes admitted and not yet settled. */
  private admitted = 0;
  /** Writes refused with `overloaded` since start. */
  private refused = 0;
  private readonly observer: CommitObserver | undefined;

  /** `store` holds the games: its `writeMoves` is the group commit's statement. */
  constructor(
    private readonly store: GameStore,
    options: MoveLogOptions = {},
  ) {
    this.bound = Math.max(1, options.commitQueue ?? 256);
    this.observer = options.commitObserver;
    this.committer = new GroupCommitter(store.writeMoves, { concurrency: options.commitConcurrency ?? 1 });
  }

  /** Move-log flushes kept in flight at once. */
  get concurrency(): number {
    return this.committer.concurrency;
  }

  /** Group-commit counters (flushes, largest batch, …) since start. */
  get stats(): Readonly<GroupCommitStats> {
    return this.committer.stats;
  }

  /** The commit queue now: writes admitted and not yet settled, its bound, and the `overloaded` refusals so far. */
  get queue(): { readonly depth: number; readonly bound: number; readonly refused: number } {
    return { depth: this.admitted, bound: this.bound, refused: this.refused };
  }

  /**
   * Admits one more write; every admitted write is `release`d once settled, whatever its outcome.
   * Errors: `overloaded` when the queue is full (nothing is admitted then).
   */
  admit(): void {
    if (this.admitted >= this.bound) {
      this.refused++;
      throw new ApiError(
        'overloaded',
        'the server is busy: too many moves waiting to be stored; retry shortly',
      );
    }
    this.admitted++;
  }

  /** Settles one admitted write. */
  release(): void {
    this.admitted--;
  }

  /**
   * Commits one action: `w` is the move log's entry (the game moves from `w.version − 1` to `w.version`),
   * `row` the leaderboard row of `game`'s kind when the action ends it (then one transaction of its own,
   * rare), else null (the group commit). Errors: `unavailable` while the database is unreachable,
   * `commit-failed` for another failed flush, each carrying `version` = `w.version − 1` (nothing is stored);
   * other database failures of a commit with a row as they are.
   */
  async commit(game: GameRef, w: MoveCommit, row: ResultRow | null): Promise<CommitOutcome> {
    // One clock read before and one after, only when metrics are on (no object, no closure: the move path).
    const start = this.observer === undefined ? 0 : performance.now();
    if (row !== null) return this.observed(start, await this.store.commitWithRow(game, w, row));
    try {
      return this.observed(start, (await this.committer.submit(w)) ? 'committed' : 'stale');
    } catch (e) {
      if (!(e instanceof CommitFailedError)) throw e;
      const details = { version: w.version - 1 };
      // The database away (connection refused or lost): the same 503 `unavailable` as every other route.
      if (isDatabaseUnavailable(e))
        throw new ApiError('unavailable', 'the database is unreachable for a moment; retry shortly', details);
      throw new ApiError(
        'commit-failed',
        'the move could not be stored; the game is unchanged, retry',
        details,
      );
    }
  }

  /** Tells the observer (if any) of a stored action, begun at `start` (performance.now()); returns `outcome`. */
  private observed(start: number, outcome: CommitOutcome): CommitOutcome {
    if (this.observer !== undefined && outcome === 'committed')
      this.observer.record((performance.now() - start) / 1000);
    return outcome;
  }

  /** Resolves once no flush is waiting or in flight. */
  drain(): Promise<void> {
    return this.committer.drain();
  }
}
