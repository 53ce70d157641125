/**
 * The daily's schedule (daily/service.ts "Schedule"): `current()` makes sure today's and tomorrow's dailies
 * exist and settles the attempts of closed days (memoised per date, so every daily route can await it
 * cheaply); the archive (the last `archiveDays` days) is filled in the background after that, then every par
 * is refined; the closed days' open data files are made once they have settled. `tick()` runs all of it and
 * is what the daily plugin's timer calls. The dailies themselves are made and refined by daily/deals.ts;
 * which ones are missing and in which order the fill works is decided by daily/decisions.ts.
 */
import { DAILY_PRESETS } from '@klondike/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import { addDays, utcDate } from '../../infra/dates.js';
import type { DailyWorkPriority } from '../solve/scheduler.js';
import type { SolverPool } from '../solve/task.js';
import { DailyDeals } from './deals.js';
import { archiveDates, missingDailies, refineOrder } from './decisions.js';
import type { ExportRepository } from './export-repository.js';
import { type DailyPreset, GenerationStopped } from './generate.js';
import { settleClosedAttempt } from './games.js';
import { storeMissingExports } from './open-data.js';
import type { DailyRepository, DailyRow } from './repository.js';

/** What the daily job is doing (GET /api/ready's `daily`). */
export interface DailyJobStatus {
  /** Today's dailies are stored (by this node's knowledge). */
  readonly todayReady: boolean;
  /** Archive dailies not yet stored, as the fill last counted them; null before the fill first ran. */
  readonly archivePending: number | null;
  /** Par refinements under way or waiting. */
  readonly parPending: number;
  /** The background fill (archive, then pars) is running. */
  readonly backfilling: boolean;
}

/** What the schedule needs. */
export interface DailyScheduleOptions {
  /** The daily's rows. */
  readonly repository: DailyRepository;
  /** The open data files' rows. */
  readonly exports: ExportRepository;
  readonly rooms: GameRooms;
  readonly solver: SolverPool;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** DAILY_SECRET, or undefined to use (and create once) the secret stored in the database. */
  readonly secret: string | undefined;
  /** Closed days kept generated and listed by the archive. */
  readonly archiveDays: number;
  /** Solver time per candidate, ms. */
  readonly solveMs: number;
  /**
   * Whether a daily request starts the rest of the schedule (`current`) in the background on a node's first
   * use of a date (`todayReady`): when no timer runs it (DAILY_SCHEDULE off). With the timer on it would land
   * on the midnight peak, on every node; the timer's lease holder runs it after the rollover delay.
   * Default true.
   */
  readonly rolloverOnFirstUse?: boolean;
}

/**
 * Memoises one run of `work` per UTC date in `runs`: forgets the runs of earlier dates, and forgets a run that
 * failed so the next use retries.
 */
function memoPerDate(
  runs: Map<string, Promise<void>>,
  today: string,
  work: () => Promise<void>,
): Promise<void> {
  let p = runs.get(today);
  if (!p) {
    for (const d of runs.keys()) if (d < today) runs.delete(d);
    p = work();
    runs.set(today, p);
    p.catch(() => runs.delete(today)); // retried on next use
  }
  return p;
}

/** The daily schedule of one node (see the module comment). */
export class DailySchedule {
  /** The stored dailies: made, refined (deals.ts). */
  private readonly deals: DailyDeals;
  /** Today's dailies made ready, per date (see `todayReady`). */
  private readonly todays = new Map<string, Promise<void>>();
  /** The date whose dailies `todayReady` last found stored (for `status`). */
  private readyDate: string | undefined;
  /** The archive's dailies not yet stored, as last counted by the fill (null before it first ran). */
  private archivePending: number | null = null;
  /** The fill (archive, then pars) is running. */
  private filling = false;
  private readonly rollovers = new Map<string, Promise<void>>();
  /** The closed days' settlement per date (see `settled`). */
  private readonly settlements = new Map<string, Promise<void>>();
  private readonly archives = new Map<string, Promise<void>>();
  /** The closed days' export files made, per date (see `exported`). */
  private readonly exporting = new Map<string, Promise<void>>();
  private stopped = false;
  /** Who hears a day opening (`onOpened`). */
  private readonly openedListeners = new Set<(date: string) => void>();

