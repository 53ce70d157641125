/**
 * The order in which solver jobs get a worker thread: by priority first (daily generation, then hints, then
 * `POST /api/solve`, then race certification), first come first served within a priority, with a bound on
 * waiting jobs overall and per client, so that one client (or one busy feature) cannot starve the others.
 */
import { ApiError } from '../errors.js';

/** Who a solver job is for, most urgent first. */
export const SOLVER_PRIORITIES = ['daily', 'hint', 'solve', 'certify'] as const;
/** A solver job's priority. */
export type SolverPriority = (typeof SOLVER_PRIORITIES)[number];

/** How a job is queued: its priority and the client it counts against (an address or a player id). */
export interface SolverJob {
  readonly priority: SolverPriority;
  /** The client the job counts against; none for the server's own work (daily generation). */
  readonly client?: string;
}

/** Limits of a scheduler. */
export interface SchedulerLimits {
  /** Jobs running at once (the worker threads). */
  readonly concurrency: number;
  /** Jobs waiting at once, all clients together; daily generation is never refused. */
  readonly maxQueued: number;
  /** Jobs one client may have waiting or running at once. */
  readonly maxPerClient: number;
}

interface Waiting<T> {
  readonly run: () => Promise<T>;
  readonly client: string | undefined;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs jobs through `limits.concurrency` slots in priority order. `submit` resolves with the job's result;
 * it rejects with ApiError `solver-busy` when the queue or the client's share is full (never for `daily`).
 */
export class SolverScheduler<T> {
  private readonly queues: Map<SolverPriority, Waiting<T>[]> = new Map(SOLVER_PRIORITIES.map((p) => [p, []]));
  private running = 0;
  private waiting = 0;
  private readonly perClient = new Map<string, number>();

  constructor(private readonly limits: SchedulerLimits) {}

  /** Jobs waiting for a slot. */
  get queued(): number {
    return this.waiting;
  }

  /** Jobs running now. */
  get active(): number {
    return this.running;
  }

  /** Queues `run` as `job`; see the class comment for the refusals. */
  submit(job: SolverJob, run: () => Promise<T>): Promise<T> {
    const client = job.client;
    if (job.priority !== 'daily') {
      if (this.waiting >= this.limits.maxQueued && this.running >= this.limits.concurrency)
        return Promise.reject(new ApiError('solver-busy', 'the solver is busy, try again shortly'));
      if (client !== undefined && (this.perClient.get(client) ?? 0) >= this.limits.maxPerClient)
        return Promise.reject(
          new ApiError('solver-busy', `at most ${this.limits.maxPerClient} solver jobs at once per client`),
        );
    }
    if (client !== undefined) this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    return new Promise<T>((resolve, reject) => {
      (this.queues.get(job.priority) as Waiting<T>[]).push({ run, client, resolve, reject });
      this.waiting++;
      this.pump();
    });
  }

  private next(): Waiting<T> | undefined {
    for (const p of SOLVER_PRIORITIES) {
      const q = this.queues.get(p) as Waiting<T>[];
      if (q.length > 0) return q.shift();
    }
    return undefined;
  }

  private pump(): void {
    while (this.running < this.limits.concurrency) {
      const job = this.next();
      if (job === undefined) return;
      this.waiting--;
      this.running++;
      const settle = (): void => {
        this.running--;
        if (job.client !== undefined) {
          const left = (this.perClient.get(job.client) ?? 1) - 1;
          if (left <= 0) this.perClient.delete(job.client);
          else this.perClient.set(job.client, left);
        }
        this.pump();
      };
      // The slot and the client's share are freed before the caller hears of the result.
      job.run().then(
        (value) => {
          settle();
          job.resolve(value);
        },
        (error: unknown) => {
          settle();
          job.reject(error);
        },
      );
    }
  }
}
