/**
 * Arenas in the database (docs/arenas.md): create, list, join/pause, berserk, and the arena tick that pairs
 * waiting players, scores finished races and settles the end.
 *
 * An arena is its rows (`Arena`, `ArenaPlayer`, `ArenaRace`), so any node serves any arena. The tick runs at
 * once when something it decides on changes on this node: an arena race this node finished (races/service.ts
 * `onFinished`: the node that committed the end scores it), a join, an arena made. Every node also ticks
 * every ARENA_TICK_MS while it knows of a running arena (the rematch wait, stale claims, a pair whose race
 * could not be made, berserk half times, the arena's end, and a change another node missed). Its work is
 * done inside one short transaction holding the advisory lock `arenas` (`pg_try_advisory_xact_lock`: one
 * node at a time; a node that finds it held tries again after ARENA_LOCK_RETRY_MS, since the holder may have
 * read the rows before the change that asked for this tick):
 *  1. each race of an arena that has finished and is not yet scored is scored once (`ArenaRace.scoredAt`),
 *     and its players return to the pool (unless paused);
 *  2. a running arena's waiting players are paired (arenas/pairing.ts) and claimed (`raceCode` = '' while
 *     their race is being made; a claim older than CLAIM_TIMEOUT_MS goes back to waiting);
 *  3. an arena past its end with every race scored is finished (`finishedAt`: the podium is final).
 * After the commit the arenas changed are published, and the claimed pairs' races are made apart from the
 * tick (races/service.ts `createPaired`, the arena's time limit, a certified deal made ahead when one is
 * ready: the tick tells the races how many its running arenas may need, `prepareDeals`), so no
 * certification holds the next tick; then the players are told (`paired` frames) and the arena published
 * again. Berserk racers whose half time is up are stopped after each tick. Each change is sent on the arena's
 * bus topic `arena:<id>` to the other nodes with subscribers of the arena (none: nothing leaves the node);
 * each such node, and this one, sends the `arena` frame to its own subscribers (one load of the arena at a
 * time per arena, coalesced).
 */
import type { Arena, ArenaListSchema, CreateArenaBody } from '@klondike/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { CoalescingPass } from '../../core/coalescing-pass.js';
import type { EventBus } from '../../infra/bus/event-bus.js';
import { ApiError } from '../../infra/errors.js';
import type { AuthedPlayer } from '../players/players.js';
import { newRaceCode } from '../races/ranking.js';
import type { ArenaListRow, ArenaRaceSettings, ArenaRepository, ArenaRow, TickResult } from './repository.js';
import { type ArenaScore, onFire } from './scoring.js';
import { type ScheduleEntry, slotsAhead } from './schedule.js';
import { berserkersToStop } from './tick.js';
import { canSeeArena, noArena } from './visibility.js';

export { CLAIM_TIMEOUT_MS } from './tick.js';

/**
 * How often a node ticks while it knows of a running arena, ms (default of config `arenaTickMs`): a safety
 * net and the clock of the waits; a race's end and a join tick at once.
 */
export const ARENA_TICK_MS = 1000;
/** How soon a node tries the tick again after finding the lock held by another node, ms. */
export const ARENA_LOCK_RETRY_MS = 100;
/** Why a tick ran (the counts of `ticksRun`, metric `klondike_arena_ticks_total`). */
export type ArenaTickCause = 'race-end' | 'request' | 'timer';
/** Default time limit of an arena's races, ms. */
export const ARENA_RACE_TIME_MS = 5 * 60_000;
/** Finished arenas the list shows, newest first. */
const FINISHED_LISTED = 10;
/** How far ahead a player may schedule an arena, ms. */
const MAX_AHEAD_MS = 7 * 24 * 60 * 60_000;

type ArenaList = z.infer<typeof ArenaListSchema>;
type Preset = 'classic-draw1' | 'classic-draw3';

/** Something that can be sent a server frame's text (a socket). */
export interface ArenaSubscriber {
  send(text: string): void;
}