  /** See `DailyScheduleOptions`. */
  constructor(private readonly opts: DailyScheduleOptions) {
    this.deals = new DailyDeals({ ...opts, stopped: () => this.stopped });
  }

  /** Today's UTC date by the server clock. */
  today(): string {
    return utcDate(this.opts.now());
  }

  /**
   * Makes sure today's dailies exist, certifying them first when missing (milliseconds of solver work: the
   * only daily work a request ever waits for). Memoised per date; also starts the rest of the schedule
   * (`current`) in the background, unless the daily job's timer does (`rolloverOnFirstUse`).
   */
  todayReady(): Promise<void> {
    const p = this.todaysDailies();
    if (this.opts.rolloverOnFirstUse ?? true)
      void this.current().catch((err: unknown) => this.logFailure(err, 'daily schedule'));
    return p;
  }

  /**
   * Hears `date` whenever this node first finds a day's dailies stored and playable (once per date per node;
   * every node finds it: the events streams drop repeats). Returns the stop function.
   */
  onOpened(listener: (date: string) => void): () => void {
    this.openedListeners.add(listener);
    return () => this.openedListeners.delete(listener);
  }

  /** Calls the `onOpened` listeners (a throwing one does not stop the others). */
  private announceOpened(date: string): void {
    for (const l of [...this.openedListeners]) {
      try {
        l(date);
      } catch (err) {
        this.opts.log.warn({ err }, 'daily opened listener failed');
      }
    }
  }

  /** Today's dailies made ready (memoised per date), without starting anything else. */
  private todaysDailies(): Promise<void> {
    const today = this.today();
    return memoPerDate(this.todays, today, () =>
      Promise.all(DAILY_PRESETS.map((preset) => this.ensure(today, preset, 'daily'))).then(() => {
        this.readyDate = today;
        this.announceOpened(today);
      }),
    );
  }

  /**
   * The schedule's daily part, in the background: today's and tomorrow's dailies certified and stored,
   * closed days settled; then the fill (`fill`: the archive, then every par). Memoised per date. No request
   * awaits it.
   */
  current(): Promise<void> {
    const today = this.today();
    let p = this.rollovers.get(today);
    if (!p) {
      for (const d of this.rollovers.keys()) if (d < today) this.rollovers.delete(d);
      p = (async () => {
        await this.todaysDailies();
        await Promise.all(DAILY_PRESETS.map((preset) => this.ensure(addDays(today, 1), preset, 'daily')));
        await this.settled();
        void this.exported().catch((err: unknown) => this.logFailure(err, 'daily exports'));
      })();
      this.rollovers.set(today, p);
      p.then(
        () => void this.fill(today).catch((err: unknown) => this.logFailure(err, 'daily fill')),
        () => this.rollovers.delete(today), // retried on next use
      );
    }
    return p;
  }

  /**
   * Settles the ranked attempts of closed days, memoised per date, without waiting for any daily to be
   * generated: what the player, statistics, archive and closed-day routes need.
   */
  settled(): Promise<void> {
    return memoPerDate(this.settlements, this.today(), () => this.finaliseClosed().then(() => undefined));
  }

  /**
   * The open data files of the closed days (daily/open-data.ts): made once each day has settled, memoised
   * per date (a failure is retried on next use).
   */
  exported(): Promise<void> {
    const today = this.today();
    return memoPerDate(this.exporting, today, async () => {
      await this.settled();
      const made = await storeMissingExports(this.opts.exports, today);
      if (made.length > 0) this.opts.log.info({ days: made.length }, 'daily exports stored');
    });
  }

