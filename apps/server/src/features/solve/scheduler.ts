/**
 * The order in which solver jobs get a worker thread, in two lanes:
 * - **interactive** jobs, which a person may be waiting for: hints and the winnable badge (`hint`),
 *   `POST /api/solve` (`solve`), race certification (`certify`), then certifying the daily deals of today
 *   and tomorrow (`daily`: a node-limited search of milliseconds, which a first request for today awaits),
 *   in that order;
 * - **background** jobs, which no play waits for: the verdicts of a game's review (`review`: a player may
 *   be reading the review page, but never in a game), refining a daily's par (`par`), the fair-play signals
 *   of a finished rated game (`signals`, features/signals), filling the archive of past days (`archive`), in
 *   that order.
 * Interactive jobs run on the interactive slots (SOLVER_THREADS); background jobs on slots of their own
 * (SOLVER_BACKGROUND_THREADS), so a running background search never holds a thread a person is waiting for.
 * A `daily` job that finds every interactive slot taken may take a free background slot first.
 * With no background slots, background jobs share the interactive slots and take one only when no
 * interactive job waits. Within a priority: first come, first served. Waiting interactive jobs are bounded
 * overall and per client, so that one client (or one busy feature) cannot starve the others; the server's
 * own jobs (`daily` and the background ones) are never refused.
 */
import { ApiError } from '../../infra/errors.js';

/** Interactive priorities, most urgent first. */
export const INTERACTIVE_PRIORITIES = ['hint', 'solve', 'certify', 'daily'] as const;
/** Background priorities, most urgent first. */
export const BACKGROUND_PRIORITIES = ['review', 'par', 'signals', 'puzzles', 'archive'] as const;
/** Every priority: interactive ones first. */
export const SOLVER_PRIORITIES = [...INTERACTIVE_PRIORITIES, ...BACKGROUND_PRIORITIES] as const;
/** A solver job's priority. */
export type SolverPriority = (typeof SOLVER_PRIORITIES)[number];
/** A background job's priority. */
export type BackgroundPriority = (typeof BACKGROUND_PRIORITIES)[number];
/** The daily job's priorities: certifying today's and tomorrow's dailies, then the background ones. */
export const DAILY_WORK_PRIORITIES = ['daily', 'par', 'archive'] as const;
/** What a background slot takes: a waiting daily certification first, then the background jobs in order. */
const BACKGROUND_SLOT_PRIORITIES = ['daily', ...BACKGROUND_PRIORITIES] as const;
/** A priority of the daily job's solver work. */
export type DailyWorkPriority = (typeof DAILY_WORK_PRIORITIES)[number];

/** Whether a priority is the daily job's own work (shown by `GET /api/ready`). */
export function isDailyWork(priority: SolverPriority): priority is DailyWorkPriority {
  return (DAILY_WORK_PRIORITIES as readonly string[]).includes(priority);
}

/** Where a job runs: the interactive threads or the background threads. */
export type SolverLane = 'interactive' | 'background';

/** Whether a priority is the server's own background work. */
export function isBackground(priority: SolverPriority): priority is BackgroundPriority {
  return (BACKGROUND_PRIORITIES as readonly string[]).includes(priority);
}

/** How a job is queued: its priority and the client it counts against (an address or a player id). */
export interface SolverJob {
  readonly priority: SolverPriority;
  /** The client the job counts against; none for the server's own work (background jobs). */
  readonly client?: string;
  /** What the job is, for the status route and logs (for example `2026-12-01 classic-draw1`). */
  readonly label?: string;
}

/** Limits of a scheduler. */
export interface SchedulerLimits {
  /** Interactive jobs running at once (SOLVER_THREADS). */
  readonly concurrency: number;
  /**
   * Background jobs running at once on threads of their own (SOLVER_BACKGROUND_THREADS; default 0 here:
   * background jobs share the interactive slots, after every waiting interactive job).
   */
  readonly backgroundConcurrency?: number;
  /** Interactive jobs waiting at once, all clients together; the server's own jobs are never refused. */
  readonly maxQueued: number;
  /** Interactive jobs one client may have waiting or running at once. */
  readonly maxPerClient: number;
}

/** A job starting or ending, as `observe` listeners hear it. */
export interface SolverJobEvent {
  readonly type: 'start' | 'end';
  /** A number per job, in order of submission. */
  readonly id: number;
  readonly priority: SolverPriority;
  readonly lane: SolverLane;
  readonly label: string | undefined;
  /** `performance.now()` of the event, ms. */
  readonly at: number;
  /** How long the job waited for its slot, ms (from `submit` to its start). */
  readonly waitedMs: number;
}

/** A running job, as `running()` lists it. */
export interface RunningJob {
  readonly priority: SolverPriority;
  readonly lane: SolverLane;
  readonly label: string | undefined;
  /** ms since the job started. */
  readonly ms: number;
}

interface Waiting<T> {
  readonly id: number;
  readonly job: SolverJob;
  readonly run: (lane: SolverLane) => Promise<T>;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
  /** `performance.now()` at `submit`, ms. */
  readonly queuedAt: number;
}

interface Started {
  readonly job: SolverJob;
  readonly lane: SolverLane;
  readonly at: number;
}

/**
 * Runs jobs through the slots of the two lanes in priority order (see the module comment). `submit`
 * resolves with the job's result; it rejects with ApiError `solver-busy` when the queue or the client's
 * share is full (never for background jobs).
 */
