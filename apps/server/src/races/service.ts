/**
 * Live races: several players race the same deal (README "Races").
 *
 * A room lives in memory on the node that created it while it is active (lobby → countdown → running →
 * finished); its rows (`Race`, `RaceRacer`) are written when it is created, joined, started and finished and
 * when a rematch is made. Ready flags and presence are memory only. Every change of a room goes through the
 * `RaceEvents` channel (events.ts); the sockets subscribed to the room hear it as `race` frames (the room as
 * that viewer sees it) and `race-progress` frames (counts only, never a card).
 *
 * Start: the host starts (≥ 2 racers) or the room starts itself when every seat is taken and everyone is
 * ready. `startsAt` = now + the countdown; at that instant the server creates every racer's game — same deal,
 * same options, owned by the racer — and the race is `running`. Race time runs from `startsAt` by the
 * server's clock.
 *
 * End: the first racer to win ends the race at once; otherwise it ends when every racer is won, blocked,
 * resigned or forfeited, or when the time limit runs out (a server timer). Placement: winners first (by time),
 * then by cards on the foundations (more first), score (higher first), time (less first); racers who forfeited
 * come last. Then the games still open are resigned by the server (so nobody plays on and every replay is
 * final), and the games' replays are public.
 *
 * Presence: a racer whose last race socket closes is `away`; back within RACE_AWAY_FORFEIT_MS they carry on
 * (their game resyncs through the normal game subscribe), away longer during the race they forfeit.
 *
 * Restart: races are not restored. At start-up every race left in lobby, countdown or running is ended as
 * `interrupted` (running ones ranked from their games as stored, their games resigned).
 */
import { randomBytes } from 'node:crypto';
import {
  type CreateRaceBody,
  GameOptionsSchema,
  type Race,
  RaceProgressSchema,
  type RaceResultsSchema,
  type ServerFrame,
} from '@klondike/protocol';
import {
  DEFAULT_PRESET,
  type Deal,
  type GameOptions,
  PRESETS,
  type PresetName,
  dealFromNumber,
  formatDeal,
  foundationCount,
  isPresetName,
  resolveOptions,
} from '@klondike/rules';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../errors.js';
import { randomKeyedDeal } from '../fairness/deals.js';
import type { DealEmbargo } from '../fairness/embargo.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { AuthedPlayer } from '../players/players.js';
import type { SolverPool } from '../solver/task.js';
import type { Actor, CommittedAction, GameRooms, Subscriber, WireView } from '../rooms/game-rooms.js';
import type { RaceEvent, RaceEvents, RaceProgress, RaceSnapshot } from './events.js';

/** GET /api/races/:code/results response. */
export type RaceResults = z.infer<typeof RaceResultsSchema>;

/** The alphabet of invite codes (RaceCodeSchema): 32 characters without 0 O 1 I. */
export const RACE_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters of an invite code (10 × 5 bits = 50 bits). */
export const RACE_CODE_LENGTH = 10;
/** Longest wait between two checks of a race's time limit against the server clock, ms. */
const LIMIT_TICK_MS = 1000;
/** Random deal numbers tried for a `certified` race before giving up (503 solver-busy). */
export const CERTIFY_TRIES = 20;

/** A new invite code from crypto randomness (32 divides 256: no bias). */
export function newRaceCode(): string {
  const bytes = randomBytes(RACE_CODE_LENGTH);
  let code = '';
  for (const b of bytes) code += RACE_CODE_ALPHABET[b & 31];
  return code;
}

/** Share link of a room. */
export function raceUrl(code: string): string {
  return `/race/${code}`;
}

/** A racer's progress from their game's view: counts only (the view's cards are dropped here). */
export function progressOf(view: WireView, elapsedMs: number): RaceProgress {
  return {
    foundationCards: foundationCount(view.foundations),
    faceDown: view.tableau.reduce((n, p) => n + p.faceDown, 0),
    moves: view.moves,
    score: view.score,
    elapsedMs: Math.max(0, Math.round(elapsedMs)),
    status: view.status,
  };
}

/** What `rankRacers` orders. */
export interface RankEntry {
  readonly playerId: string;
  readonly seat: number;
  readonly progress: RaceProgress;
}

/**
 * Final placements (1-based, no shared places): winners first by time; then by cards on the foundations
 * (more first), score (higher first), time (less first); forfeited racers last (same order among them);
 * seat order breaks exact ties.
 */
export function rankRacers(entries: readonly RankEntry[]): Map<string, number> {
  const group = (p: RaceProgress): number => (p.status === 'won' ? 0 : p.status === 'forfeited' ? 2 : 1);
  const sorted = [...entries].sort((a, b) => {
    const g = group(a.progress) - group(b.progress);
    if (g !== 0) return g;
    if (a.progress.status !== 'won') {
      if (a.progress.foundationCards !== b.progress.foundationCards)
        return b.progress.foundationCards - a.progress.foundationCards;
      if (a.progress.score !== b.progress.score) return b.progress.score - a.progress.score;
    }
    if (a.progress.elapsedMs !== b.progress.elapsedMs) return a.progress.elapsedMs - b.progress.elapsedMs;
    return a.seat - b.seat;
  });
  return new Map(sorted.map((e, i) => [e.playerId, i + 1]));
}

const TERMINAL = new Set<RaceProgress['status']>([
  'won',
  'blocked',
  'resigned',
  'forfeited',
  'timeout',
  'unfinished',
]);

