/**
 * Quick pairing (docs/ratings.md "Quick race"): a pool per classic preset, kept in the database so every node
 * sees the same pool. A player has at most one `PairingEntry` row (its primary key), so nobody is in two
 * pairings at once.
 *
 * Life of a row: `waiting` (entered) → `matching` (a node claimed the pair and is making its race) →
 * `paired` (the race exists; the row is cleared once the race has finished). Pairs are chosen by
 * pairing/matching.ts inside one transaction that holds the pool's advisory lock
 * (`pg_try_advisory_xact_lock`): on several nodes one node pairs at a time and the others skip that tick,
 * so a row is never claimed twice. The race is then made outside the lock (certifying its deal takes the
 * solver a moment); if that fails the pair goes back to waiting. A `matching` row older than
 * MATCHING_TIMEOUT_MS (its node died while making the race) goes back to waiting.
 *
 * Ticks: entering, and reading one's status while waiting, run a tick at once; while the pool last seen by
 * this node had waiting players, it ticks again every PAIRING_TICK_MS (the windows widen with time). So an
 * empty pool costs nothing, and a node's death leaves its players to the ticks of the others (their clients
 * poll their status while they wait).
 *
 * Two players whose rated result already counted today in the pool (ratings/farming.ts) are not paired
 * again while someone else waits (pairing/matching.ts; who met today: pairing/repository.ts).
 *
 * A pair is told through `paired` frames on every socket that sent `auth` as one of them, on any node (the
 * bus channel `pairing`), and through the status itself.
 */
import type { PairingStatus } from '@klondike/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../../infra/bus/event-bus.js';
import { ApiError } from '../../infra/errors.js';
import type { AuthedPlayer } from '../players/players.js';
import { pairUp, windowPoints } from './matching.js';
import type { EntryRow, PairingRepository } from './repository.js';

/** A pairing preset. */
export type PairingPreset = 'classic-draw1' | 'classic-draw3';

/** How often a node with waiting players in view pairs again, ms. */
export const PAIRING_TICK_MS = 1000;
/** A `matching` row older than this (ms) goes back to waiting: its node died while making the race. */
export const MATCHING_TIMEOUT_MS = 60_000;

/** Bus channel of `paired` notices between nodes. */
const CHANNEL = 'pairing';

/** Something that can be sent a server frame's text (a socket). */
export interface PairingListener {
  send(text: string): void;
}

/** Options of the pairing service. */
export interface PairingServiceOptions {
  /** The pool's rows (repository.ts). */
  readonly repository: PairingRepository;
  readonly bus: EventBus;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** The player's race rating of `preset` (Glicko scale; a new player's is 1500). */
  readonly ratingOf: (playerId: string, preset: PairingPreset) => Promise<number>;
  /**
   * Makes the pair's race (races/service.ts `createPaired`) and returns its code. Errors are caught: the
   * pair goes back to waiting.
   */
  readonly makeRace: (preset: PairingPreset, racers: readonly [string, string]) => Promise<string>;
  /** Ms between ticks while players wait (default PAIRING_TICK_MS). */
  readonly tickMs?: number;
}

/** A `paired` notice on the bus. */
interface PairedNotice {
  readonly playerIds: readonly string[];
  readonly code: string;
}

function isPairedNotice(m: unknown): m is PairedNotice {
  if (typeof m !== 'object' || m === null) return false;
  const n = m as { playerIds?: unknown; code?: unknown };
  return Array.isArray(n.playerIds) && typeof n.code === 'string';
}

/** See the module comment. Public methods throw `ApiError` for refusals. */
export class PairingService {
  /** This node's authed sockets, by player id. */
  private readonly listeners = new Map<string, Set<PairingListener>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly stopBus: () => void;
  private timer: NodeJS.Timeout | undefined;
  /** The last tick of this node (ticks run one after another). */
  private chain: Promise<number> = Promise.resolve(0);
  /** A tick queued behind the running one, joined by later calls until it starts. */
  private next: Promise<number> | null = null;
  private stopped = false;

  /** See `PairingServiceOptions`. Listens to the bus's `paired` notices at once. */
  constructor(private readonly opts: PairingServiceOptions) {
    this.stopBus = opts.bus.subscribe(CHANNEL, (m) => {
      if (isPairedNotice(m)) this.deliver(m.playerIds, m.code);
    });
  }

  /**
   * Enters `player` into `preset`'s pool (POST /api/pairing) and pairs at once if someone fits. Already
   * waiting: stays (moved to `preset`'s pool, waiting from now, when it was another); already paired into a
   * race not yet finished: that pairing is the answer.
   */
  async enter(player: AuthedPlayer, preset: PairingPreset): Promise<PairingStatus> {
    const before = await this.status(player, { tick: false });
    if (before.status === 'paired') return before;
    const repository = this.opts.repository;
    const now = new Date(this.opts.now());
    if (before.status === 'idle') {
      const rating = await this.opts.ratingOf(player.id, preset);
      await repository.enter({ playerId: player.id, preset, bot: player.bot, rating, at: now });
    } else if (before.preset !== preset) {
      const rating = await this.opts.ratingOf(player.id, preset);
      await repository.move(player.id, preset, rating, now);
    }
    await this.tick();
    return this.status(player, { tick: false });
  }