export class SolverScheduler<T> {
  private readonly queues: Map<SolverPriority, Waiting<T>[]> = new Map(SOLVER_PRIORITIES.map((p) => [p, []]));
  private interactiveRunning = 0;
  private backgroundRunning = 0;
  private waitingInteractive = 0;
  private waitingBackground = 0;
  private nextId = 1;
  private readonly perClient = new Map<string, number>();
  private readonly started = new Map<number, Started>();
  private readonly listeners = new Set<(e: SolverJobEvent) => void>();

  constructor(private readonly limits: SchedulerLimits) {}

  /** Jobs waiting for a slot, both lanes. */
  get queued(): number {
    return this.waitingInteractive + this.waitingBackground;
  }

  /** Background jobs waiting for a slot. */
  get queuedBackground(): number {
    return this.waitingBackground;
  }

  /** Jobs running now, both lanes. */
  get active(): number {
    return this.interactiveRunning + this.backgroundRunning;
  }

  /** The jobs running now, oldest first. */
  running(): RunningJob[] {
    const now = performance.now();
    return [...this.started.values()].map((s) => ({
      priority: s.job.priority,
      lane: s.lane,
      label: s.job.label,
      ms: Math.round(now - s.at),
    }));
  }

  /** Calls `listener` at every job's start and end; returns the function that stops it. */
  observe(listener: (e: SolverJobEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Queues `run` as `job`; `run` is called with the lane it was given a slot in. See the class comment for
   * the refusals.
   */
  submit(job: SolverJob, run: (lane: SolverLane) => Promise<T>): Promise<T> {
    const client = job.client;
    const background = isBackground(job.priority);
    if (!background && job.priority !== 'daily') {
      if (
        this.waitingInteractive >= this.limits.maxQueued &&
        this.interactiveRunning >= this.limits.concurrency
      )
        return Promise.reject(new ApiError('solver-busy', 'the solver is busy, try again shortly'));
      if (client !== undefined && (this.perClient.get(client) ?? 0) >= this.limits.maxPerClient)
        return Promise.reject(
          new ApiError('solver-busy', `at most ${this.limits.maxPerClient} solver jobs at once per client`),
        );
    }
    if (client !== undefined) this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    return new Promise<T>((resolve, reject) => {
      (this.queues.get(job.priority) as Waiting<T>[]).push({
        id: this.nextId++,
        job,
        run,
        resolve,
        reject,
        queuedAt: performance.now(),
      });
      if (background) this.waitingBackground++;
      else this.waitingInteractive++;
      this.pump();
    });
  }

  private take(priorities: readonly SolverPriority[]): Waiting<T> | undefined {
    for (const p of priorities) {
      const q = this.queues.get(p) as Waiting<T>[];
      if (q.length > 0) return q.shift();
    }
    return undefined;
  }

  private pump(): void {
    const backgroundSlots = this.limits.backgroundConcurrency ?? 0;
    while (this.interactiveRunning < this.limits.concurrency) {
      // Interactive slots: interactive jobs first; background ones too when they have no slots of their own.
      const w = this.take(backgroundSlots > 0 ? INTERACTIVE_PRIORITIES : SOLVER_PRIORITIES);
      if (w === undefined) break;
      this.start(w, 'interactive');
    }
    while (this.backgroundRunning < backgroundSlots) {
      // A daily certification that found every interactive slot taken may use a free background slot: it is
      // milliseconds of work a request may be waiting for (a first start certifies both presets at once).
      const w = this.take(BACKGROUND_SLOT_PRIORITIES);
      if (w === undefined) break;
      this.start(w, 'background');
    }
  }

  private emit(type: 'start' | 'end', w: Waiting<T>, lane: SolverLane, startedAt: number): void {
    if (this.listeners.size === 0) return;
    const at = performance.now();
    const e: SolverJobEvent = {
      type,
      id: w.id,
      priority: w.job.priority,
      lane,
      label: w.job.label,
      at,
      waitedMs: startedAt - w.queuedAt,
    };
    for (const l of this.listeners) l(e);
  }

  private start(w: Waiting<T>, lane: SolverLane): void {
    const background = isBackground(w.job.priority);
    if (background) this.waitingBackground--;
    else this.waitingInteractive--;
    if (lane === 'background') this.backgroundRunning++;
    else this.interactiveRunning++;
    const startedAt = performance.now();
    this.started.set(w.id, { job: w.job, lane, at: startedAt });
    this.emit('start', w, lane, startedAt);
    const settle = (): void => {
      if (lane === 'background') this.backgroundRunning--;
      else this.interactiveRunning--;
      this.started.delete(w.id);
      const client = w.job.client;
      if (client !== undefined) {
        const left = (this.perClient.get(client) ?? 1) - 1;
        if (left <= 0) this.perClient.delete(client);
        else this.perClient.set(client, left);
      }
      this.emit('end', w, lane, startedAt);
      this.pump();
    };
    // The slot and the client's share are freed before the caller hears of the result.
    const failed = (error: unknown): void => {
      settle();
      w.reject(error);
    };
    let p: Promise<T>;
    try {
      p = w.run(lane);
    } catch (error) {
      // A run that throws at once fails as one whose promise rejects: on the next microtask.
      queueMicrotask(() => failed(error));
      return;
    }
    p.then((value) => {
      settle();
      w.resolve(value);
    }, failed);
  }
}