type RaceStatus = Race['status'];
type DealKind = 'random' | 'certified' | 'number';

interface LiveRacer {
  readonly playerId: string;
  readonly name: string;
  /** A bot account (a room holds only bots or only people). */
  readonly bot: boolean;
  readonly seat: number;
  ready: boolean;
  gameId: string | null;
  progress: RaceProgress | null;
  placement: number | null;
  /** Race sockets of this racer on this node. */
  sockets: number;
  away: boolean;
  forfeited: boolean;
  awayTimer: NodeJS.Timeout | undefined;
}

interface LiveRace {
  readonly code: string;
  status: RaceStatus;
  readonly preset: PresetName | null;
  readonly options: GameOptions;
  readonly dealKind: DealKind;
  /** The host chose a known deal (a deal number): shown to everyone, marked in the results. */
  readonly knownDeal: boolean;
  /** The deal (secret until the race has finished). */
  readonly deal: Deal;
  /** Its v2 key (hex) for a random or certified race, else null. Never sent. */
  readonly dealKey: string | null;
  readonly maxPlayers: number;
  readonly timeLimitMs: number | null;
  readonly hostId: string;
  /** When the room was created (server clock, ms): a lobby nobody starts is closed after RACE_LOBBY_TTL_MS. */
  readonly createdAt: number;
  startsAt: number | null;
  endedAt: number | null;
  rematchCode: string | null;
  readonly racers: LiveRacer[];
  /** Countdown and time-limit timers. */
  readonly timers: Set<NodeJS.Timeout>;
  /** Tail of the room's operation queue. */
  tail: Promise<void>;
}

/** What the service needs. */
export interface RaceServiceOptions {
  readonly prisma: PrismaClient;
  readonly rooms: GameRooms;
  readonly solver: SolverPool;
  readonly events: RaceEvents;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** Countdown before the games are created, ms. */
  readonly countdownMs: number;
  /** Time away (no race socket) after which a racer forfeits a running race, ms. */
  readonly awayForfeitMs: number;
  /** Solver time per candidate of a `certified` deal, ms. */
  readonly certifyMs: number;
  /** Keyed deal hashes (a race's deal is embargoed elsewhere while the race is on). */
  readonly embargo: DealEmbargo;
  /** This node's id (stored with the rooms it holds). */
  readonly nodeId: string;
  /**
   * Several nodes share the database: a node then ends only the races of nodes whose heartbeat
   * (`ServerNode.seenAt`) is older than `nodeDeadMs`. False (one node): every race not held here is stale.
   */
  readonly multiNode: boolean;
  /** How old a node's heartbeat may be before its races are ended, ms (several nodes only). */
  readonly nodeDeadMs: number;
}

const isUniqueViolation = (e: unknown): boolean =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';

/**
 * The preset a race's options are, or null. Hints do not count: a race has them off by default (README
 * "Fair play"), and the room shows its hints setting on its own.
 */
function presetOf(base: PresetName, options: GameOptions): PresetName | null {
  const p = PRESETS[base];
  const keys = (Object.keys(p) as (keyof GameOptions)[]).filter((k) => k !== 'hints');
  const same = keys.every((k) => p[k] === options[k]) && Object.keys(options).length === keys.length + 1;
  return same ? base : null;
}

const raceRowInclude = {
  racers: { include: { player: { select: { name: true, bot: true } } }, orderBy: { seat: 'asc' } },
} as const satisfies Prisma.RaceInclude;
type RaceRow = Prisma.RaceGetPayload<{ include: typeof raceRowInclude }>;

/** The races of this node. All public methods throw `ApiError` for refusals. */
export class RaceService {
  private readonly live = new Map<string, LiveRace>();
  /** game id → its race (while the race is in memory). */
  private readonly byGame = new Map<string, LiveRace>();
  /** Local sockets of each room: subscriber → its racer id, or null for a spectator. */
  private readonly local = new Map<string, Map<Subscriber, string | null>>();
  /** Stop-listening functions of the rooms this node has sockets in. */
  private readonly listening = new Map<string, () => void>();
  /** Rooms each socket is in. */
  private readonly roomsOf = new Map<Subscriber, Set<string>>();
  private stopped = false;

  /** See `RaceServiceOptions`. */
  constructor(private readonly opts: RaceServiceOptions) {}

  // ---------- REST ----------

  /**
   * Creates a room hosted by `host` (POST /api/races), who takes the first seat.
   * Errors: `solver-busy` when no certified deal was found (or the solver queue is full).
   */
  async create(host: AuthedPlayer, body: CreateRaceBody): Promise<Race> {
    const base = body.preset ?? DEFAULT_PRESET;
    // Hints are off in a race unless the host turns them on (README "Fair play").
    const options = resolveOptions(base, { hints: false, ...body.options });
    const kind: DealKind = typeof body.deal === 'object' ? 'number' : body.deal;
    const picked = await this.pickDeal(
      kind,
      options,
      host.id,
      typeof body.deal === 'object' ? body.deal.dealNumber : undefined,
    );
    const race = await this.insertRace({
      preset: presetOf(base, options),
      options,
      dealKind: kind,
      ...picked,
      maxPlayers: body.maxPlayers,
      timeLimitMs: body.timeLimitMs ?? null,
      hostId: host.id,
      racers: [{ playerId: host.id, name: host.name, bot: host.bot }],
    });
    if (race === null) throw new Error('unreachable: a new race without rematch');
    return this.viewOf(race, host.id);
  }