/** What the arena service needs. */
export interface ArenaServiceOptions {
  /** The arenas' rows (repository.ts). */
  readonly repository: ArenaRepository;
  readonly bus: EventBus;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** Makes a 2-seat arena race (races/service.ts `createPaired`); returns its code. */
  readonly makeRace: (
    preset: Preset,
    racers: readonly [string, string],
    extra: { rated: boolean; timeLimitMs: number; arenaId: string },
  ) => Promise<string>;
  /** Tells players a race was made for them (pairing/service.ts `notifyPaired`). */
  readonly notifyPaired: (playerIds: readonly string[], code: string) => void;
  /** Ends a berserker's game whose half time is up (the server resigns it). */
  readonly stopGame: (gameId: string, owner: string) => Promise<void>;
  /** The schedule (default arenas/schedule.ts DEFAULT_SCHEDULE). */
  readonly schedule: readonly ScheduleEntry[];
  /** Public arenas one player may have upcoming or running at once (config `arenaPublicLimit`; default 3). */
  readonly publicLimit?: number;
  /** The periodic tick's interval, ms (default ARENA_TICK_MS). */
  readonly tickMs?: number;
  /**
   * Asks the races to keep `count` certified deals of `preset` ready on this node (races/service.ts
   * `prepareDeals`); none: every race certifies its own deal.
   */
  readonly prepareDeals?: (preset: Preset, count: number) => void;
  /** Hears how long a finished arena race took to be scored, ms (its end to the scoring tick's commit). */
  readonly scored?: (ms: number) => void;
}

function statusOf(a: { startsAt: Date; endsAt: Date; finishedAt: Date | null }, now: number) {
  if (a.finishedAt !== null || a.endsAt.getTime() <= now) return 'finished' as const;
  return a.startsAt.getTime() <= now ? ('running' as const) : ('upcoming' as const);
}

