/**
 * The stored dailies (daily/service.ts, "Schedule"): a daily certified and stored when it is missing (one
 * search per date and preset at a time; the first node to store it wins), its par refined in the
 * background, and the daily secret the candidates are keyed with.
 */
import { randomBytes } from 'node:crypto';
import { MoveSchema } from '@klondike/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { dealOfKey } from '../../core/rooms/keyed-deals.js';
import type { DailyWorkPriority } from '../solve/scheduler.js';
import type { SolverPool } from '../solve/task.js';
import { utcDate } from '../../infra/dates.js';
import { type DailyPreset, certifyDaily, refinePar } from './generate.js';
import type { DailyRepository, DailyRow } from './repository.js';

/** Key of the generated daily secret in table Setting. */
export const DAILY_SECRET_KEY = 'daily-secret';

/** What making the dailies takes. */
export interface DailyDealsOptions {
  /** The daily's rows. */
  readonly repository: DailyRepository;
  readonly solver: SolverPool;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** DAILY_SECRET, or undefined to use (and create once) the secret stored in the database. */
  readonly secret: string | undefined;
  /** Solver time per candidate, ms. */
  readonly solveMs: number;
  /** Whether the server is closing (a search under way stops). */
  readonly stopped: () => boolean;
}

/** The dailies of this node: made, refined, and the work under way. */
export class DailyDeals {
  private secretValue: Promise<string> | undefined;
  private readonly generating = new Map<string, Promise<DailyRow>>();
  /** Par refinements under way, and the `date|preset` of those done in this process. */
  private readonly refining = new Map<string, Promise<void>>();
  private readonly refined = new Set<string>();

  constructor(private readonly opts: DailyDealsOptions) {}

  /** Par refinements under way or waiting. */
  get refinesPending(): number {
    return this.refining.size;
  }

  /** The work under way: searches and refinements (awaited, for a while, on stop). */
  inFlight(): Promise<unknown>[] {
    return [...this.generating.values(), ...this.refining.values()];
  }

  /** The daily secret: DAILY_SECRET, else the one stored in the database (created once, race-free). */
  private secret(): Promise<string> {
    if (this.opts.secret !== undefined) return Promise.resolve(this.opts.secret);
    if (!this.secretValue) {
      this.secretValue = this.opts.repository.setting(DAILY_SECRET_KEY, () =>
        randomBytes(32).toString('hex'),
      );
      this.secretValue.catch(() => {
        this.secretValue = undefined;
      });
    }
    return this.secretValue;
  }

  /**
   * The stored daily of a date and preset, certifying and storing it first when missing (par not yet
   * refined: see `refine`). `priority` is the solver lane's priority of that work.
   */
  ensure(date: string, preset: DailyPreset, priority: DailyWorkPriority = 'daily'): Promise<DailyRow> {
    const key = `${date}|${preset}`;
    let p = this.generating.get(key);
    if (!p) {
      p = this.generate(date, preset, priority).finally(() => this.generating.delete(key));
      this.generating.set(key, p);
    }
    return p;
  }

  private async generate(date: string, preset: DailyPreset, priority: DailyWorkPriority): Promise<DailyRow> {
    const repo = this.opts.repository;
    const existing = await repo.daily(date, preset);
    if (existing && (existing.dealKey !== null || date <= utcDate(this.opts.now()))) return existing;
    if (existing) {
      // A day not yet open still dealt from a v1 deal number (stored before deal algorithm v2): its opening
      // would identify it, so it is dealt again from a key. Nobody has played it (it is not open).
      await repo.deleteUnplayedNumbered(existing.id);
    }
    const started = Date.now();
    const g = await certifyDaily(this.opts.solver, await this.secret(), date, preset, {
      timeLimitMs: this.opts.solveMs,
      stopped: this.opts.stopped,
      priority,
    });
    // Another node may have stored it meanwhile: the first one stored wins.
    const stored = await repo.storeDaily({
      date,
      preset,
      deal: g.deal,
      dealKey: g.dealKey,
      candidate: g.candidate,
      par: g.par,
      parProven: g.parProven,
      parLowerBound: g.parLowerBound,
      line: g.line,
    });
    this.opts.log.info({ date, preset, ms: Date.now() - started }, 'daily ready'); // never the candidate or key
    return stored;
  }

  /**
   * Refines the stored par of a daily in the background (daily/generate.ts `refinePar`), once per daily and
   * process: keeps a shorter line, a proof, or a lower bound; never lengthens par and never touches a proven
   * one. When the line changes, the day's fair-play signals are computed again against the new line.
   * Par may change while its day is open (a first start's today): ranks never depend on par, only the
   * "moves vs par" a result shows.
   */
  refine(date: string, preset: DailyPreset, priority: DailyWorkPriority): Promise<void> {
    const key = `${date}|${preset}`;
    if (this.refined.has(key)) return Promise.resolve();
    let p = this.refining.get(key);
    if (!p) {
      p = (async () => {
        const repo = this.opts.repository;
        const row = await repo.daily(date, preset);
        if (row === null || row.parProven || row.parLowerBound !== null || row.dealKey === null) {
          if (row !== null) this.refined.add(key);
          return;
        }
        const stored = MoveSchema.array().parse(row.line);
        const r = await refinePar(
          this.opts.solver,
          dealOfKey(row.dealKey),
          preset,
          stored,
          { timeLimitMs: this.opts.solveMs, stopped: this.opts.stopped, priority },
          `${date} ${preset}`,
        );
        const lineChanged = r.line.length !== stored.length;
        await repo.storeRefinedPar(row.id, {
          par: r.par,
          parProven: r.parProven,
          parLowerBound: r.parLowerBound,
          ...(lineChanged ? { line: r.line } : {}),
        });
        this.refined.add(key);
      })().finally(() => this.refining.delete(key));
      this.refining.set(key, p);
    }
    return p;
  }
}