  /** A room as `viewer` sees it (GET /api/races/:code). Errors: `not-found`. */
  async get(code: string, viewer: Actor): Promise<Race> {
    const race = this.live.get(code);
    if (race) return this.viewOf(race, viewer);
    return this.personalise(this.snapshotOfRow(await this.row(code)), viewer);
  }

  /**
   * Takes a seat (POST /api/races/:code/join); a racer already seated gets the room as is.
   * Bots race only other bots: a room hosted by a bot seats only bots, any other room only people.
   * Errors: `not-found`; `conflict` when the room is full or the race has started or finished; `forbidden`
   * for a bot joining people's room or a person joining a bots' room.
   */
  async join(code: string, player: AuthedPlayer): Promise<Race> {
    const race = await this.liveOrRefuse(code);
    return this.exclusive(race, async () => {
      if (race.racers.some((r) => r.playerId === player.id)) return this.viewOf(race, player.id);
      const botRoom = race.racers.find((r) => r.playerId === race.hostId)?.bot ?? false;
      if (player.bot !== botRoom)
        throw new ApiError(
          'forbidden',
          player.bot ? 'bots race only other bots' : 'this room is for bots: people race people',
        );
      if (race.status !== 'lobby')
        throw new ApiError('conflict', `the race is ${race.status}: no more seats`);
      if (race.racers.length >= race.maxPlayers)
        throw new ApiError('conflict', `the room is full (${race.maxPlayers} racers)`);
      const seat = race.racers.length;
      await this.opts.prisma.raceRacer.create({
        data: { raceCode: code, playerId: player.id, seat, joinedAt: new Date(this.opts.now()) },
      });
      race.racers.push(this.newRacer(player.id, player.name, player.bot, seat));
      this.publishRoom(race);
      return this.viewOf(race, player.id);
    });
  }

  /**
   * Sets the caller's ready flag (POST /api/races/:code/ready). When every seat is taken and everyone is
   * ready, the countdown begins. Errors: `not-found`; `forbidden` for a non-racer; `conflict` once the
   * countdown has begun.
   */
  async ready(code: string, player: AuthedPlayer, ready: boolean): Promise<Race> {
    const race = await this.liveOrRefuse(code);
    return this.exclusive(race, async () => {
      const racer = this.racerOf(race, player.id);
      if (race.status !== 'lobby') throw new ApiError('conflict', `the race is ${race.status}`);
      racer.ready = ready;
      if (race.racers.length === race.maxPlayers && race.racers.every((r) => r.ready))
        await this.beginCountdown(race);
      else this.publishRoom(race);
      return this.viewOf(race, player.id);
    });
  }

  /**
   * Starts the countdown (POST /api/races/:code/start). Errors: `not-found`; `forbidden` unless the caller
   * is the host; `conflict` when the race is not in the lobby or has fewer than 2 racers.
   */
  async start(code: string, player: AuthedPlayer): Promise<Race> {
    const race = await this.liveOrRefuse(code);
    return this.exclusive(race, async () => {
      if (race.hostId !== player.id) throw new ApiError('forbidden', 'only the host starts the race');
      if (race.status !== 'lobby') throw new ApiError('conflict', `the race is ${race.status}`);
      if (race.racers.length < 2) throw new ApiError('conflict', 'a race needs at least 2 racers');
      await this.beginCountdown(race);
      return this.viewOf(race, player.id);
    });
  }

  /** Placements, final progress and game ids (GET /api/races/:code/results). Errors: `not-found`; `forbidden` before the end. */
  async results(code: string): Promise<RaceResults> {
    const row = await this.row(code);
    if (row.status !== 'finished')
      throw new ApiError('forbidden', 'the results are published once the race has finished');
    const results = row.racers
      .filter((r) => r.placement !== null && r.gameId !== null && r.progress !== null)
      .map((r) => ({
        placement: r.placement as number,
        playerId: r.playerId,
        name: r.player.name,
        progress: RaceProgressSchema.parse(r.progress),
        gameId: r.gameId as string,
      }))
      .sort((a, b) => a.placement - b.placement);
    return { code: row.code, deal: row.deal, knownDeal: row.knownDeal, results };
  }

  /**
   * A new room with the same racers (all seated, none ready), options and a fresh random deal (certified →
   * certified, anything else → random: never a deal anyone knows), hosted by the caller
   * (POST /api/races/:code/rematch).
   * Returns the room and whether it is new (a second request gets the first rematch).
   * Errors: `not-found`; `forbidden` for a non-racer; `conflict` before the race has finished.
   */
  async rematch(code: string, player: AuthedPlayer): Promise<{ race: Race; created: boolean }> {
    const row = await this.row(code);
    if (!row.racers.some((r) => r.playerId === player.id))
      throw new ApiError('forbidden', 'only a racer of this race may ask for a rematch');
    if (row.status !== 'finished') throw new ApiError('conflict', 'a rematch follows a finished race');
    if (row.rematchCode !== null) return { race: await this.get(row.rematchCode, player.id), created: false };
    const options = GameOptionsSchema.parse(row.options);
    const kind: DealKind = row.dealKind === 'certified' ? 'certified' : 'random';
    const picked = await this.pickDeal(kind, options, player.id);
    const race = await this.insertRace(
      {
        preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
        options,
        dealKind: kind,
        ...picked,
        maxPlayers: row.maxPlayers,
        timeLimitMs: row.timeLimitMs,
        hostId: player.id,
        racers: row.racers.map((r) => ({ playerId: r.playerId, name: r.player.name, bot: r.player.bot })),
      },
      code,
    );
    if (race === null) {
      const again = await this.row(code);
      return { race: await this.get(again.rematchCode ?? code, player.id), created: false };
    }
    const old = this.live.get(code);
    if (old) {
      old.rematchCode = race.code;
      this.publishRoom(old);
    }
    return { race: this.viewOf(race, player.id), created: true };
  }

