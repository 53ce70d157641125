/**
 * The race sweeper (races/service.ts, "Timers"): while this node holds the cluster's lease, it arms a timer
 * for each timer fact of the unfinished races — the countdown's end (`startsAt`), the time limit (`endsAt`),
 * each forfeit (`forfeitAt`) — and fires the service's transition when the fact is due by the server clock.
 * Every transition re-checks its fact under the room's row lock, so a late or doubled timer changes nothing.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RaceRepository } from './repository.js';

/** Longest wait between two checks of a timer fact against the server clock, ms. */
const TIMER_TICK_MS = 1000;

/** A timer of the sweeper: its fact's due time and its timeout. */
interface ArmedTimer {
  readonly due: number;
  readonly timeout: NodeJS.Timeout;
}

/** What the sweeper needs: the races' rows, the clock, and the service's transitions. */
export interface SweeperOptions {
  readonly repository: RaceRepository;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** How often the sweeper looks at the timer facts when nothing woke it, ms. */
  readonly sweepMs: number;
  /** Whether the service is closing (nothing is armed or fired then). */
  readonly stopped: () => boolean;
  /** Keeps a transition's promise among those the service awaits on stop. */
  readonly track: <T>(p: Promise<T>) => Promise<T>;
  /** Takes away the race sockets of dead nodes (first in every pass). */
  readonly sweepDeadNodes: () => Promise<void>;
  /** The countdown's end of a race. */
  readonly begin: (code: string) => Promise<void>;
  /** The time limit of a running race. */
  readonly timeUp: (code: string) => Promise<void>;
  /** A racer away too long forfeits. */
  readonly forfeit: (code: string, playerId: string) => Promise<void>;
}

/** The cluster's race timers, run on this node while it holds the lease. */
export class RaceSweeper {
  /** The timers, by fact. */
  private readonly timers = new Map<string, ArmedTimer>();
  private sweeping = false;
  private sweepRun: Promise<void> | null = null;
  private sweepAgain = false;
  private sweepTicker: NodeJS.Timeout | undefined;

  constructor(private readonly opts: SweeperOptions) {}

  /** Whether this node runs the sweeper now. */
  get held(): boolean {
    return this.sweeping;
  }

  /** The run in progress, if any (awaited on stop). */
  get running(): Promise<void> | null {
    return this.sweepRun;
  }

  /** The lease was taken (true) or lost (false): starts or stops the timers. */
  setHeld(held: boolean): void {
    if (held === this.sweeping) return;
    this.sweeping = held;
    if (held && !this.opts.stopped()) {
      this.sweepTicker = setInterval(() => this.request(), this.opts.sweepMs);
      this.sweepTicker.unref();
      this.request();
    } else {
      if (this.sweepTicker) clearInterval(this.sweepTicker);
      this.sweepTicker = undefined;
      for (const t of this.timers.values()) clearTimeout(t.timeout);
      this.timers.clear();
    }
  }

  /** Runs `sweep` now, or once more after the run in progress. */
  request(): void {
    if (!this.sweeping || this.opts.stopped()) return;
    if (this.sweepRun) {
      this.sweepAgain = true;
      return;
    }
    this.sweepRun = (async () => {
      do {
        this.sweepAgain = false;
        try {
          await this.sweep();
        } catch (err) {
          this.opts.log.warn({ err }, 'race sweep failed');
        }
      } while (this.sweepAgain && this.sweeping && !this.opts.stopped());
    })().finally(() => {
      this.sweepRun = null;
    });
  }

  /**
   * One pass of the sweeper: takes away the race sockets of dead nodes, then arms a timer for each timer
   * fact of the unfinished races (countdown ends, time limits, forfeits) and drops the timers of facts gone.
   */
  private async sweep(): Promise<void> {
    await this.opts.sweepDeadNodes();
    const rows = await this.opts.repository.timerFacts();
    if (!this.sweeping || this.opts.stopped()) return;
    const wanted = new Set<string>();
    for (const r of rows) {
      if (r.status === 'countdown' && r.startsAt) {
        const key = `begin:${r.code}`;
        wanted.add(key);
        this.arm(key, r.startsAt.getTime(), () => this.opts.begin(r.code));
      }
      if (r.status !== 'running') continue;
      if (r.endsAt) {
        const key = `limit:${r.code}`;
        wanted.add(key);
        this.arm(key, r.endsAt.getTime(), () => this.opts.timeUp(r.code));
      }
      for (const x of r.racers) {
        if (!x.forfeitAt) continue;
        const key = `forfeit:${r.code}:${x.playerId}`;
        wanted.add(key);
        this.arm(key, x.forfeitAt.getTime(), () => this.opts.forfeit(r.code, x.playerId));
      }
    }
    for (const [key, t] of this.timers)
      if (!wanted.has(key)) {
        clearTimeout(t.timeout);
        this.timers.delete(key);
      }
  }

  /**
   * Arms (or keeps) the timer of a fact due at `due` (server clock). It re-checks `now()` at least every
   * TIMER_TICK_MS until the fact is due, then runs `fire` (which re-checks the fact under the row lock).
   */
  private arm(key: string, due: number, fire: () => Promise<void>): void {
    const have = this.timers.get(key);
    if (have?.due === due) return;
    if (have) clearTimeout(have.timeout);
    const left = due - this.opts.now();
    const timeout = setTimeout(
      () => {
        if (this.timers.get(key)?.timeout !== timeout) return;
        this.timers.delete(key);
        if (!this.sweeping || this.opts.stopped()) return;
        if (this.opts.now() < due) {
          this.arm(key, due, fire);
          return;
        }
        this.opts
          .track(fire())
          .catch((err: unknown) => this.opts.log.error({ err, key }, 'race timer failed'));
      },
      Math.min(Math.max(0, left), TIMER_TICK_MS),
    );
    this.timers.set(key, { due, timeout });
  }
}