/** See the module comment. Public methods throw `ApiError` for refusals. */
export class ArenaService {
  private readonly local = new Map<string, Map<ArenaSubscriber, string | null>>();
  /** Stops watching each arena this node has subscribers of (bus topic `arena:<id>`). */
  private readonly unwatch = new Map<string, () => void>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** One fan-out at a time per arena (a change during one asks for one more). */
  private readonly fanOuts = new Map<string, CoalescingPass>();
  private readonly ticks: Record<ArenaTickCause, number> = { 'race-end': 0, request: 0, timer: 0 };
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (ms of this node's clock, `Date.now`). */
  private timerAt = Infinity;
  private chain: Promise<void> = Promise.resolve();
  private next: Promise<void> | null = null;
  /** Why the queued tick (`next`) runs. */
  private causes = new Set<ArenaTickCause>();
  /** Why the tick that found the lock held was asked for: the retry runs for them. */
  private retrying = new Set<ArenaTickCause>();
  private stopped = false;
  /** The presets whose deals the last tick asked the races to keep ready. */
  private dealPresets = new Set<string>();

  constructor(private readonly opts: ArenaServiceOptions) {}

  // ---------- REST ----------

  /**
   * Makes an arena (POST /api/arenas): people's arenas for a person, the bot board's for a bot. Errors:
   * `bad-request` for a start in the past (more than a minute) or more than 7 days ahead; `conflict` for a
   * public arena when the player already has `publicLimit` public arenas upcoming or running.
   */
  async create(player: AuthedPlayer, body: CreateArenaBody): Promise<Arena> {
    const now = this.opts.now();
    const startsAt = body.startsAt === undefined ? now : Date.parse(body.startsAt);
    if (startsAt < now - 60_000) throw new ApiError('bad-request', 'an arena cannot start in the past');
    if (startsAt > now + MAX_AHEAD_MS) throw new ApiError('bad-request', 'an arena starts within 7 days');
    if (!body.inviteOnly) {
      const limit = this.opts.publicLimit ?? 3;
      const open = await this.opts.repository.openPublicCount(player.id, new Date(now));
      if (open >= limit) {
        throw new ApiError(
          'conflict',
          `you already have ${open} public arena(s) upcoming or running (at most ${limit} at once); ` +
            'wait until one ends, or make an invite-only arena',
        );
      }
    }
    const id = newRaceCode();
    await this.opts.repository.create({
      id,
      name: body.name ?? `${player.name}'s arena`,
      preset: body.preset,
      startsAt: new Date(startsAt),
      endsAt: new Date(startsAt + body.durationMs),
      rated: body.rated,
      inviteCode: body.inviteOnly ? newRaceCode() : null,
      bots: player.bot,
      raceTimeLimitMs: ARENA_RACE_TIME_MS,
      createdBy: player.id,
      createdAt: new Date(now),
    });
    this.kick();
    return this.get(id, player.id);
  }

  /** Upcoming, running and the last finished arenas (GET /api/arenas); invite-only ones to their players. */
  async list(viewer: string | null): Promise<ArenaList> {
    const now = new Date(this.opts.now());
    const { open, finished } = await this.opts.repository.list(viewer, now, FINISHED_LISTED);
    const summary = (a: ArenaListRow) => this.summary(a, a._count.players);
    const t = now.getTime();
    // The repository lists official (scheduled) arenas first, each part by start.
    return {
      upcoming: open.filter((a) => statusOf(a, t) === 'upcoming').map(summary),
      running: open.filter((a) => statusOf(a, t) === 'running').map(summary),
      finished: finished.map(summary),
      nextCursor: null, // the whole list: the route pages it
    };
  }

  /** An arena as `viewer` sees it (GET /api/arenas/:id). Errors: `not-found`. */
  async get(id: string, viewer: string | null): Promise<Arena> {
    const row = await this.load(id);
    if (row === null || !canSeeArena(row, viewer)) throw new ApiError('not-found', noArena(id));
    return this.view(row, viewer);
  }

  /**
   * Joins (or comes back from a pause: POST /api/arenas/:id/join): waiting from now. Errors: `not-found`,
   * also for an invite-only arena the caller is not in and has not the right code for (arenas/visibility.ts);
   * `conflict` once it has ended; `forbidden` for a bot in people's arena (and the other way round).
   */
  async join(id: string, player: AuthedPlayer, inviteCode?: string): Promise<Arena> {
    const row = await this.load(id);
    if (row === null || (!canSeeArena(row, player.id) && inviteCode !== row.inviteCode))
      throw new ApiError('not-found', noArena(id));
    const now = this.opts.now();
    if (statusOf(row, now) === 'finished') throw new ApiError('conflict', 'the arena has ended');
    if (row.bots !== player.bot)
      throw new ApiError('forbidden', player.bot ? 'bots join bot arenas only' : 'this arena is for bots');
    const mine = row.players.find((p) => p.playerId === player.id);
    // One arena at a time: joining pauses the player in any other.
    await this.opts.repository.join(id, player.id, new Date(now), mine?.raceCode === null && mine.paused);
    this.kick();
    await this.changed(id);
    return this.get(id, player.id);
  }

  /** Pauses (POST /api/arenas/:id/leave): no new pairings; a race under way still counts. Errors: `not-found`. */
  async leave(id: string, player: AuthedPlayer): Promise<Arena> {
    const row = await this.load(id);
    if (row === null || !canSeeArena(row, player.id)) throw new ApiError('not-found', noArena(id));
    await this.opts.repository.pause(id, player.id);
    await this.changed(id);
    return this.get(id, player.id);
  }

  /** The caller's race now in arena `id`, or null. */
  async currentRace(id: string, playerId: string): Promise<string | null> {
    const code = await this.opts.repository.raceOf(id, playerId);
    return code ? code : null;
  }

  // ---------- live ----------

  /** Sends the arena to `sub` now and on every change (viewer: the authed player or null). Errors: `not-found`. */
  async subscribe(id: string, sub: ArenaSubscriber, viewer: string | null): Promise<void> {
    const arena = await this.get(id, viewer);
    let subs = this.local.get(id);
    if (subs === undefined) {
      this.local.set(id, (subs = new Map<ArenaSubscriber, string | null>()));
      // Another node's change sent before it heard of this watch is caught up by a fresh frame once it has.
      this.unwatch.set(
        id,
        this.opts.bus.watch(
          `arena:${id}`,
          () => this.track(this.fanOut(id)),
          () => this.track(this.fanOut(id)),
        ),
      );
    }
    subs.set(sub, viewer);
    sub.send(JSON.stringify({ type: 'arena', arena }));
  }

  /** Stops sending the arena to `sub`; the arena is no longer watched here once it has no subscriber. */
  unsubscribe(id: string, sub: ArenaSubscriber): void {
    const subs = this.local.get(id);
    subs?.delete(sub);
    if (subs?.size !== 0) return;
    this.local.delete(id);
    this.fanOuts.delete(id);
    this.unwatch.get(id)?.();
    this.unwatch.delete(id);
  }

  leaveAll(sub: ArenaSubscriber): void {
    for (const id of [...this.local.keys()]) this.unsubscribe(id, sub);
  }

  // ---------- the tick ----------

  /**
   * Runs a tick soon (one at a time on this node; a call during a tick queues one more). It resolves once the
   * tick has committed and what follows it is done (the races it paired made, its arenas published); the
   * node's next tick waits for the commit only.
   */
  tick(cause: ArenaTickCause = 'request'): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.causes.add(cause);
    if (this.next !== null) return this.next;
    const run = this.chain.then(() => {
      this.next = null;
      const causes = this.causes;
      this.causes = new Set();
      return this.stopped ? undefined : this.work(causes);
    });
    // The next tick waits for this one's transaction only; the caller also for what follows it.
    this.chain = run.then(
      () => undefined,
      (err: unknown) => this.opts.log.warn({ err }, 'arena tick failed'),
    );
    const done = run.then((after) => after?.followUp);
    this.next = done;
    this.track(done);
    return done;
  }