  // ---------- sockets ----------

  /**
   * Adds a socket to a room (`race-subscribe`): as its racer when `player` is one, else as a spectator. It
   * gets a `race` frame at once (and every room member one, as presence or the spectator count changed).
   * A finished race that is no longer in memory answers with one frame and no subscription.
   * Errors: `not-found`.
   */
  async subscribe(code: string, sub: Subscriber, player: Actor): Promise<void> {
    const race = this.live.get(code);
    if (!race) {
      const view = this.personalise(this.snapshotOfRow(await this.row(code)), player);
      sub.send(JSON.stringify({ type: 'race', race: view } satisfies ServerFrame));
      return;
    }
    const racer = player === null ? undefined : race.racers.find((r) => r.playerId === player);
    const filed = this.local.get(code);
    if (filed?.has(sub)) {
      if ((filed.get(sub) ?? null) === (racer ? racer.playerId : null)) {
        sub.send(JSON.stringify({ type: 'race', race: this.viewOf(race, player) } satisfies ServerFrame));
        return;
      }
      // The socket's role changed since it subscribed (it authed, or its player joined): file it anew.
      this.unsubscribe(code, sub);
    }
    let members = this.local.get(code);
    if (!members) {
      members = new Map();
      this.local.set(code, members);
      this.listening.set(
        code,
        this.opts.events.subscribe(code, (e) => this.fanOut(code, e)),
      );
    }
    members.set(sub, racer ? racer.playerId : null);
    let mine = this.roomsOf.get(sub);
    if (!mine) {
      mine = new Set();
      this.roomsOf.set(sub, mine);
    }
    mine.add(code);
    if (racer) {
      racer.sockets++;
      racer.away = false;
      if (racer.awayTimer) clearTimeout(racer.awayTimer);
      racer.awayTimer = undefined;
    }
    this.publishRoom(race);
  }

  /** Removes a socket from a room (`race-unsubscribe`, or its socket closed). */
  unsubscribe(code: string, sub: Subscriber): void {
    const members = this.local.get(code);
    if (!members || !members.has(sub)) return;
    const playerId = members.get(sub) ?? null;
    members.delete(sub);
    this.roomsOf.get(sub)?.delete(code);
    if (this.roomsOf.get(sub)?.size === 0) this.roomsOf.delete(sub);
    const race = this.live.get(code);
    if (race && playerId !== null) {
      const racer = race.racers.find((r) => r.playerId === playerId);
      if (racer && --racer.sockets === 0 && race.status !== 'finished') {
        racer.away = true;
        if (race.status === 'running') this.armForfeit(race, racer);
      }
    }
    if (members.size === 0) {
      this.local.delete(code);
      this.listening.get(code)?.();
      this.listening.delete(code);
      if (race?.status === 'finished') this.forget(race);
    }
    if (race && race.status !== 'finished') this.publishRoom(race);
  }

  /** Removes a socket from every room (its connection closed). */
  leaveAll(sub: Subscriber): void {
    for (const code of [...(this.roomsOf.get(sub) ?? [])]) this.unsubscribe(code, sub);
  }

  // ---------- hooks of the game rooms ----------

  /** GameRooms' move listener: a racer's action → their progress, and maybe the end of the race. */
  onAction(action: CommittedAction): void {
    const race = this.byGame.get(action.gameId);
    if (!race || race.status !== 'running' || race.startsAt === null) return;
    const racer = race.racers.find((r) => r.gameId === action.gameId);
    if (!racer || racer.forfeited) return;
    racer.progress = progressOf(action.view, action.at - race.startsAt);
    this.opts.events.publish(race.code, {
      type: 'progress',
      playerId: racer.playerId,
      progress: racer.progress,
    });
    if (racer.progress.status === 'won') this.enqueueFinish(race, 'won');
    else if (this.allDone(race)) this.enqueueFinish(race, 'done');
  }

  /**
   * GameRooms' access guard: while a race is on, a racer's game is readable by that racer only, and its
   * deal by nobody.
   */
  guard(gameId: string, actor: Actor, what: 'read' | 'reveal'): void {
    const race = this.byGame.get(gameId);
    if (!race || race.status === 'finished') return;
    if (what === 'reveal')
      throw new ApiError('forbidden', 'the deal of a race stays secret until the race has finished');
    const racer = race.racers.find((r) => r.gameId === gameId);
    if (actor === null) throw new ApiError('unauthorized', "this is a racer's game: send that racer's token");
    if (racer?.playerId !== actor) throw new ApiError('forbidden', "another racer's game cannot be seen");
  }

  // ---------- lifecycle ----------

