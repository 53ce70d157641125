/**
 * Races: several players race the same deal (docs/features.md "Races").
 *
 * A room is its rows (`Race`, `RaceRacer`, `RacePresence`), whichever node serves it: every operation
 * (create, join, ready, start, a racer's progress, the end, rematch, a race socket coming or going) is one
 * transaction that locks the room's `Race` row (SELECT … FOR UPDATE), changes the rows and bumps
 * `Race.version`. After the commit the node publishes the room through the `RaceEvents` channel (events.ts:
 * in-process on one node, the event bus with several), and the sockets subscribed to the room on every node
 * hear it as `race` frames (the room as that viewer sees it; a node drops a version older than one it has
 * sent) and `race-progress` frames (counts only, never a card). What a node keeps in memory is a cache:
 * the index of unfinished rooms (status, start, game ids: `announce`d after each change of status, reloaded
 * at start-up and at every heartbeat), its own sockets, and the timers of the sweeper while it holds it.
 *
 * Start: the host starts (≥ 2 racers) or the room starts itself when every seat is taken and everyone is
 * ready. `startsAt` = now + the countdown; at that instant the server creates every racer's game — same deal,
 * same options, owned by the racer — and the race is `running`. Race time runs from `startsAt` by the
 * server's clock.
 *
 * End: the first racer to win ends the race at once; otherwise it ends when every racer is won, blocked,
 * resigned or forfeited, or when the time limit runs out (`endsAt`). Placement: winners first (by time),
 * then by cards on the foundations (more first), score (higher first), time (less first); racers who forfeited
 * come last. Then the games still open are resigned by the server (so nobody plays on and every replay is
 * final), and the games' replays are public.
 *
 * Presence: each node stores how many race sockets it holds per racer (`RacePresence`); a racer without a
 * socket on any live node is `away` (`forfeitAt` = then + RACE_AWAY_FORFEIT_MS while the race runs); back
 * in time they carry on (their game resyncs through the normal game subscribe), away longer they forfeit.
 *
 * Timers are facts in the rows — the countdown's end (`startsAt`), the time limit (`endsAt`), each
 * forfeit (`forfeitAt`) — evaluated by ONE sweeper in the cluster (`sweep`), run by the node holding the
 * lease (bus/lease.ts; one node alone always holds it). It arms a timer for each fact and is woken by
 * `RaceEvents.due` when a fact changes on any node; every transition re-checks its fact under the row lock,
 * so a late or doubled timer changes nothing. The sweeper also removes the presence rows of nodes whose
 * heartbeat stopped (`ServerNode.seenAt` older than `nodeDeadMs`): their racers are away since the node's
 * last beat. So a node's death moves its races' timers to the next lease holder, and a node that starts
 * ends nobody's race.
 *
 * One node alone (the embedded default): a restart does not restore races; at start-up every race left in
 * lobby, countdown or running is ended as `interrupted` (running ones ranked from their games as stored,
 * their games resigned).
 */
import { type RatingService, racePool } from '../ratings/service.js';
import { raceCommitment, racePreimage } from '../fairness/race-commitment.js';
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
  isPresetName,
  parseDeal,
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
import type { RaceEvent, RaceEvents, RaceIndexEntry, RaceProgress } from './events.js';
import {
  TERMINAL,
  type RankEntry,
  allDone,
  newRaceCode,
  progressOf,
  progressOfRow,
  rankRacers,
} from './ranking.js';
import {
  type Change,
  type RaceRow,
  type RacerRow,
  type Tx,
  isUniqueViolation,
  lockedRow,
  raceRow,
  unchanged,
} from './repository.js';
import { presenceChange, deadNodesChange } from './presence.js';
import { SPECTATORS, personalise, snapshotOf } from './snapshot.js';
import { RaceSweeper } from './sweeper.js';

export {
  RACE_CODE_ALPHABET,
  RACE_CODE_LENGTH,
  newRaceCode,
  progressOf,
  rankRacers,
  raceUrl,
} from './ranking.js';
export type { RankEntry } from './ranking.js';

/** GET /api/races/:code/results response. */
export type RaceResults = z.infer<typeof RaceResultsSchema>;

/** Random deal numbers tried for a `certified` race before giving up (503 solver-busy). */
export const CERTIFY_TRIES = 20;

type RaceStatus = Race['status'];
type DealKind = 'random' | 'certified' | 'number';
const UNFINISHED: RaceStatus[] = ['lobby', 'countdown', 'running'];

/** What the service needs. */
export interface RaceServiceOptions {
  readonly prisma: PrismaClient;
  /** Rates rated races when they end (plugin `ratings`); none: no race is ever rated. */
  readonly ratings?: RatingService;
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
  /** This node's id (its presence rows, the rooms it creates). */
  readonly nodeId: string;
  /**
   * Several nodes share the database: nodes beat (`ServerNode.seenAt`), and the sweeper takes the presence of
   * a node whose beat is older than `nodeDeadMs` away. False (one node): this node is the only one alive.
   */
  readonly multiNode: boolean;
  /** How old a node's heartbeat may be before its race sockets count as gone, ms (several nodes only). */
  readonly nodeDeadMs: number;
  /** How often the sweeper looks at the timer facts when nothing woke it, ms. */
  readonly sweepMs: number;
}

/**
 * The preset a race's options are, or null. Hints do not count: a race has them off by default (docs/features.md
 * "Fair play"), and the room shows its hints setting on its own.
 */
function presetOf(base: PresetName, options: GameOptions): PresetName | null {
  const p = PRESETS[base];
  const keys = (Object.keys(p) as (keyof GameOptions)[]).filter((k) => k !== 'hints');
  const same = keys.every((k) => p[k] === options[k]) && Object.keys(options).length === keys.length + 1;
  return same ? base : null;
}