  /**
   * An arena race this node has just finished (races/service.ts `onFinished`): ticks at once, so the race is
   * scored and its racers paired again without waiting for the periodic tick.
   */
  raceFinished(): void {
    void this.tick('race-end');
  }

  /** How many ticks this node has run (holding the lock), by what asked for them; a tick asked for by several counts for each. */
  ticksRun(): Readonly<Record<ArenaTickCause, number>> {
    return { ...this.ticks };
  }

  /** Makes the schedule's coming arenas that do not exist yet (run by the daily job's lease holder). */
  async makeSchedule(): Promise<number> {
    const now = this.opts.now();
    let made = 0;
    for (const slot of slotsAhead(this.opts.schedule, now)) {
      const fresh = await this.opts.repository.createScheduled({
        id: newRaceCode(),
        name: slot.name,
        preset: slot.preset,
        startsAt: new Date(slot.startsAt),
        endsAt: new Date(slot.endsAt),
        raceTimeLimitMs: ARENA_RACE_TIME_MS,
        scheduleKey: slot.scheduleKey,
        createdAt: new Date(now),
      });
      if (fresh) made++;
    }
    if (made > 0) this.kick();
    return made;
  }

  /** Stops ticking and waits for the work in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const off of this.unwatch.values()) off();
    this.unwatch.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private kick(): void {
    void this.tick('request');
  }

  /**
   * One tick (repository.ts `tick`, the decisions of tick.ts); what follows its commit runs apart (tracked,
   * not awaited, so the next tick may start at once), returned as `followUp`: the claimed pairs' races made,
   * the changed arenas published, the berserkers stopped. Undefined when another node held the lock.
   */
  private async work(causes: ReadonlySet<ArenaTickCause>): Promise<{ followUp: Promise<void> } | undefined> {
    const now = this.opts.now();
    const result = await this.opts.repository.tick(now);
    if (result === null) {
      // Another node ticks; it may have read the rows before what asked for this tick: again shortly.
      for (const c of causes) this.retrying.add(c);
      this.schedule(ARENA_LOCK_RETRY_MS);
      return undefined;
    }
    for (const c of causes) this.ticks[c]++;
    for (const endedAt of result.scoredEndedAt) this.opts.scored?.(Math.max(0, this.opts.now() - endedAt));
    // Deals for the running arenas' presets; none any more for a preset no arena runs now.
    for (const preset of this.dealPresets)
      if (!result.dealsWanted.has(preset)) this.opts.prepareDeals?.(preset as Preset, 0);
    for (const [preset, count] of result.dealsWanted) this.opts.prepareDeals?.(preset as Preset, count);
    this.dealPresets = new Set(result.dealsWanted.keys());
    const followUp = Promise.all([
      result.claims.length > 0 ? this.makeRaces(result.claims) : undefined,
      this.afterTick(result.changed, now),
    ]).then(() => undefined);
    this.track(followUp);
    // Every tick while an arena is live; else wake for the next start (at least once a minute).
    if (result.nextStart !== null)
      this.schedule(Math.max(this.opts.tickMs ?? ARENA_TICK_MS, Math.min(60_000, result.nextStart - now)));
    return { followUp };
  }

