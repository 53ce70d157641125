/**
 * Certified deals made ahead of time (races/service.ts `createPaired`): a pairing that finds a deal of its
 * preset ready takes it at once instead of waiting for the solver, so a burst of pairings (an arena's round)
 * does not queue its certifications behind one another.
 *
 * What is wanted comes from the callers: `want(preset, count)` asks for up to `count` deals of a preset to
 * be kept ready (capped at DEAL_RESERVE_MAX), the arenas' tick saying how many pairs its running arenas may
 * need soon. The reserve refills one certification at a time (so it never holds more than one solver slot
 * nor fills the solver's queue), at the `certify` priority as the server's own work (counted against no
 * client), after each `take` and each `want`. A failed certification (the solver busy) is tried again after
 * RESERVE_RETRY_MS. Deals are random v2 keys nobody has seen: holding them in memory for a while changes
 * nothing of their fairness (docs/fairness.md "Races"), and each is handed out once. Nothing is kept across
 * restarts; each node has its own reserve.
 */
import { resolveOptions } from '@klondike/rules';
import type { FastifyBaseLogger } from 'fastify';
import { type CertifyOptions, type PickedDeal, certifiedDeal } from './deals.js';

/** The presets a paired race is made of. */
export type PairedPreset = 'classic-draw1' | 'classic-draw3';

/**
 * Most deals of one preset kept ready. An arena's races start together and, played at similar paces, end
 * in bursts: every pair of a burst re-paired at once needs its deal then, so the reserve holds one for each
 * pair of a few-hundred-player arena (a deal and its key: well under a kilobyte each). A reserve smaller
 * than a burst leaves the burst's last pairs waiting for certifications one after another (seconds).
 */
export const DEAL_RESERVE_MAX = 256;
/** How long the reserve waits after a failed certification before it tries again, ms. */
export const RESERVE_RETRY_MS = 1000;

/** What the reserve needs. */
export interface DealReserveOptions {
  readonly certify: CertifyOptions;
  readonly log: FastifyBaseLogger;
}

/** See the module comment. */
export class DealReserve {
  private readonly ready = new Map<PairedPreset, PickedDeal[]>();
  private readonly wanted = new Map<PairedPreset, number>();
  private filling: Promise<void> | null = null;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: DealReserveOptions) {}

  /** Deals of `preset` ready now. */
  size(preset: PairedPreset): number {
    return this.ready.get(preset)?.length ?? 0;
  }

  /** A ready certified deal of `preset` (each handed out once), or undefined; refills behind it. */
  take(preset: PairedPreset): PickedDeal | undefined {
    if (this.stopped) return undefined;
    const deal = this.ready.get(preset)?.shift();
    this.fill();
    return deal;
  }

  /** Keeps up to `count` deals of `preset` ready from now on (at most DEAL_RESERVE_MAX; 0: no more made). */
  want(preset: PairedPreset, count: number): void {
    this.wanted.set(preset, Math.max(0, Math.min(DEAL_RESERVE_MAX, Math.floor(count))));
    this.fill();
  }

  /**
   * Stops refilling. A certification in flight is not waited for (its candidates could take CERTIFY_TRIES
   * times the certification time): it ends with the solver's pool, and what it makes is never handed out.
   */
  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }

  /** The preset short of the most deals, or undefined when every wanted count is met. */
  private short(): PairedPreset | undefined {
    let best: PairedPreset | undefined;
    let missing = 0;
    for (const [preset, count] of this.wanted) {
      const m = count - this.size(preset);
      if (m > missing) [best, missing] = [preset, m];
    }
    return best;
  }

  /** Starts the refill loop unless it runs (or waits to retry). */
  private fill(): void {
    if (this.stopped || this.filling !== null || this.retry !== undefined) return;
    this.filling = this.refill().finally(() => {
      this.filling = null;
    });
  }

  private async refill(): Promise<void> {
    for (let preset = this.short(); preset !== undefined && !this.stopped; preset = this.short()) {
      try {
        const deal = await certifiedDeal(
          this.opts.certify,
          resolveOptions(preset, { hints: false }),
          undefined,
        );
        const list = this.ready.get(preset) ?? [];
        list.push(deal);
        this.ready.set(preset, list);
      } catch (err) {
        if (this.stopped) return;
        this.opts.log.warn({ err, preset }, 'deal reserve: no certified deal made; trying again shortly');
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.fill();
        }, RESERVE_RETRY_MS);
        this.retry.unref();
        return;
      }
    }
  }
}