/** The races of the cluster, as one node serves them. All public methods throw `ApiError` for refusals. */
export class RaceService {
  /** Index of the unfinished rooms: code → where it stands. */
  private readonly known = new Map<string, RaceIndexEntry>();
  /** game id → its race's code (unfinished races). */
  private readonly raceOfGame = new Map<string, string>();
  /** Local sockets of each room: subscriber → its racer id, or null for a spectator. */
  private readonly local = new Map<string, Map<Subscriber, string | null>>();
  /** Stop-listening functions of the rooms this node has sockets in. */
  private readonly listening = new Map<string, () => void>();
  /** Rooms each socket is in. */
  private readonly roomsOf = new Map<Subscriber, Set<string>>();
  /** Latest room version sent to this node's sockets, per room. */
  private readonly sent = new Map<string, number>();
  /** Tail of each room's presence writes on this node (they run in order). */
  private readonly presenceTail = new Map<string, Promise<void>>();
  /** Rooms whose games this node is creating (the countdown's end). */
  private readonly starting = new Set<string>();
  /** Room transactions in flight (awaited on stop). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The cluster's race timers, while this node holds the lease (sweeper.ts). */
  private readonly sweeper: RaceSweeper;
  private readonly stopListening: (() => void)[] = [];
  private stopped = false;

  /** See `RaceServiceOptions`. Listens to the room index of every node at once. */
  constructor(private readonly opts: RaceServiceOptions) {
    this.sweeper = new RaceSweeper({
      prisma: opts.prisma,
      now: opts.now,
      log: opts.log,
      sweepMs: opts.sweepMs,
      stopped: () => this.stopped,
      track: (p) => this.track(p),
      sweepDeadNodes: () => this.sweepDeadNodes(),
      begin: (code) => this.begin(code),
      timeUp: (code) => this.timeUp(code),
      forfeit: (code, playerId) => this.forfeit(code, playerId),
    });
    this.stopListening.push(
      opts.events.onAnnounce((e) => this.index(e)),
      opts.events.onDue(() => this.sweeper.request()),
    );
  }

  // ---------- REST ----------

  /**
   * Creates a room hosted by `host` (POST /api/races), who takes the first seat.
   * Errors: `solver-busy` when no certified deal was found (or the solver queue is full).
   */
  async create(host: AuthedPlayer, body: CreateRaceBody): Promise<Race> {
    const base = body.preset ?? DEFAULT_PRESET;
    // Hints are off in a race unless the host turns them on (docs/features.md "Fair play").
    const options = resolveOptions(base, { hints: false, ...body.options });
    const kind: DealKind = typeof body.deal === 'object' ? 'number' : body.deal;
    if (body.rated && kind === 'number')
      throw new ApiError('bad-request', 'a race of a known deal (a deal number) is never rated');
    if (body.rated && racePool(presetOf(base, options)) === null)
      throw new ApiError(
        'bad-request',
        'only classic-draw1 and classic-draw3 races with their own rules (hints aside) are rated',
      );
    const picked = await this.pickDeal(
      kind,
      options,
      host.id,
      typeof body.deal === 'object' ? body.deal.dealNumber : undefined,
    );
    const code = await this.insertRace({
      preset: presetOf(base, options),
      options,
      dealKind: kind,
      rated: body.rated,
      ...picked,
      maxPlayers: body.maxPlayers,
      timeLimitMs: body.timeLimitMs ?? null,
      hostId: host.id,
      racers: [host.id],
    });
    if (code === null) throw new Error('unreachable: a new race without rematch');
    return this.viewOf(await raceRow(this.opts.prisma, code), host.id);
  }

  /**
   * Makes the room of a quick pairing (pairing/service.ts) or an arena's pairing (arenas/service.ts):
   * `racers` (two people or two bots, the first hosts) seated in a 2-seat race of `preset` with a certified
   * deal, hints off, rated unless `extra.rated` is false, its countdown begun at once (no ready step).
   * Returns the room's code.
   * Errors: `solver-busy` when no certified deal was found (or the solver queue is full).
   */
  async createPaired(
    preset: 'classic-draw1' | 'classic-draw3',
    racers: readonly [string, string],
    extra: { rated?: boolean; timeLimitMs?: number | null; arenaId?: string } = {},
  ): Promise<string> {
    const options = resolveOptions(preset, { hints: false });
    const picked = await this.pickDeal('certified', options, racers[0]);
    const code = await this.insertRace({
      preset,
      options,
      dealKind: 'certified',
      rated: extra.rated ?? true,
      ...picked,
      maxPlayers: 2,
      timeLimitMs: extra.timeLimitMs ?? null,
      hostId: racers[0],
      racers: [...racers],
      arenaId: extra.arenaId ?? null,
    });
    if (code === null) throw new Error('unreachable: a new race without rematch');
    await this.mutate(code, (race, tx) => this.beginCountdown(code, tx));
    return code;
  }