  /** What follows a tick apart from the next one: the changed arenas published, the berserkers stopped. */
  private async afterTick(changed: ReadonlySet<string>, now: number): Promise<void> {
    try {
      await Promise.all([...changed].map((id) => this.changed(id)));
      await this.stopBerserkers(now);
    } catch (err) {
      this.opts.log.warn({ err }, 'arena: publishing or stopping berserkers after a tick failed');
    }
  }

  /** Makes the claimed pairs' races (at once, each on its own), then publishes their arenas. */
  private async makeRaces(claims: TickResult['claims']): Promise<void> {
    try {
      await Promise.all(claims.map((c) => this.makeRace(c.arena, c.pair)));
      await Promise.all([...new Set(claims.map((c) => c.arena.id))].map((id) => this.changed(id)));
    } catch (err) {
      this.opts.log.warn({ err }, 'arena: making the paired races failed');
    }
  }

  /** Makes a claimed pair's race; on failure the pair waits again (paired by a later tick). */
  private async makeRace(arena: ArenaRaceSettings, pair: [string, string]): Promise<void> {
    let code: string;
    try {
      code = await this.opts.makeRace(arena.preset as Preset, pair, {
        rated: arena.rated,
        timeLimitMs: arena.raceTimeLimitMs,
        arenaId: arena.id,
      });
    } catch (err) {
      this.opts.log.warn({ err, arena: arena.id }, 'arena: the race could not be made; the pair waits again');
      // Waits for the next periodic tick: at once would spin while the solver refuses work.
      await this.opts.repository.waitAgain(arena.id, pair, new Date(this.opts.now()));
      return;
    }
    await this.opts.repository.raced(arena.id, pair, code);
    this.opts.notifyPaired(pair, code);
  }

  /** Resigns the game of every berserk racer whose half of the time limit is up (docs/arenas.md "Berserk"). */
  private async stopBerserkers(now: number): Promise<void> {
    for (const g of berserkersToStop(await this.opts.repository.berserkGames(), now))
      await this.opts.stopGame(g.gameId, g.playerId);
  }