  /**
   * Ends as `interrupted` every unfinished race no live node holds: on one node (start-up), every race not
   * held here (a previous run's); with several nodes (start-up and every heartbeat), the races of nodes
   * whose heartbeat stopped (`nodeDeadMs`), so a node that starts never ends a race another node holds.
   * Running races are ranked from their games as stored and their games resigned; lobby and countdown
   * rooms end without results. Each race is claimed by one conditional update, so two nodes sweeping at
   * once end it once. Returns how many races this call ended.
   */
  async interruptStale(): Promise<number> {
    const now0 = this.opts.now();
    const alive = this.opts.multiNode
      ? (
          await this.opts.prisma.serverNode.findMany({
            where: { seenAt: { gte: new Date(now0 - this.opts.nodeDeadMs) } },
            select: { id: true },
          })
        ).map((n) => n.id)
      : [];
    const rows = await this.opts.prisma.race.findMany({
      where: {
        status: { in: ['lobby', 'countdown', 'running'] },
        ...(this.opts.multiNode ? { OR: [{ nodeId: null }, { nodeId: { notIn: alive } }] } : {}),
      },
      include: { racers: { include: { game: { select: { updatedAt: true, endedAt: true } } } } },
    });
    let ended = 0;
    for (const row of rows) {
      if (this.live.has(row.code)) continue;
      const now = this.opts.now();
      const startsAt = row.startsAt?.getTime() ?? now;
      const entries: RankEntry[] = [];
      for (const r of row.racers) {
        if (r.gameId === null || r.game === null) continue;
        try {
          const game = await this.opts.rooms.get(r.gameId, r.playerId);
          const end = r.game.endedAt ?? r.game.updatedAt;
          entries.push({
            playerId: r.playerId,
            seat: r.seat,
            progress: progressOf(game.view, end.getTime() - startsAt),
          });
        } catch (err) {
          this.opts.log.error({ err, code: row.code }, 'interrupted race: game unreadable');
        }
      }
      const places = rankRacers(entries);
      const claimed = await this.opts.prisma.$transaction(async (tx) => {
        const c = await tx.race.updateMany({
          where: { code: row.code, status: { in: ['lobby', 'countdown', 'running'] } },
          data: { status: 'finished', endedAt: new Date(now), endReason: 'interrupted' },
        });
        if (c.count !== 1) return false; // another node ended it first
        for (const e of entries)
          await tx.raceRacer.update({
            where: { raceCode_playerId: { raceCode: row.code, playerId: e.playerId } },
            data: { placement: places.get(e.playerId) ?? null, progress: { ...e.progress } },
          });
        return true;
      });
      if (!claimed) continue;
      ended++;
      for (const e of entries) {
        const r = row.racers.find((x) => x.playerId === e.playerId);
        if (r?.gameId && (e.progress.status === 'playing' || e.progress.status === 'blocked'))
          await this.resignGame(r.gameId, e.playerId);
      }
    }
    return ended;
  }

  /**
   * Several nodes: records this node's heartbeat (`ServerNode.seenAt` = now), then ends the races of nodes
   * whose heartbeat stopped. Returns how many races it ended.
   */
  async heartbeat(): Promise<number> {
    const seenAt = new Date(this.opts.now());
    await this.opts.prisma.serverNode.upsert({
      where: { id: this.opts.nodeId },
      create: { id: this.opts.nodeId, seenAt },
      update: { seenAt },
    });
    return this.interruptStale();
  }

  /** Several nodes, closing: this node's heartbeat row goes (its races are ended by whoever sweeps next). */
  async leave(): Promise<void> {
    await this.opts.prisma.serverNode.deleteMany({ where: { id: this.opts.nodeId } });
  }

  /** Clears every timer and stops taking operations (server closing). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const race of this.live.values()) {
      for (const t of race.timers) clearTimeout(t);
      race.timers.clear();
      for (const r of race.racers) if (r.awayTimer) clearTimeout(r.awayTimer);
    }
    await Promise.allSettled([...this.live.values()].map((r) => r.tail));
    for (const off of this.listening.values()) off();
    this.listening.clear();
  }

  /** Races in memory (tests, metrics). */
  get size(): number {
    return this.live.size;
  }

  // ---------- internals ----------

  private newRacer(playerId: string, name: string, bot: boolean, seat: number): LiveRacer {
    return {
      playerId,
      name,
      bot,
      seat,
      ready: false,
      gameId: null,
      progress: null,
      placement: null,
      sockets: 0,
      away: false,
      forfeited: false,
      awayTimer: undefined,
    };
  }

  /**
   * A deal of the wanted kind: the host's deal number (v1, a known deal), or a fresh random v2 key (for
   * `certified`, the first of up to CERTIFY_TRIES the solver proves winnable; certification runs at the
   * lowest solver priority, counted against `host`).
   * Errors: `bad-request` for a bad number; `solver-busy` when no certified deal was found or the solver
   * refused the job.
   */
  private async pickDeal(
    kind: DealKind,
    options: GameOptions,
    host: string,
    number?: number,
  ): Promise<{ deal: Deal; dealKey: string | null; dealNumber: number | null }> {
    if (kind === 'number' && number !== undefined) {
      const deal = dealFromNumber(number);
      if (!deal.ok) throw new ApiError('bad-request', deal.error.message);
      return { deal: deal.value, dealKey: null, dealNumber: number };
    }
    if (kind !== 'certified') {
      const keyed = randomKeyedDeal();
      return { deal: keyed.deal, dealKey: keyed.key, dealNumber: null };
    }
    for (let i = 0; i < CERTIFY_TRIES; i++) {
      const keyed = randomKeyedDeal();
      const r = await this.opts.solver.run(
        { kind: 'deal', deal: keyed.deal, options, timeLimitMs: this.opts.certifyMs },
        { priority: 'certify', client: host },
      );
      if (r.verdict === 'won') return { deal: keyed.deal, dealKey: keyed.key, dealNumber: null };
    }
    throw new ApiError('solver-busy', 'no winnable deal was proven in time; try again');
  }

