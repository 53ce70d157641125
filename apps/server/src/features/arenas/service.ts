/**
 * Arenas in the database (docs/arenas.md): create, list, join/pause, berserk, and the arena tick that pairs
 * waiting players, scores finished races and settles the end.
 *
 * An arena is its rows (`Arena`, `ArenaPlayer`, `ArenaRace`), so any node serves any arena. The tick runs on
 * every node every ARENA_TICK_MS while it knows of a running arena; its work is done inside one transaction
 * holding the advisory lock `arenas` (`pg_try_advisory_xact_lock`: one node at a time, the others skip):
 *  1. each race of an arena that has finished and is not yet scored is scored once (`ArenaRace.scoredAt`),
 *     and its players return to the pool (unless paused);
 *  2. a running arena's waiting players are paired (arenas/pairing.ts) and claimed (`raceCode` = '' while
 *     their race is being made; a claim older than CLAIM_TIMEOUT_MS goes back to waiting);
 *  3. an arena past its end with every race scored is finished (`finishedAt`: the podium is final).
 * After the commit the claimed pairs' races are made (races/service.ts `createPaired`, a certified deal, the
 * arena's time limit), the players are told (`paired` frames) and berserk racers whose half time is up are
 * stopped. Each change is sent on the arena's bus topic `arena:<id>` to the other nodes with subscribers of
 * the arena (none: nothing leaves the node); each such node, and this one, sends the `arena` frame to its own
 * subscribers.
 */
import type { Arena, ArenaListSchema, CreateArenaBody } from '@klondike/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { EventBus } from '../../infra/bus/event-bus.js';
import { ApiError } from '../../infra/errors.js';
import type { AuthedPlayer } from '../players/players.js';
import { newRaceCode } from '../races/ranking.js';
import type { ArenaListRow, ArenaRaceSettings, ArenaRepository, ArenaRow } from './repository.js';
import { type ArenaScore, onFire } from './scoring.js';
import { type ScheduleEntry, slotsAhead } from './schedule.js';
import { berserkersToStop } from './tick.js';
import { canSeeArena, noArena } from './visibility.js';

export { CLAIM_TIMEOUT_MS } from './tick.js';

/** How often a node pairs and scores while it knows of a running arena, ms. */
export const ARENA_TICK_MS = 1000;
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
  readonly tickMs?: number;
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
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private next: Promise<void> | null = null;
  private stopped = false;

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
    await this.changed(id);
    this.kick();
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
    this.unwatch.get(id)?.();
    this.unwatch.delete(id);
  }

  leaveAll(sub: ArenaSubscriber): void {
    for (const id of [...this.local.keys()]) this.unsubscribe(id, sub);
  }

  // ---------- the tick ----------

  /** Runs a tick soon (one at a time on this node; a call during a tick queues one more). */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.next !== null) return this.next;
    const run = this.chain.then(() => {
      this.next = null;
      return this.stopped ? undefined : this.work();
    });
    this.next = run;
    this.chain = run.catch((err: unknown) => this.opts.log.warn({ err }, 'arena tick failed'));
    this.track(run);
    return run;
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
    void this.tick();
  }

  /** One tick (repository.ts `tick`, the decisions of tick.ts), then what follows its commit. */
  private async work(): Promise<void> {
    const now = this.opts.now();
    const result = await this.opts.repository.tick(now);
    if (result === null) {
      this.schedule(this.opts.tickMs ?? ARENA_TICK_MS);
      return;
    }
    await Promise.all(result.claims.map((c) => this.makeRace(c.arena, c.pair)));
    await this.stopBerserkers(now);
    for (const id of result.changed) await this.changed(id);
    // Every tick while an arena is live; else wake for the next start (at least once a minute).
    if (result.nextStart !== null)
      this.schedule(Math.max(this.opts.tickMs ?? ARENA_TICK_MS, Math.min(60_000, result.nextStart - now)));
  }

  /** Makes a claimed pair's race; on failure the pair waits again. */
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

  /** Ticks again in `delayMs` (one timer at a time). */
  private schedule(delayMs: number): void {
    if (this.stopped || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, delayMs);
    this.timer.unref();
  }

  /** Tells the other nodes watching arena `id` of its change, and this node's subscribers. */
  private async changed(id: string): Promise<void> {
    this.opts.bus.send(`arena:${id}`, { id });
    await this.fanOut(id);
  }

  private async fanOut(id: string): Promise<void> {
    const subs = this.local.get(id);
    if (subs === undefined || subs.size === 0) return;
    const row = await this.load(id);
    if (row === null) return;
    for (const [sub, viewer] of subs)
      sub.send(JSON.stringify({ type: 'arena', arena: this.view(row, viewer) }));
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
    const mine = viewer === null ? undefined : row.players.find((p) => p.playerId === viewer);
    return {
      ...this.summary(row, row.players.length),
      serverNow: new Date(this.opts.now()).toISOString(),
      standings,
      me:
        viewer === null
          ? null
          : {
              joined: mine !== undefined,
              paused: mine?.paused ?? false,
              pairedRace: mine?.raceCode ? mine.raceCode : null,
              inviteCode: row.createdBy === viewer ? row.inviteCode : null,
            },
      podium: status === 'finished' && row.finishedAt !== null ? standings.slice(0, 3) : null,
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