  /** Ticks again in `delayMs` (one timer at a time: an earlier one is kept, a later one replaced). */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const at = Date.now() + delayMs;
    if (this.timer !== undefined) {
      if (this.timerAt <= at) return;
      clearTimeout(this.timer);
    }
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      const retried = this.retrying;
      this.retrying = new Set();
      if (retried.size === 0) void this.tick('timer');
      for (const c of retried) void this.tick(c);
    }, delayMs);
    this.timer.unref();
  }

  /** Tells the other nodes watching arena `id` of its change, and this node's subscribers. */
  private async changed(id: string): Promise<void> {
    this.opts.bus.send(`arena:${id}`, { id });
    await this.fanOut(id);
  }

  /** Sends arena `id` to this node's subscribers (one load at a time per arena; see the module comment). */
  private async fanOut(id: string): Promise<void> {
    if (!this.local.has(id)) return;
    let pass = this.fanOuts.get(id);
    if (pass === undefined) this.fanOuts.set(id, (pass = new CoalescingPass(() => this.sendArena(id))));
    await pass.run();
  }

  /** Loads arena `id` and sends it to each of this node's subscribers as that viewer sees it; returns the frames sent. */
  private async sendArena(id: string): Promise<number> {
    const subs = this.local.get(id);
    if (subs === undefined || subs.size === 0) return 0;
    const row = await this.load(id);
    if (row === null) return 0;
    // The standings are the same for everyone: written once; each viewer's `me` goes in before the arena's
    // closing brace of `{"type":"arena","arena":{…}}`.
    const head = JSON.stringify({ type: 'arena', arena: this.shared(row) }).slice(0, -2);
    for (const [sub, viewer] of subs) sub.send(`${head},"me":${JSON.stringify(this.meOf(row, viewer))}}}`);
    return subs.size;
  }

  // ---------- views ----------

  /** The arena's row with its players' rows and names (repository.ts), or null. */
  load(id: string): Promise<ArenaRow | null> {
    return this.opts.repository.load(id);
  }

  private summary(
    a: {
      id: string;
      name: string;
      preset: string;
      startsAt: Date;
      endsAt: Date;
      finishedAt: Date | null;
      rated: boolean;
      inviteCode: string | null;
      bots: boolean;
      raceTimeLimitMs: number;
      scheduleKey: string | null;
    },
    players: number,
  ) {
    return {
      id: a.id,
      name: a.name,
      preset: a.preset as Preset,
      status: statusOf(a, this.opts.now()),
      startsAt: a.startsAt.toISOString(),
      endsAt: a.endsAt.toISOString(),
      rated: a.rated,
      inviteOnly: a.inviteCode !== null,
      bots: a.bots,
      raceTimeLimitMs: a.raceTimeLimitMs,
      players,
      scheduled: a.scheduleKey !== null,
      official: a.scheduleKey !== null,
    };
  }

  private view(row: ArenaRow, viewer: string | null): Arena {
    return { ...this.shared(row), me: this.meOf(row, viewer) };
  }

  /** The arena as everyone sees it: all but `me`. */
  private shared(row: ArenaRow): Omit<Arena, 'me'> {
    // Marked and closed accounts are in no standing (docs/moderation.md "Marks").
    const standings = row.players
      .filter((p) => p.player.markedAt === null && p.player.closedAt === null)
      .sort(
        (x, y) =>
          y.points - x.points ||
          y.wins - x.wins ||
          x.games - y.games ||
          x.joinedAt.getTime() - y.joinedAt.getTime(),
      )
      .map((p, i) => {
        const score: ArenaScore = p;
        return {
          rank: i + 1,
          playerId: p.playerId,
          name: p.player.name,
          points: p.points,
          games: p.games,
          wins: p.wins,
          streak: p.streak,
          fire: onFire(score),
          paused: p.paused,
        };
      });
    const status = statusOf(row, this.opts.now());
    return {
      ...this.summary(row, row.players.length),
      serverNow: new Date(this.opts.now()).toISOString(),
      standings,
      podium: status === 'finished' && row.finishedAt !== null ? standings.slice(0, 3) : null,
    };
  }

  /** The viewer's own part of the arena (null for a viewer without a token). */
  private meOf(row: ArenaRow, viewer: string | null): Arena['me'] {
    if (viewer === null) return null;
    const mine = row.players.find((p) => p.playerId === viewer);
    return {
      joined: mine !== undefined,
      paused: mine?.paused ?? false,
      pairedRace: mine?.raceCode ? mine.raceCode : null,
      inviteCode: row.createdBy === viewer ? row.inviteCode : null,
    };
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    const done = (): void => {
      this.inFlight.delete(p);
    };
    p.then(done, done);
  }
}