  /**
   * Stores a new room and its racers (a fresh code; retried on the rare collision) and keeps it in memory.
   * With `rematchOf`, the old room's `rematchCode` is set in the same transaction; returns null when
   * another request set it first.
   */
  private async insertRace(
    r: {
      preset: PresetName | null;
      options: GameOptions;
      dealKind: DealKind;
      deal: Deal;
      dealKey: string | null;
      dealNumber: number | null;
      maxPlayers: number;
      timeLimitMs: number | null;
      hostId: string;
      racers: { playerId: string; name: string; bot: boolean }[];
    },
    rematchOf?: string,
  ): Promise<LiveRace | null> {
    const knownDeal = r.dealKind === 'number';
    const dealHash = await this.opts.embargo.hash(r.deal);
    const now = this.opts.now();
    for (let attempt = 0; ; attempt++) {
      const code = newRaceCode();
      try {
        const taken = await this.opts.prisma.$transaction(async (tx) => {
          if (rematchOf !== undefined) {
            const set = await tx.race.updateMany({
              where: { code: rematchOf, rematchCode: null },
              data: { rematchCode: code },
            });
            if (set.count !== 1) return true;
          }
          await tx.race.create({
            data: {
              code,
              status: 'lobby',
              preset: r.preset,
              options: { ...r.options },
              dealKind: r.dealKind,
              knownDeal,
              dealNumber: r.dealNumber === null ? null : BigInt(r.dealNumber),
              dealKey: r.dealKey,
              dealHash,
              deal: formatDeal(r.deal),
              maxPlayers: r.maxPlayers,
              timeLimitMs: r.timeLimitMs,
              hostId: r.hostId,
              createdAt: new Date(now),
              nodeId: this.opts.nodeId,
              racers: {
                create: r.racers.map((x, seat) => ({
                  playerId: x.playerId,
                  seat,
                  joinedAt: new Date(now),
                })),
              },
            },
          });
          return false;
        });
        if (taken) return null;
      } catch (e) {
        if (isUniqueViolation(e) && attempt < 5) continue;
        throw e;
      }
      const race: LiveRace = {
        code,
        status: 'lobby',
        preset: r.preset,
        options: r.options,
        dealKind: r.dealKind,
        knownDeal,
        deal: r.deal,
        dealKey: r.dealKey,
        maxPlayers: r.maxPlayers,
        timeLimitMs: r.timeLimitMs,
        hostId: r.hostId,
        createdAt: this.opts.now(),
        startsAt: null,
        endedAt: null,
        rematchCode: null,
        racers: r.racers.map((x, seat) => this.newRacer(x.playerId, x.name, x.bot, seat)),
        timers: new Set(),
        tail: Promise.resolve(),
      };
      this.live.set(code, race);
      return race;
    }
  }

  /** The stored room. Errors: `not-found`. */
  private async row(code: string): Promise<RaceRow> {
    const row = await this.opts.prisma.race.findUnique({ where: { code }, include: raceRowInclude });
    if (!row) throw new ApiError('not-found', `no race ${code}`);
    return row;
  }

  /** The live room, for an operation that needs one. Errors: `not-found`; `conflict` when it has ended. */
  private async liveOrRefuse(code: string): Promise<LiveRace> {
    const race = this.live.get(code);
    if (race) return race;
    const row = await this.row(code);
    throw new ApiError('conflict', `the race is ${row.status}`);
  }

  private racerOf(race: LiveRace, playerId: string): LiveRacer {
    const racer = race.racers.find((r) => r.playerId === playerId);
    if (!racer) throw new ApiError('forbidden', 'you are not a racer of this race');
    return racer;
  }