  /**
   * Marks `playerId` berserk in arena race `code` (docs/arenas.md "Berserk"), before its countdown ends.
   * Errors: `not-found`; `forbidden` for a non-racer or a race of no arena; `conflict` once the race runs.
   */
  async setBerserk(code: string, playerId: string): Promise<Race> {
    const { row } = await this.mutate(code, async (race, tx) => {
      const racer = this.racerOf(race, playerId);
      if (race.arenaId === null) throw new ApiError('forbidden', 'only an arena race has berserk');
      if (race.status !== 'countdown')
        throw new ApiError('conflict', 'berserk is chosen before the countdown ends');
      if (racer.berserk) return unchanged(null);
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: code, playerId } },
        data: { berserk: true },
      });
      return { result: null, changed: true };
    });
    return this.viewOf(row, playerId);
  }

  /** A room as `viewer` sees it (GET /api/races/:code). Errors: `not-found`. */
  async get(code: string, viewer: Actor): Promise<Race> {
    return this.viewOf(await raceRow(this.opts.prisma, code), viewer);
  }

  /**
   * Takes a seat (POST /api/races/:code/join); a racer already seated gets the room as is.
   * Bots race only other bots: a room hosted by a bot seats only bots, any other room only people.
   * Errors: `not-found`; `conflict` when the room is full or the race has started or finished; `forbidden`
   * for a bot joining people's room or a person joining a bots' room.
   */
  async join(code: string, player: AuthedPlayer): Promise<Race> {
    const { row } = await this.mutate(code, async (race, tx) => {
      if (race.status === 'finished') throw new ApiError('conflict', 'the race is finished');
      if (race.racers.some((r) => r.playerId === player.id)) return unchanged(null);
      const botRoom = race.racers.find((r) => r.playerId === race.hostId)?.player.bot ?? false;
      if (player.bot !== botRoom)
        throw new ApiError(
          'forbidden',
          player.bot ? 'bots race only other bots' : 'this room is for bots: people race people',
        );
      if (race.status !== 'lobby')
        throw new ApiError('conflict', `the race is ${race.status}: no more seats`);
      if (race.racers.length >= race.maxPlayers)
        throw new ApiError('conflict', `the room is full (${race.maxPlayers} racers)`);
      await tx.raceRacer.create({
        data: {
          raceCode: code,
          playerId: player.id,
          seat: race.racers.length,
          joinedAt: new Date(this.opts.now()),
        },
      });
      return { result: null, changed: true };
    });
    return this.viewOf(row, player.id);
  }

  /**
   * Sets the caller's ready flag (POST /api/races/:code/ready). When every seat is taken and everyone is
   * ready, the countdown begins. Errors: `not-found`; `forbidden` for a non-racer; `conflict` once the
   * countdown has begun.
   */
  async ready(code: string, player: AuthedPlayer, ready: boolean): Promise<Race> {
    const { row } = await this.mutate(code, async (race, tx) => {
      this.racerOf(race, player.id);
      if (race.status !== 'lobby') throw new ApiError('conflict', `the race is ${race.status}`);
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: code, playerId: player.id } },
        data: { ready },
      });
      const full = race.racers.length === race.maxPlayers;
      if (full && race.racers.every((r) => (r.playerId === player.id ? ready : r.ready)))
        return this.beginCountdown(code, tx);
      return { result: null, changed: true };
    });
    return this.viewOf(row, player.id);
  }

  /**
   * Starts the countdown (POST /api/races/:code/start). Errors: `not-found`; `forbidden` unless the caller
   * is the host; `conflict` when the race is not in the lobby or has fewer than 2 racers.
   */
  async start(code: string, player: AuthedPlayer): Promise<Race> {
    const { row } = await this.mutate(code, async (race, tx) => {
      if (race.hostId !== player.id) throw new ApiError('forbidden', 'only the host starts the race');
      if (race.status !== 'lobby') throw new ApiError('conflict', `the race is ${race.status}`);
      if (race.racers.length < 2) throw new ApiError('conflict', 'a race needs at least 2 racers');
      return this.beginCountdown(code, tx);
    });
    return this.viewOf(row, player.id);
  }

  /** Placements, final progress and game ids (GET /api/races/:code/results). Errors: `not-found`; `forbidden` before the end. */
  async results(code: string): Promise<RaceResults> {
    const row = await raceRow(this.opts.prisma, code);
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
        rating:
          r.ratingBefore === null || r.ratingAfter === null
            ? null
            : { before: Math.round(r.ratingBefore), after: Math.round(r.ratingAfter) },
      }))
      .sort((a, b) => a.placement - b.placement);
    const preimage = racePreimage(row);
    const dealReveal =
      preimage === null
        ? null
        : {
            preimage,
            dealCommitment: raceCommitment(row) as string,
            algorithm: row.dealKey !== null ? ('deal-v2' as const) : ('deal-v1' as const),
            key: row.dealKey,
            dealNumber: row.dealKey === null && row.dealNumber !== null ? Number(row.dealNumber) : null,
          };
    return { code: row.code, deal: row.deal, knownDeal: row.knownDeal, dealReveal, results };
  }

  /**
   * A new room with the same racers (all seated, none ready), options and a fresh random deal (certified →
   * certified, anything else → random: never a deal anyone knows), hosted by the caller
   * (POST /api/races/:code/rematch).
   * Returns the room and whether it is new (a second request gets the first rematch).
   * Errors: `not-found`; `forbidden` for a non-racer; `conflict` before the race has finished.
   */
  async rematch(code: string, player: AuthedPlayer): Promise<{ race: Race; created: boolean }> {
    const row = await raceRow(this.opts.prisma, code);
    if (!row.racers.some((r) => r.playerId === player.id))
      throw new ApiError('forbidden', 'only a racer of this race may ask for a rematch');
    if (row.status !== 'finished') throw new ApiError('conflict', 'a rematch follows a finished race');
    if (row.rematchCode !== null) return { race: await this.get(row.rematchCode, player.id), created: false };
    const options = GameOptionsSchema.parse(row.options);
    const kind: DealKind = row.dealKind === 'certified' ? 'certified' : 'random';
    const picked = await this.pickDeal(kind, options, player.id);
    const made = await this.insertRace(
      {
        preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
        options,
        dealKind: kind,
        rated: row.rated,
        ...picked,
        maxPlayers: row.maxPlayers,
        timeLimitMs: row.timeLimitMs,
        hostId: player.id,
        racers: row.racers.map((r) => r.playerId),
      },
      code,
    );
    if (made === null) {
      const again = await raceRow(this.opts.prisma, code);
      return { race: await this.get(again.rematchCode ?? code, player.id), created: false };
    }
    // The old room now names its rematch: its listeners (on every node) hear it.
    this.publishRoom(await raceRow(this.opts.prisma, code));
    return { race: await this.get(made, player.id), created: true };
  }

  // ---------- sockets ----------

  /**
   * Adds a socket to a room (`race-subscribe`): as its racer when `player` is one, else as a spectator. It
   * gets a `race` frame at once (and every room member one, as presence or the spectator count changed).
   * Errors: `not-found`.
   */
  async subscribe(code: string, sub: Subscriber, player: Actor): Promise<void> {
    const row = await raceRow(this.opts.prisma, code);
    const who = player !== null && row.racers.some((r) => r.playerId === player) ? player : null;
    const filed = this.local.get(code);
    if (filed?.has(sub)) {
      if ((filed.get(sub) ?? null) === who) {
        this.sendRoom(sub, row, player);
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
    members.set(sub, who);
    let mine = this.roomsOf.get(sub);
    if (!mine) {
      mine = new Set();
      this.roomsOf.set(sub, mine);
    }
    mine.add(code);
    const published = row.status !== 'finished' && (await this.syncPresence(code, who ?? SPECTATORS));
    // A finished room (or one that finished meanwhile) is not re-published: this socket alone hears it.
    if (!published) this.sendRoom(sub, await raceRow(this.opts.prisma, code), player);
  }

  /** Removes a socket from a room (`race-unsubscribe`, or its socket closed). */
  unsubscribe(code: string, sub: Subscriber): void {
    const members = this.local.get(code);
    if (!members || !members.has(sub)) return;
    const who = members.get(sub) ?? null;
    members.delete(sub);
    this.roomsOf.get(sub)?.delete(code);
    if (this.roomsOf.get(sub)?.size === 0) this.roomsOf.delete(sub);
    if (members.size === 0) {
      this.local.delete(code);
      this.listening.get(code)?.();
      this.listening.delete(code);
      this.sent.delete(code);
    }
    if (!this.stopped)
      this.syncPresence(code, who ?? SPECTATORS).catch((err: unknown) =>
        this.opts.log.error({ err, code }, 'race presence update failed'),
      );
  }

  /** Removes a socket from every room (its connection closed). */
  leaveAll(sub: Subscriber): void {
    for (const code of [...(this.roomsOf.get(sub) ?? [])]) this.unsubscribe(code, sub);
  }

  // ---------- hooks of the game rooms ----------

  /**
   * GameRooms' move listener (on whichever node committed the action): a racer's action → their stored
   * progress, a `progress` event, and maybe the end of the race (which resigns the other racers' games).
   * Queued to a later turn of the event loop: nothing of it runs inside the room's commit hook, so the
   * race's writes to rooms never re-enter the room that is still finishing its write.
   */
  onAction(action: CommittedAction): void {
    const later = new Promise<void>((resolve) => setImmediate(resolve));
    this.track(later.then(() => this.recordProgress(action))).catch((err: unknown) =>
      this.opts.log.error({ err, gameId: action.gameId }, 'race progress failed'),
    );
  }

  /**
   * GameRooms' access guard: while a race is on, a racer's game is readable by that racer only, and its
   * deal by nobody. `raceCode`: the game's race (GameFacts.raceCode).
   */
  guard(gameId: string, raceCode: string | null, actor: Actor, what: 'read' | 'reveal'): void {
    const code = raceCode ?? this.raceOfGame.get(gameId);
    const race = code === undefined ? undefined : this.known.get(code);
    // Not in the index of unfinished races: finished.
    if (!race || race.status === 'finished') return;
    if (what === 'reveal')
      throw new ApiError('forbidden', 'the deal of a race stays secret until the race has finished');
    if (actor === null) throw new ApiError('unauthorized', "this is a racer's game: send that racer's token");
    const owner = Object.entries(race.gameIds).find(([, g]) => g === gameId)?.[0];
    if (owner !== actor) throw new ApiError('forbidden', "another racer's game cannot be seen");
  }

  // ---------- lifecycle ----------

  /**
   * Loads the index of the unfinished rooms (start-up, and every heartbeat with several nodes, so that a
   * lost announcement heals).
   */
  async loadIndex(): Promise<void> {
    const rows = await this.opts.prisma.race.findMany({
      where: { status: { in: UNFINISHED } },
      select: {
        code: true,
        status: true,
        startsAt: true,
        racers: { select: { playerId: true, gameId: true } },
      },
    });
    const seen = new Set<string>();
    for (const r of rows) {
      seen.add(r.code);
      const gameIds: Record<string, string> = {};
      for (const x of r.racers) if (x.gameId !== null) gameIds[x.playerId] = x.gameId;
      this.index({ code: r.code, status: r.status, startsAt: r.startsAt?.getTime() ?? null, gameIds });
    }
    for (const code of [...this.known.keys()])
      if (!seen.has(code)) {
        // Finished (or gone) since: only if no newer announcement came in while the query ran.
        const still = await this.opts.prisma.race.findUnique({ where: { code }, select: { status: true } });
        if (!still || still.status === 'finished') this.forgetRoom(code);
      }
  }

  /**
   * One node alone, at start-up: ends as `interrupted` every unfinished race (a previous run's). Running
   * races are ranked from their games as stored and their games resigned; lobby and countdown rooms end
   * without results. Returns how many races it ended.
   */
  async interruptStale(): Promise<number> {
    const rows = await this.opts.prisma.race.findMany({
      where: { status: { in: UNFINISHED } },
      include: { racers: { include: { game: { select: { updatedAt: true, endedAt: true } } } } },
    });
    let ended = 0;
    for (const row of rows) {
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
          where: { code: row.code, status: { in: UNFINISHED } },
          data: {
            status: 'finished',
            endedAt: new Date(now),
            endReason: 'interrupted',
            endsAt: null,
            version: { increment: 1 },
          },
        });
        if (c.count !== 1) return false;
        await tx.racePresence.deleteMany({ where: { raceCode: row.code } });
        for (const e of entries)
          await tx.raceRacer.update({
            where: { raceCode_playerId: { raceCode: row.code, playerId: e.playerId } },
            data: { placement: places.get(e.playerId) ?? null, progress: { ...e.progress }, forfeitAt: null },
          });
        await this.rateIn(
          tx,
          row,
          now,
          entries.flatMap((e) => {
            const placement = places.get(e.playerId);
            return placement === undefined ? [] : [{ playerId: e.playerId, placement }];
          }),
        );
        return true;
      });
      if (!claimed) continue;
      ended++;
      this.forgetRoom(row.code);
      for (const e of entries) {
        const r = row.racers.find((x) => x.playerId === e.playerId);
        if (r?.gameId && (e.progress.status === 'playing' || e.progress.status === 'blocked'))
          await this.resignGame(r.gameId, e.playerId);
      }
    }
    return ended;
  }

  /**
   * Several nodes: records this node's heartbeat (`ServerNode.seenAt` = now) and reloads the room index.
   */
  async heartbeat(): Promise<void> {
    const seenAt = new Date(this.opts.now());
    await this.opts.prisma.serverNode.upsert({
      where: { id: this.opts.nodeId },
      create: { id: this.opts.nodeId, seenAt },
      update: { seenAt },
    });
    await this.loadIndex();
  }

  /**
   * Several nodes, closing: this node's heartbeat row goes, so the sweeper (wherever it runs) takes this
   * node's race sockets away at once.
   */
  async leave(): Promise<void> {
    await this.opts.prisma.serverNode.deleteMany({ where: { id: this.opts.nodeId } });
    this.opts.events.due();
  }

  /**
   * Closes every lobby older than `maxAgeMs` that nobody started (end reason `abandoned`), whichever node
   * created it. Returns how many this call closed.
   */
  async closeStaleLobbies(maxAgeMs: number): Promise<number> {
    const rows = await this.opts.prisma.race.findMany({
      where: { status: 'lobby', createdAt: { lt: new Date(this.opts.now() - maxAgeMs) } },
      select: { code: true },
    });
    let closed = 0;
    for (const { code } of rows) {
      const { result } = await this.mutate(code, async (race, tx) => {
        if (race.status !== 'lobby') return unchanged(false);
        return { ...(await this.endIn(tx, race, 'abandoned')), result: true };
      });
      if (result) closed++;
    }
    return closed;
  }

  /** Unfinished rooms in this node's index (bounded by the lobby sweep and by the races' ends). */
  get liveCount(): number {
    return this.known.size;
  }

  /** Rooms in this node's index (tests, metrics). */
  get size(): number {
    return this.known.size;
  }

  /**
   * The lease of the sweeper was taken (true) or lost (false): while held, this node runs the cluster's
   * race timers (see the module comment).
   */
  setSweeper(held: boolean): void {
    this.sweeper.setHeld(held);
  }

  /** Whether this node runs the sweeper now. */
  get isSweeper(): boolean {
    return this.sweeper.held;
  }

  /** Clears every timer and stops taking operations (server closing); waits for the transactions in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.setSweeper(false);
    for (const off of this.stopListening) off();
    await Promise.allSettled([...this.inFlight, this.sweeper.running]);
    for (const off of this.listening.values()) off();
    this.listening.clear();
  }

  // ---------- the sweeper ----------

  /**
   * Presence rows of nodes whose heartbeat stopped (several nodes; one node: of any other node, a previous
   * run's) go; their racers without a socket elsewhere are away since the node's last beat.
   */
  private async sweepDeadNodes(): Promise<void> {
    const now = this.opts.now();
    const nodes = this.opts.multiNode
      ? await this.opts.prisma.serverNode.findMany({ select: { id: true, seenAt: true } })
      : [];
    const alive = new Set([this.opts.nodeId]);
    const lastSeen = new Map<string, number>();
    for (const n of nodes) {
      if (n.seenAt.getTime() >= now - this.opts.nodeDeadMs) alive.add(n.id);
      else lastSeen.set(n.id, n.seenAt.getTime());
    }
    const stale = await this.opts.prisma.racePresence.findMany({
      where: { nodeId: { notIn: [...alive] } },
      select: { raceCode: true, nodeId: true },
    });
    const codes = new Set(stale.map((s) => s.raceCode));
    for (const code of codes) {
      await this.mutate(code, (race, tx) =>
        deadNodesChange(tx, race, { alive, lastSeen, now, awayForfeitMs: this.opts.awayForfeitMs }),
      );
    }
  }

  /** The countdown's end: every racer's game is created, then the race runs (once, under the row lock). */
  private async begin(code: string): Promise<void> {
    if (this.starting.has(code)) return;
    this.starting.add(code);
    try {
      const row = await raceRow(this.opts.prisma, code);
      if (row.status !== 'countdown' || row.startsAt === null || row.startsAt.getTime() > this.opts.now())
        return;
      if (row.racers.some((r) => r.gameId !== null)) return;
      const deal = parseDeal(row.deal);
      if (!deal.ok) throw new Error(`race ${code}: stored deal unreadable`);
      const options = GameOptionsSchema.parse(row.options);
      const preset = row.preset !== null && isPresetName(row.preset) ? row.preset : null;
      const games: { playerId: string; id: string; view: WireView }[] = [];
      try {
        for (const racer of row.racers) {
          const game = await this.opts.rooms.createGame({
            kind: 'race',
            deal: deal.value,
            dealKey: row.dealKey,
            // A berserk arena racer plays without undo and hints (docs/arenas.md "Berserk").
            options: racer.berserk ? { ...options, undo: false, hints: false } : options,
            preset,
            owner: racer.playerId,
            daily: null,
            raceCode: code,
            clockFromCreation: false,
          });
          games.push({ playerId: racer.playerId, id: game.id, view: game.view });
        }
      } catch (err) {
        this.opts.log.error({ err, code }, 'race start failed');
        await this.mutate(code, async (race, tx) =>
          race.status === 'countdown' ? this.endIn(tx, race, 'interrupted') : unchanged(null),
        );
        return;
      }
      await this.mutate(code, async (race, tx) => {
        if (race.status !== 'countdown' || race.racers.some((r) => r.gameId !== null))
          // Another run started it first: these games are nobody's.
          return { ...unchanged(null), resign: games.map((g) => ({ gameId: g.id, owner: g.playerId })) };
        const now = this.opts.now();
        const startsAt = race.startsAt?.getTime() ?? now;
        await tx.race.update({
          where: { code },
          data: {
            status: 'running',
            endsAt: race.timeLimitMs === null ? null : new Date(startsAt + race.timeLimitMs),
          },
        });
        for (const r of race.racers) {
          const g = games.find((x) => x.playerId === r.playerId);
          if (!g) continue;
          await tx.raceRacer.update({
            where: { raceCode_playerId: { raceCode: code, playerId: r.playerId } },
            data: {
              gameId: g.id,
              progress: { ...progressOf(g.view, 0) },
              progressVersion: 0,
              forfeitAt: r.away ? new Date(now + this.opts.awayForfeitMs) : null,
            },
          });
        }
        return { result: null, changed: true, due: true };
      });
    } finally {
      this.starting.delete(code);
    }
  }

  /** The time limit (`endsAt`) has passed: the race ends (`timeout`). */
  private async timeUp(code: string): Promise<void> {
    await this.mutate(code, async (race, tx) => {
      if (race.status !== 'running' || race.endsAt === null || race.endsAt.getTime() > this.opts.now())
        return unchanged(null);
      return this.endIn(tx, race, 'timeout');
    });
  }

  /** A racer away past `forfeitAt` forfeits; the race ends when nobody is left playing. */
  private async forfeit(code: string, playerId: string): Promise<void> {
    await this.mutate(code, async (race, tx) => {
      const racer = race.racers.find((r) => r.playerId === playerId);
      if (
        race.status !== 'running' ||
        !racer ||
        racer.forfeited ||
        !racer.away ||
        racer.forfeitAt === null ||
        racer.forfeitAt.getTime() > this.opts.now()
      )
        return unchanged(null);
      const before = progressOfRow(racer);
      const progress: RaceProgress | null = before === null ? null : { ...before, status: 'forfeited' };
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: code, playerId } },
        data: {
          forfeited: true,
          forfeitAt: null,
          ...(progress === null ? {} : { progress: { ...progress } }),
        },
      });
      // The game ends first (after the commit), so whoever hears of the forfeit finds it resigned.
      const resign = racer.gameId === null ? [] : [{ gameId: racer.gameId, owner: playerId }];
      const events = progress === null ? [] : [{ playerId, progress }];
      const after = await lockedRow(tx, code);
      if (allDone(after)) {
        const end = await this.endIn(tx, after, 'done');
        return { ...end, resign: [...resign, ...(end.resign ?? [])], progress: events };
      }
      return { result: null, changed: true, resign, progress: events };
    });
  }

  // ---------- progress and the end ----------

  /** Stores a racer's progress after their action (a later game version only), publishes it, maybe ends. */
  private async recordProgress(action: CommittedAction): Promise<void> {
    let code = this.raceOfGame.get(action.gameId);
    if (code === undefined) {
      // Not in this node's index (yet): ask the database.
      const seat = await this.opts.prisma.raceRacer.findUnique({
        where: { gameId: action.gameId },
        select: { raceCode: true },
      });
      if (!seat) return;
      code = seat.raceCode;
    }
    let startsAt = this.known.get(code)?.startsAt ?? null;
    if (startsAt === null) {
      const row = await this.opts.prisma.race.findUnique({ where: { code }, select: { startsAt: true } });
      startsAt = row?.startsAt?.getTime() ?? null;
    }
    if (startsAt === null) return;
    const progress = progressOf(action.view, action.at - startsAt);
    const stored = await this.opts.prisma.$executeRaw`
      UPDATE "RaceRacer" AS rr
         SET "progress" = ${JSON.stringify(progress)}::jsonb, "progressVersion" = ${action.version}
        FROM "Race" AS r
       WHERE rr."gameId" = ${action.gameId} AND rr."raceCode" = r."code" AND r."status" = 'running'
         AND NOT rr."forfeited" AND (rr."progressVersion" IS NULL OR rr."progressVersion" < ${action.version})`;
    if (stored === 0) return;
    const playerId = action.owner;
    if (playerId !== null) this.opts.events.publish(code, { type: 'progress', playerId, progress });
    if (progress.status === 'won') await this.finishIf(code, 'won');
    else if (TERMINAL.has(progress.status)) await this.finishIf(code, 'done');
  }

  /** Ends the running race for `reason` (`won`, or `done` once every racer has finished). */
  private async finishIf(code: string, reason: 'won' | 'done'): Promise<void> {
    await this.mutate(code, async (race, tx) => {
      if (race.status !== 'running') return unchanged(null);
      if (reason === 'done' && !allDone(race)) return unchanged(null);
      return this.endIn(tx, race, reason);
    });
  }

  /**
   * Ends the room inside its transaction: placements, final progress, `finished`. Returns the change, with
   * the racers' games still open to resign after the commit (before anyone hears of the end).
   */
  private async endIn(tx: Tx, race: RaceRow, reason: string): Promise<Change<null>> {
    const now = this.opts.now();
    const finals = race.racers.map((r) => {
      let p = progressOfRow(r);
      // Racers still playing when the race ends ran out of time, or were overtaken by a winner.
      if (p?.status === 'playing') p = { ...p, status: reason === 'timeout' ? 'timeout' : 'unfinished' };
      return { racer: r, progress: p };
    });
    const entries: RankEntry[] = finals.flatMap((f) =>
      f.progress === null ? [] : [{ playerId: f.racer.playerId, seat: f.racer.seat, progress: f.progress }],
    );
    const places = rankRacers(entries);
    await tx.race.update({
      where: { code: race.code },
      data: { status: 'finished', endedAt: new Date(now), endReason: reason, endsAt: null },
    });
    // A finished room has nobody present (its sockets still hear it, e.g. its rematch).
    await tx.racePresence.deleteMany({ where: { raceCode: race.code } });
    for (const f of finals)
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: race.code, playerId: f.racer.playerId } },
        data: {
          placement: places.get(f.racer.playerId) ?? null,
          progress: f.progress === null ? Prisma.DbNull : { ...f.progress },
          forfeitAt: null,
        },
      });
    await this.rateIn(
      tx,
      race,
      now,
      finals.flatMap((f) => {
        const placement = places.get(f.racer.playerId);
        return placement === undefined ? [] : [{ playerId: f.racer.playerId, placement }];
      }),
    );
    const resign = finals.flatMap((f) => {
      const s = f.progress?.status;
      return f.racer.gameId !== null &&
        (s === 'unfinished' || s === 'timeout' || s === 'blocked' || s === 'playing')
        ? [{ gameId: f.racer.gameId, owner: f.racer.playerId }]
        : [];
    });
    return { result: null, changed: true, resign };
  }

  /**
   * A rated race's result moves its racers' race ratings, once: the race is claimed (`ratedAt`) in the
   * transaction that ends it (docs/ratings.md "Races").
   */
  private async rateIn(
    tx: Tx,
    race: { code: string; rated: boolean; preset: string | null },
    now: number,
    placements: { playerId: string; placement: number }[],
  ): Promise<void> {
    const pool = racePool(race.preset);
    if (!race.rated || pool === null || this.opts.ratings === undefined) return;
    const claimed = await tx.race.updateMany({
      where: { code: race.code, ratedAt: null },
      data: { ratedAt: new Date(now) },
    });
    if (claimed.count !== 1) return;
    const moved = await this.opts.ratings.rateRaceIn(
      tx,
      pool,
      new Date(now).toISOString().slice(0, 10),
      placements,
    );
    for (const m of moved)
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: race.code, playerId: m.playerId } },
        data: { ratingBefore: m.before, ratingAfter: m.after },
      });
  }

  /** The server resigns a racer's game (race over or forfeited); failures are logged. */
  private async resignGame(gameId: string, owner: string): Promise<void> {
    try {
      await this.opts.rooms.act(gameId, { type: 'resign' }, { actor: owner });
    } catch (err) {
      if (!(err instanceof ApiError)) this.opts.log.error({ err, gameId }, 'race game resign failed');
    }
  }

  // ---------- internals ----------

  /**
   * Runs `fn` on the room under its row lock (SELECT … FOR UPDATE) in one transaction; when it changed
   * something, bumps the version, then after the commit resigns the games it names, publishes its progress
   * events and the room, announces a change of status and wakes the sweeper for a changed timer fact.
   * Errors: `not-found`; `conflict` while the server is closing; whatever `fn` throws (nothing is changed).
   */
  private async mutate<T>(
    code: string,
    fn: (race: RaceRow, tx: Tx) => Promise<Change<T>>,
  ): Promise<{ result: T; row: RaceRow }> {
    if (this.stopped) throw new ApiError('conflict', 'the server is shutting down');
    return this.track(
      (async () => {
        const out = await this.opts.prisma.$transaction(async (tx) => {
          const before = await lockedRow(tx, code);
          const change = await fn(before, tx);
          if (!change.changed) return { change, before, row: before };
          await tx.race.update({ where: { code }, data: { version: { increment: 1 } } });
          return { change, before, row: await lockedRow(tx, code, false) };
        });
        const { change, before, row } = out;
        for (const g of change.resign ?? []) await this.resignGame(g.gameId, g.owner);
        if (change.changed) {
          for (const p of change.progress ?? [])
            this.opts.events.publish(code, { type: 'progress', playerId: p.playerId, progress: p.progress });
          this.publishRoom(row);
          if (row.status !== before.status) this.announce(row);
        }
        if (change.due) this.opts.events.due();
        return { result: change.result, row };
      })(),
    );
  }

  /** Keeps `p` in the set awaited on stop. */
  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    const done = (): void => {
      this.inFlight.delete(p);
    };
    p.then(done, done);
    return p;
  }

  /** Begins the countdown (inside a room transaction): `startsAt` = now + the countdown, everyone ready. */
  private async beginCountdown(code: string, tx: Tx): Promise<Change<null>> {
    const startsAt = this.opts.now() + this.opts.countdownMs;
    await tx.race.update({ where: { code }, data: { status: 'countdown', startsAt: new Date(startsAt) } });
    await tx.raceRacer.updateMany({ where: { raceCode: code }, data: { ready: true } });
    return { result: null, changed: true, due: true };
  }

  /**
   * Writes this node's socket count of `viewer` (a racer, or SPECTATORS) in room `code` (after the earlier
   * writes of this room): the racer is here while any node has a socket of theirs, else away (and forfeits
   * at `forfeitAt` while the race runs). Returns whether the room was published.
   */
  private syncPresence(code: string, viewer: string): Promise<boolean> {
    const run = (this.presenceTail.get(code) ?? Promise.resolve()).then(async () => {
      if (this.stopped) return false;
      let sockets = 0;
      for (const who of this.local.get(code)?.values() ?? []) if ((who ?? SPECTATORS) === viewer) sockets++;
      const { result } = await this.mutate(code, (race, tx) =>
        presenceChange(tx, race, {
          nodeId: this.opts.nodeId,
          viewer,
          sockets,
          now: this.opts.now,
          awayForfeitMs: this.opts.awayForfeitMs,
        }),
      );
      return result;
    });
    this.presenceTail.set(
      code,
      run.then(
        () => undefined,
        () => undefined,
      ),
    );
    return run;
  }

  /** Records a room in this node's index (or drops it once finished). */
  private index(e: RaceIndexEntry): void {
    if (e.status === 'finished') {
      this.forgetRoom(e.code);
      return;
    }
    const old = this.known.get(e.code);
    if (old) for (const g of Object.values(old.gameIds)) this.raceOfGame.delete(g);
    this.known.set(e.code, e);
    for (const g of Object.values(e.gameIds)) this.raceOfGame.set(g, e.code);
  }

  private forgetRoom(code: string): void {
    const old = this.known.get(code);
    if (old) for (const g of Object.values(old.gameIds)) this.raceOfGame.delete(g);
    this.known.delete(code);
    if (!this.local.has(code)) this.presenceTail.delete(code);
  }

  private announce(row: RaceRow): void {
    const gameIds: Record<string, string> = {};
    for (const r of row.racers) if (r.gameId !== null) gameIds[r.playerId] = r.gameId;
    this.opts.events.announce({
      code: row.code,
      status: row.status,
      startsAt: row.startsAt?.getTime() ?? null,
      gameIds,
    });
  }

  private racerOf(race: RaceRow, playerId: string): RacerRow {
    const racer = race.racers.find((r) => r.playerId === playerId);
    if (!racer) throw new ApiError('forbidden', 'you are not a racer of this race');
    return racer;
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
   * Stores a new room and its racers (a fresh code; retried on the rare collision) and announces it. With
   * `rematchOf`, the old room's `rematchCode` is set (and its version bumped) in the same transaction;
   * returns null when another request set it first. Returns the new room's code.
   */
  private async insertRace(
    r: {
      preset: PresetName | null;
      options: GameOptions;
      dealKind: DealKind;
      rated: boolean;
      deal: Deal;
      dealKey: string | null;
      dealNumber: number | null;
      maxPlayers: number;
      timeLimitMs: number | null;
      hostId: string;
      racers: string[];
      arenaId?: string | null;
    },
    rematchOf?: string,
  ): Promise<string | null> {
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
              data: { rematchCode: code, version: { increment: 1 } },
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
              rated: r.rated,
              knownDeal,
              dealNumber: r.dealNumber === null ? null : BigInt(r.dealNumber),
              dealKey: r.dealKey,
              dealHash,
              deal: formatDeal(r.deal),
              maxPlayers: r.maxPlayers,
              timeLimitMs: r.timeLimitMs,
              hostId: r.hostId,
              arenaId: r.arenaId ?? null,
              createdAt: new Date(now),
              nodeId: this.opts.nodeId,
              racers: {
                create: r.racers.map((playerId, seat) => ({ playerId, seat, joinedAt: new Date(now) })),
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
      this.opts.events.announce({ code, status: 'lobby', startsAt: null, gameIds: {} });
      return code;
    }
  }

  /** The room as `viewer` sees it now. */
  private viewOf(row: RaceRow, viewer: Actor): Race {
    return personalise(snapshotOf(row, this.opts.countdownMs), viewer, this.opts.now());
  }

  private sendRoom(sub: Subscriber, row: RaceRow, viewer: Actor): void {
    sub.send(
      JSON.stringify({
        type: 'race',
        race: this.viewOf(row, viewer),
      } satisfies ServerFrame),
    );
  }

  private publishRoom(row: RaceRow): void {
    this.opts.events.publish(row.code, { type: 'room', room: snapshotOf(row, this.opts.countdownMs) });
  }

  /** Delivers a room event to this node's sockets of the room (a room older than one already sent: dropped). */
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
    const last = this.sent.get(code);
    if (last !== undefined && event.room.version < last) return;
    this.sent.set(code, event.room.version);
    for (const [sub, who] of members) {
      sub.send(
        JSON.stringify({
          type: 'race',
          race: personalise(event.room, who, this.opts.now()),
        } satisfies ServerFrame),
      );
    }
  }
}