  /**
   * Where `player` stands (GET /api/pairing). A paired row whose race has finished is cleared (`idle`).
   * While waiting, a tick runs first (unless `tick: false`).
   */
  async status(player: AuthedPlayer, o: { tick?: boolean } = {}): Promise<PairingStatus> {
    const repository = this.opts.repository;
    let row: EntryRow | null = await repository.entry(player.id);
    if (row !== null && row.status === 'waiting' && o.tick !== false) {
      await this.tick();
      row = await repository.entry(player.id);
    }
    if (row === null) return { status: 'idle' };
    const preset = row.preset as PairingPreset;
    if (row.status === 'paired' && row.raceCode !== null) {
      const race = await repository.raceStatus(row.raceCode);
      if (race !== null && race !== 'finished') return { status: 'paired', preset, code: row.raceCode };
      await repository.clearPaired(player.id, row.raceCode);
      return { status: 'idle' };
    }
    const waitedMs = Math.max(0, this.opts.now() - row.enteredAt.getTime());
    return {
      status: 'waiting',
      preset,
      since: row.enteredAt.toISOString(),
      waitedMs,
      windowPoints: windowPoints(waitedMs),
    };
  }

  /**
   * Leaves the pool (DELETE /api/pairing): answers `idle`, or the pairing when a race was already made (it
   * stands: play it, or it is forfeited like any race left). Errors: `conflict` while the caller's race is
   * being made (ask again in a moment).
   */
  async leave(player: AuthedPlayer): Promise<PairingStatus> {
    if (await this.opts.repository.leave(player.id)) return { status: 'idle' };
    const now = await this.status(player, { tick: false });
    if (now.status === 'waiting')
      throw new ApiError('conflict', 'a race is being made for you: ask again in a moment');
    return now;
  }

  /**
   * Pairs the waiting players now (see the module comment) and makes their races. Returns how many pairs
   * this call made; 0 when another node holds the pool's lock or a tick of this node is running.
   */
  tick(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    if (this.next !== null) return this.next;
    // One tick at a time on this node; a call during a tick queues one more (it sees rows entered since).
    const run = this.chain.then(() => {
      this.next = null;
      return this.stopped ? 0 : this.pairNow();
    });
    this.next = run;
    this.chain = run.catch(() => 0);
    this.track(run);
    return run;
  }

  /** Hears `paired` frames for `playerId` on `listener` (an authed socket); returns the stop function. */
  listen(playerId: string, listener: PairingListener): () => void {
    let set = this.listeners.get(playerId);
    if (set === undefined) this.listeners.set(playerId, (set = new Set()));
    set.add(listener);
    return () => {
      const s = this.listeners.get(playerId);
      s?.delete(listener);
      if (s?.size === 0) this.listeners.delete(playerId);
    };
  }

  /** Stops ticking and waits for the races being made. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.stopBus();
    await Promise.allSettled([...this.inFlight]);
  }

  private async pairNow(): Promise<number> {
    const now = this.opts.now();
    const { pairs, left } = await this.opts.repository.pairRound(now, MATCHING_TIMEOUT_MS, (waiting, met) =>
      pairUp(waiting, now, met),
    );
    await Promise.all(
      pairs.map(([a, b]) => this.makeRace(a.preset as PairingPreset, [a.playerId, b.playerId])),
    );
    this.schedule(left > 0);
    return pairs.length;
  }

  /** Makes a claimed pair's race, then marks both rows paired and tells them; on failure, back to waiting. */
  private async makeRace(preset: PairingPreset, racers: readonly [string, string]): Promise<void> {
    const repository = this.opts.repository;
    const ids = [...racers];
    let code: string;
    try {
      code = await this.opts.makeRace(preset, racers);
    } catch (err) {
      this.opts.log.warn({ err, preset }, 'pairing: the race could not be made; the pair waits again');
      await repository.waitAgain(ids);
      return;
    }
    await repository.paired(ids, code);
    this.opts.log.info({ code, preset }, 'pairing: paired');
    this.notifyPaired(ids, code);
  }

  /**
   * Tells `playerIds` that race `code` was made for them: a `paired` frame on each of their authed sockets,
   * on every node (also used by the arenas).
   */
  notifyPaired(playerIds: readonly string[], code: string): void {
    this.deliver(playerIds, code);
    this.opts.bus.publish(CHANNEL, { playerIds, code } satisfies PairedNotice);
  }

  /** Sends `paired` to this node's sockets of `playerIds`. */
  private deliver(playerIds: readonly string[], code: string): void {
    const text = JSON.stringify({ type: 'paired', code });
    for (const id of playerIds) for (const l of this.listeners.get(id) ?? []) l.send(text);
  }

  /** Ticks again in `tickMs` while players wait (one timer at a time). */
  private schedule(waiting: boolean): void {
    if (!waiting || this.stopped || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick().catch((err: unknown) => this.opts.log.warn({ err }, 'pairing tick failed'));
    }, this.opts.tickMs ?? PAIRING_TICK_MS);
    this.timer.unref();
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    const done = (): void => {
      this.inFlight.delete(p);
    };
    p.then(done, done);
  }
}