  /** Runs `fn` after every earlier operation of this room. */
  private exclusive<T>(race: LiveRace, fn: () => Promise<T>): Promise<T> {
    const run = race.tail.then(() => {
      if (this.stopped) throw new ApiError('conflict', 'the server is shutting down');
      return fn();
    });
    race.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private schedule(race: LiveRace, ms: number, fn: () => Promise<void>): void {
    const t = setTimeout(
      () => {
        race.timers.delete(t);
        if (this.stopped) return;
        this.exclusive(race, fn).catch((err: unknown) =>
          this.opts.log.error({ err, code: race.code }, 'race timer failed'),
        );
      },
      Math.max(0, ms),
    );
    race.timers.add(t);
  }

  private async beginCountdown(race: LiveRace): Promise<void> {
    const startsAt = this.opts.now() + this.opts.countdownMs;
    race.status = 'countdown';
    race.startsAt = startsAt;
    for (const r of race.racers) r.ready = true;
    this.publishRoom(race);
    this.schedule(race, startsAt - this.opts.now(), () => this.begin(race));
    // Stored after the announcement (the countdown must not wait on the database); `begin` runs after this
    // in the room's queue.
    await this.opts.prisma.race.update({
      where: { code: race.code },
      data: { status: 'countdown', startsAt: new Date(startsAt) },
    });
  }

  /** The end of the countdown: every racer's game, the race running. */
  private async begin(race: LiveRace): Promise<void> {
    if (race.status !== 'countdown') return;
    try {
      for (const racer of race.racers) {
        const game = await this.opts.rooms.createForRacer({
          deal: race.deal,
          dealKey: race.dealKey,
          options: race.options,
          preset: race.preset,
          owner: racer.playerId,
          raceCode: race.code,
        });
        racer.gameId = game.id;
        racer.progress = progressOf(game.view, 0);
        this.byGame.set(game.id, race);
      }
      await this.opts.prisma.$transaction([
        this.opts.prisma.race.update({ where: { code: race.code }, data: { status: 'running' } }),
        ...race.racers.map((r) =>
          this.opts.prisma.raceRacer.update({
            where: { raceCode_playerId: { raceCode: race.code, playerId: r.playerId } },
            data: { gameId: r.gameId },
          }),
        ),
      ]);
    } catch (err) {
      this.opts.log.error({ err, code: race.code }, 'race start failed');
      await this.finish(race, 'interrupted');
      return;
    }
    race.status = 'running';
    this.publishRoom(race);
    for (const r of race.racers) if (r.away) this.armForfeit(race, r);
    if (race.timeLimitMs !== null && race.startsAt !== null)
      this.armLimit(race, race.startsAt + race.timeLimitMs);
  }

  /**
   * The time limit: the server clock decides. A timer re-checks `now()` at least every second until the
   * deadline has passed, then ends the race (`timeout`).
   */
  private armLimit(race: LiveRace, deadline: number): void {
    const left = deadline - this.opts.now();
    this.schedule(race, Math.min(Math.max(0, left), LIMIT_TICK_MS), async () => {
      if (race.status !== 'running') return;
      if (this.opts.now() >= deadline) await this.finish(race, 'timeout');
      else this.armLimit(race, deadline);
    });
  }

  private armForfeit(race: LiveRace, racer: LiveRacer): void {
    if (racer.awayTimer || racer.forfeited) return;
    racer.awayTimer = setTimeout(() => {
      racer.awayTimer = undefined;
      if (this.stopped) return;
      this.exclusive(race, async () => {
        if (!racer.away || racer.forfeited || race.status !== 'running') return;
        racer.forfeited = true;
        // The game ends first, so whoever hears of the forfeit finds it resigned.
        if (racer.gameId !== null) await this.resignGame(racer.gameId, racer.playerId);
        if (racer.progress) {
          racer.progress = { ...racer.progress, status: 'forfeited' };
          this.opts.events.publish(race.code, {
            type: 'progress',
            playerId: racer.playerId,
            progress: racer.progress,
          });
        }
        this.publishRoom(race);
        if (this.allDone(race)) await this.finish(race, 'done');
      }).catch((err: unknown) => this.opts.log.error({ err, code: race.code }, 'race forfeit failed'));
    }, this.opts.awayForfeitMs);
  }

  private allDone(race: LiveRace): boolean {
    return race.racers.every((r) => r.progress !== null && TERMINAL.has(r.progress.status));
  }

  private enqueueFinish(race: LiveRace, reason: string): void {
    this.exclusive(race, () => this.finish(race, reason)).catch((err: unknown) =>
      this.opts.log.error({ err, code: race.code }, 'race end failed'),
    );
  }

  /** Ends the race: placements, rows, the open games resigned, a last room event. */
  private async finish(race: LiveRace, reason: string): Promise<void> {
    if (race.status === 'finished') return;
    const now = this.opts.now();
    race.status = 'finished';
    race.endedAt = now;
    for (const t of race.timers) clearTimeout(t);
    race.timers.clear();
    for (const r of race.racers) {
      if (r.awayTimer) clearTimeout(r.awayTimer);
      r.awayTimer = undefined;
      // Racers still playing when the race ends ran out of time, or were overtaken by a winner.
      if (r.progress?.status === 'playing')
        r.progress = { ...r.progress, status: reason === 'timeout' ? 'timeout' : 'unfinished' };
    }
    const entries: RankEntry[] = race.racers.flatMap((r) =>
      r.progress === null ? [] : [{ playerId: r.playerId, seat: r.seat, progress: r.progress }],
    );
    const places = rankRacers(entries);
    for (const r of race.racers) r.placement = places.get(r.playerId) ?? null;
    await this.opts.prisma.$transaction([
      this.opts.prisma.race.update({
        where: { code: race.code },
        data: { status: 'finished', endedAt: new Date(now), endReason: reason },
      }),
      ...race.racers.map((r) =>
        this.opts.prisma.raceRacer.update({
          where: { raceCode_playerId: { raceCode: race.code, playerId: r.playerId } },
          data: {
            placement: r.placement,
            progress: r.progress === null ? Prisma.DbNull : { ...r.progress },
          },
        }),
      ),
    ]);
    // The open games end before anyone hears of the end (so every replay is final).
    for (const r of race.racers) {
      const open = r.progress?.status;
      if (
        r.gameId !== null &&
        (open === 'playing' || open === 'unfinished' || open === 'timeout' || open === 'blocked')
      )
        await this.resignGame(r.gameId, r.playerId);
    }
    this.publishRoom(race);
    if (!this.local.has(race.code)) this.forget(race);
  }

  /** The server resigns a racer's game (race over or forfeited); failures are logged. */
  private async resignGame(gameId: string, owner: string): Promise<void> {
    try {
      await this.opts.rooms.act(gameId, { type: 'resign' }, undefined, undefined, owner);
    } catch (err) {
      if (!(err instanceof ApiError)) this.opts.log.error({ err, gameId }, 'race game resign failed');
    }
  }

  /**
   * Closes every lobby of this node older than `maxAgeMs` that nobody started (end reason `abandoned`), so
   * rooms do not pile up in memory. Returns how many were closed.
   */
  async closeStaleLobbies(maxAgeMs: number): Promise<number> {
    const now = this.opts.now();
    let closed = 0;
    for (const race of [...this.live.values()]) {
      if (race.status !== 'lobby' || now - race.createdAt < maxAgeMs) continue;
      await this.exclusive(race, async () => {
        if (race.status === 'lobby') await this.finish(race, 'abandoned');
      });
      closed++;
    }
    return closed;
  }

  /** Rooms this node holds in memory (bounded by the lobby sweep and by `forget` at the end). */
  get liveCount(): number {
    return this.live.size;
  }

  /** Drops a finished race from memory (its rows stay). */
  private forget(race: LiveRace): void {
    this.live.delete(race.code);
    for (const r of race.racers) if (r.gameId !== null) this.byGame.delete(r.gameId);
  }

  private spectators(code: string): number {
    let n = 0;
    for (const who of this.local.get(code)?.values() ?? []) if (who === null) n++;
    return n;
  }

  private snapshot(race: LiveRace): RaceSnapshot {
    const gameIds: Record<string, string> = {};
    for (const r of race.racers) if (r.gameId !== null) gameIds[r.playerId] = r.gameId;
    return {
      code: race.code,
      url: raceUrl(race.code),
      status: race.status,
      preset: race.preset,
      options: { ...race.options },
      knownDeal: race.knownDeal,
      maxPlayers: race.maxPlayers,
      timeLimitMs: race.timeLimitMs,
      startsAt: race.startsAt === null ? null : new Date(race.startsAt).toISOString(),
      countdownMs: this.opts.countdownMs,
      endedAt: race.endedAt === null ? null : new Date(race.endedAt).toISOString(),
      racers: race.racers.map((r) => ({
        playerId: r.playerId,
        name: r.name,
        bot: r.bot,
        host: r.playerId === race.hostId,
        ready: r.ready,
        presence: r.forfeited ? 'forfeited' : r.away ? 'away' : 'here',
        progress: r.progress === null ? null : { ...r.progress },
        placement: r.placement,
      })),
      spectators: this.spectators(race.code),
      rematchCode: race.rematchCode,
      gameIds,
    };
  }

  private snapshotOfRow(row: RaceRow): RaceSnapshot {
    const gameIds: Record<string, string> = {};
    for (const r of row.racers) if (r.gameId !== null) gameIds[r.playerId] = r.gameId;
    return {
      code: row.code,
      url: raceUrl(row.code),
      status: row.status,
      preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
      options: GameOptionsSchema.parse(row.options),
      knownDeal: row.knownDeal,
      maxPlayers: row.maxPlayers,
      timeLimitMs: row.timeLimitMs,
      startsAt: row.startsAt?.toISOString() ?? null,
      countdownMs: this.opts.countdownMs,
      endedAt: row.endedAt?.toISOString() ?? null,
      racers: row.racers.map((r) => {
        const progress = r.progress === null ? null : RaceProgressSchema.parse(r.progress);
        return {
          playerId: r.playerId,
          name: r.player.name,
          bot: r.player.bot,
          host: r.playerId === row.hostId,
          ready: row.status !== 'lobby',
          presence: progress?.status === 'forfeited' ? ('forfeited' as const) : ('here' as const),
          progress,
          placement: r.placement,
        };
      }),
      spectators: this.spectators(row.code),
      rematchCode: row.rematchCode,
      gameIds,
    };
  }

  /** The room as `viewer` sees it: their own game id only. */
  private personalise(s: RaceSnapshot, viewer: Actor): Race {
    const racer = viewer !== null && s.racers.some((r) => r.playerId === viewer);
    const { gameIds, ...room } = s;
    return {
      ...room,
      serverNow: new Date(this.opts.now()).toISOString(),
      you: racer ? viewer : null,
      yourGameId: racer && viewer !== null ? (gameIds[viewer] ?? null) : null,
    };
  }

  private viewOf(race: LiveRace, viewer: Actor): Race {
    return this.personalise(this.snapshot(race), viewer);
  }

  private publishRoom(race: LiveRace): void {
    this.opts.events.publish(race.code, { type: 'room', room: this.snapshot(race) });
  }

  /** Delivers a room event to this node's sockets of the room. */
  private fanOut(code: string, event: RaceEvent): void {
    const members = this.local.get(code);
    if (!members) return;
    if (event.type === 'progress') {
      const text = JSON.stringify({
        type: 'race-progress',
        code,
        playerId: event.playerId,
        progress: event.progress,
      } satisfies ServerFrame);
      for (const sub of members.keys()) sub.send(text);
      return;
    }
    for (const [sub, who] of members) {
      sub.send(
        JSON.stringify({ type: 'race', race: this.personalise(event.room, who) } satisfies ServerFrame),
      );
    }
  }
}