  /**
   * Runs the whole schedule now and waits for it: today and tomorrow, settling closed days, the archive,
   * the exports.
   */
  async tick(): Promise<void> {
    await this.current();
    await this.finaliseClosed();
    await this.fill(this.today());
    await this.exported();
  }

  /** What the daily job is doing, for `GET /api/ready`. */
  status(): DailyJobStatus {
    return {
      todayReady: this.readyDate === this.today(),
      archivePending: this.archivePending,
      parPending: this.deals.refinesPending,
      backfilling: this.filling,
    };
  }

  /** Stops generating (the server is closing). Returns the work under way, to wait for a while. */
  stop(): Promise<unknown>[] {
    this.stopped = true;
    return [
      ...this.deals.inFlight(),
      ...this.rollovers.values(),
      ...this.archives.values(),
      ...this.exporting.values(),
    ];
  }

  /** The archive window: the `archiveDays` closed days before `today`, newest first. */
  archiveDates(today: string): string[] {
    return archiveDates(today, this.opts.archiveDays);
  }

  /** Starts the background fill unless it is running (`fill`); a failure is logged. */
  startFill(): void {
    void this.fill(this.today()).catch((err: unknown) => this.logFailure(err, 'daily fill'));
  }

  /**
   * The background fill, one solver job at a time at background priority: first the archive window's missing
   * dailies, newest first, certified (milliseconds each, so the archive is complete soon); then the pars of
   * today, tomorrow and the archive, refined. Logs when the archive is complete and when the fill is done.
   */
  private fill(today: string): Promise<void> {
    let p = this.archives.get(today);
    if (!p) {
      for (const d of this.archives.keys()) if (d < today) this.archives.delete(d);
      p = (async () => {
        const started = Date.now();
        const dates = this.archiveDates(today);
        const missing = missingDailies(dates, await this.opts.repository.storedKeys(dates));
        this.archivePending = missing.length;
        for (const { date, preset } of missing) {
          if (this.stopped) return;
          await this.ensure(date, preset, 'archive');
          this.archivePending = Math.max(0, (this.archivePending ?? 1) - 1);
        }
        this.archivePending = 0;
        if (missing.length > 0)
          this.opts.log.info({ days: missing.length, ms: Date.now() - started }, 'daily archive ready');
        for (const [date, priority] of refineOrder(today, dates))
          for (const preset of DAILY_PRESETS) {
            if (this.stopped) return;
            await this.deals.refine(date, preset, priority);
          }
        if (missing.length > 0)
          this.opts.log.info(
            { ms: Date.now() - started },
            'daily backfill done: archive stored, pars refined',
          );
      })();
      this.archives.set(today, p);
      this.filling = true;
      const done = (): void => {
        this.filling = false;
      };
      p.then(done, () => {
        done();
        this.archives.delete(today); // retried on next use
      });
    }
    return p;
  }

  /** Settles every ranked attempt of a closed day that has no leaderboard row yet (as `unfinished`). */
  async finaliseClosed(): Promise<number> {
    const open = await this.opts.repository.unsettledAttempts(this.today());
    let n = 0;
    for (const gameId of open) if (await settleClosedAttempt(this.opts.rooms, gameId)) n++;
    return n;
  }

  /** Logs a failure of background work, unless the server is closing. */
  logFailure(err: unknown, what: string): void {
    if (err instanceof GenerationStopped || this.stopped) return;
    this.opts.log.error({ err }, `${what} failed`);
  }

  /**
   * The stored daily of a date and preset, certifying and storing it first when missing (par not yet
   * refined: see daily/deals.ts `refine`). `priority` is the solver lane's priority of that work.
   */
  ensure(date: string, preset: DailyPreset, priority: DailyWorkPriority = 'daily'): Promise<DailyRow> {
    return this.deals.ensure(date, preset, priority);
  }
}
