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
 * Start: the host starts (≥ 2 racers; a rated race only once every other racer is ready) or the room starts
 * itself when every seat is taken and everyone is ready. `startsAt` = now + the countdown; at that instant the server creates every racer's game — same deal,
 * same options, owned by the racer — and the race is `running`. Race time runs from `startsAt` by the
 * server's clock.
 *
 * End: the first racer to win ends the race at once; otherwise it ends when every racer is won, blocked,
 * resigned or forfeited, or when the time limit runs out (`endsAt`; MAX_RACE_TIME_MS without one). Placement:
 * winners first (by time), then by cards on the foundations (more first), score (higher first), equal ones
 * tied; racers who forfeited come last. A racer who never connected nor moved is void: placed, not rated. Then the games still open are resigned by the server (so nobody plays on and every replay is
 * final), and the games' replays are public.
 *
 * Presence: each node stores how many race sockets it holds per racer (`RacePresence`); a racer without a
 * socket on any live node (from the start on) is `away` (`forfeitAt` = then + RACE_AWAY_FORFEIT_MS while the race runs); back
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
import type { CreateRaceBody, Race } from '@klondike/protocol';
import { resolveOptions } from '@klondike/rules';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../infra/errors.js';
import type { DealEmbargo } from '../fairness/embargo.js';
import type { AuthedPlayer } from '../players/players.js';
import type { SolverPool } from '../solve/task.js';
import type { Actor, CommittedAction, GameRooms, Subscriber } from '../../core/rooms/game-rooms.js';
import { DealReserve, type PairedPreset } from './deal-reserve.js';
import { pickDeal, raceSettings } from './deals.js';
import type { RatedEligibility } from './eligibility.js';
import { raceGameSpecs } from './games.js';
import type { RaceEvents } from './events.js';
import { TERMINAL, newRaceCode, progressOf } from './ranking.js';
import type { NewRace, RaceRepository, RaceRow } from './repository.js';
import { interruptStale } from './interrupted.js';
import { PresenceQueue, readDeadNodes } from './presence.js';
import { type RaceInvitation, rematchRace } from './rematch.js';
import { Listeners } from './listeners.js';
import { RaceIndex } from './room-index.js';
import { RoomWriter } from './room-writer.js';
import { SPECTATORS, type RaceResults, personalise, resultsOf, snapshotOf } from './snapshot.js';
import { RaceSockets } from './sockets.js';
import { RaceSweeper } from './sweeper.js';
import type { RaceEvent, RaceRules, StartedGame } from './transitions.js';

export { CERTIFY_TRIES } from './deals.js';
export {
  RACE_CODE_ALPHABET,
  RACE_CODE_LENGTH,
  newRaceCode,
  progressOf,
  rankRacers,
  raceUrl,
} from './ranking.js';
export type { RankEntry } from './ranking.js';
export type { RaceResults } from './snapshot.js';
export type { PairedPreset } from './deal-reserve.js';

/** A race that has just finished, as `onFinished` listeners hear it. */
export interface FinishedRace {
  readonly code: string;
  /** The arena it belongs to, or null. */
  readonly arenaId: string | null;
}

/** What the service needs. */
export interface RaceServiceOptions {
  /** The races' rows (repository.ts); rated races are rated when they end when it has a rater. */
  readonly repository: RaceRepository;
  /** Who may sit in a custom rated room (eligibility.ts); none: anyone. */
  readonly eligibility?: RatedEligibility;
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

/** The races of the cluster, as one node serves them. All public methods throw `ApiError` for refusals. */
export class RaceService {
  /** Index of the unfinished rooms (room-index.ts). */
  private readonly index: RaceIndex;
  /** This node's race sockets (sockets.ts). */
  private readonly sockets: RaceSockets;
  /** Each room's presence writes on this node, in order (presence.ts). */
  private readonly presence = new PresenceQueue();
  /** Rooms whose games this node is creating (the countdown's end). */
  private readonly starting = new Set<string>();
  /** The room transactions (room-writer.ts). */
  private readonly writer: RoomWriter;
  /** The cluster's race timers, while this node holds the lease (sweeper.ts). */
  private readonly sweeper: RaceSweeper;
  /** What the room decisions read besides the room (transitions.ts). */
  private readonly rules: RaceRules;
  private readonly stopListening: (() => void)[] = [];
  /** Who hears this node's invitations (`onInvitation`). */
  private readonly invitations: Listeners<RaceInvitation>;
  /** Who hears of the races this node finishes (`onFinished`). */
  private readonly finished: Listeners<FinishedRace>;
  /** Certified deals made ahead for paired races (deal-reserve.ts). */
  private readonly deals: DealReserve;

  /** See `RaceServiceOptions`. Listens to the room index of every node at once. */
  constructor(private readonly opts: RaceServiceOptions) {
    this.invitations = new Listeners(opts.log, 'invitation');
    this.finished = new Listeners(opts.log, 'finished');
    this.rules = {
      countdownMs: opts.countdownMs,
      awayForfeitMs: opts.awayForfeitMs,
      rates: opts.repository.rates,
    };
    this.index = new RaceIndex((code) => {
      if (!this.sockets.has(code)) this.presence.forget(code);
    });
    this.sockets = new RaceSockets({ events: opts.events, now: opts.now });
    this.writer = new RoomWriter({
      ...opts,
      rules: this.rules,
      finished: (row) => this.finished.emit({ code: row.code, arenaId: row.arenaId }),
    });
    this.deals = new DealReserve({ certify: opts, log: opts.log });
    this.sweeper = new RaceSweeper({
      repository: opts.repository,
      now: opts.now,
      log: opts.log,
      sweepMs: opts.sweepMs,
      stopped: () => this.writer.closed,
      track: (p) => this.writer.track(p),
      sweepDeadNodes: () => this.sweepDeadNodes(),
      begin: (code) => this.begin(code),
      timeUp: (code) => this.apply(code, { type: 'time-up' }).then(() => {}),
      forfeit: (code, playerId) => this.apply(code, { type: 'forfeit', playerId }).then(() => {}),
    });
    this.stopListening.push(
      opts.events.onAnnounce((e) => this.index.record(e)),
      opts.events.onDue(() => this.sweeper.request()),
    );
  }

  // ---------- REST ----------

  /**
   * Creates a room hosted by `host` (POST /api/races), who takes the first seat.
   * Errors: `solver-busy` when no certified deal was found (or the solver queue is full); `forbidden` for
   * a rated room whose host is not eligible (eligibility.ts).
   */
  async create(host: AuthedPlayer, body: CreateRaceBody): Promise<Race> {
    const { preset, options, kind } = raceSettings(body);
    await this.opts.eligibility?.assert(body.rated, [host.id]);
    const picked = await pickDeal(
      this.opts,
      kind,
      options,
      host.id,
      typeof body.deal === 'object' ? body.deal.dealNumber : undefined,
    );
    const code = await this.insertRace({
      preset,
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
    return this.viewOf(await this.opts.repository.room(code), host.id);
  }

  /**
   * Makes the room of a quick pairing (pairing/service.ts) or an arena's pairing (arenas/service.ts):
   * `racers` (two people or two bots, the first hosts) seated in a 2-seat race of `preset` with a certified
   * deal, hints off, rated unless `extra.rated` is false, its countdown begun at once (no ready step).
   * The deal is one made ahead (`prepareDeals`) when one is ready, else certified now.
   * Returns the room's code.
   * Errors: `solver-busy` when no certified deal was found (or the solver queue is full).
   */
  async createPaired(
    preset: PairedPreset,
    racers: readonly [string, string],
    extra: { rated?: boolean; timeLimitMs?: number | null; arenaId?: string } = {},
  ): Promise<string> {
    const options = resolveOptions(preset, { hints: false });
    const picked = this.deals.take(preset) ?? (await pickDeal(this.opts, 'certified', options, racers[0]));
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
    await this.apply(code, { type: 'countdown' });
    return code;
  }

  /**
   * Marks `playerId` berserk in arena race `code` (docs/arenas.md "Berserk"), before its countdown ends.
   * Errors: `not-found`; `forbidden` for a non-racer or a race of no arena; `conflict` once the race runs.
   */
  async setBerserk(code: string, playerId: string): Promise<Race> {
    const { row } = await this.apply(code, { type: 'berserk', playerId });
    return this.viewOf(row, playerId);
  }

  /** A room as `viewer` sees it (GET /api/races/:code). Errors: `not-found`. */
  async get(code: string, viewer: Actor): Promise<Race> {
    return this.viewOf(await this.opts.repository.room(code), viewer);
  }

  /**
   * Takes a seat (POST /api/races/:code/join); a racer already seated gets the room as is.
   * Bots race only other bots: a room hosted by a bot seats only bots, any other room only people.
   * Errors: `not-found`; `conflict` when the room is full or the race has started or finished; `forbidden`
   * for a bot joining people's room or a person joining a bots' room, or an ineligible account a rated one.
   */
  async join(code: string, player: AuthedPlayer): Promise<Race> {
    await this.opts.eligibility?.assertJoin(code, player.id);
    const { row } = await this.apply(code, { type: 'join', player });
    return this.viewOf(row, player.id);
  }

  /**
   * Sets the caller's ready flag (POST /api/races/:code/ready). When every seat is taken and everyone is
   * ready, the countdown begins. Errors: `not-found`; `forbidden` for a non-racer; `conflict` once the
   * countdown has begun.
   */
  async ready(code: string, player: AuthedPlayer, ready: boolean): Promise<Race> {
    const { row } = await this.apply(code, { type: 'ready', playerId: player.id, ready });
    return this.viewOf(row, player.id);
  }

  /**
   * Starts the countdown (POST /api/races/:code/start). Errors: `not-found`; `forbidden` unless the caller
   * is the host; `conflict` when the race is not in the lobby or has fewer than 2 racers.
   */
  async start(code: string, player: AuthedPlayer): Promise<Race> {
    const { row } = await this.apply(code, { type: 'start', playerId: player.id });
    return this.viewOf(row, player.id);
  }

  /** Placements, final progress and game ids (GET /api/races/:code/results). Errors: `not-found`; `forbidden` before the end. */
  async results(code: string): Promise<RaceResults> {
    const row = await this.opts.repository.room(code);
    if (row.status !== 'finished')
      throw new ApiError('forbidden', 'the results are published once the race has finished');
    return resultsOf(row);
  }

  /**
   * A rematch is an invitation (docs/ratings.md "Consent and ranking"): a new room with the same options,
   * seats and rating and a fresh random deal (certified → certified, anything else → random: never a deal
   * anyone knows), hosted by the caller, who alone is seated (POST /api/races/:code/rematch). The other
   * racers see its code and join it, or ask for the rematch too: a later request seats its caller in the
   * first rematch while its lobby has a seat (else it just returns the room).
   * Returns the room and whether it is new.
   * Errors: `not-found`; `forbidden` for a non-racer or (rated) a caller not eligible for rated rooms
   * (races/eligibility.ts); `conflict` before the race has finished.
   */
  async rematch(code: string, player: AuthedPlayer): Promise<{ race: Race; created: boolean }> {
    return rematchRace(
      {
        repository: this.opts.repository,
        certify: this.opts,
        insert: (r, of) => this.insertRace(r, of),
        publish: (row) => this.writer.publishRoom(row),
        join: (c, p) => this.join(c, p),
        view: (c, viewer) => this.get(c, viewer),
        assertEligible: async (rated) => this.opts.eligibility?.assertRematch({ rated }, player.id),
        invite: (invitation) => this.invitations.emit(invitation),
      },
      code,
      player,
    );
  }

  /**
   * Hears every invitation this node makes (a rematch's, to the finished race's other racers): the events
   * streams (plugin `streams`) deliver it to the invited players on every node. Returns the stop function.
   */
  onInvitation(listener: (invitation: RaceInvitation) => void): () => void {
    return this.invitations.add(listener);
  }

  /**
   * Keeps up to `count` certified deals of `preset` ready on this node for `createPaired` (deal-reserve.ts:
   * at most DEAL_RESERVE_MAX, made one at a time in the background; 0 makes no more).
   */
  prepareDeals(preset: PairedPreset, count: number): void {
    this.deals.want(preset, count);
  }

  /**
   * Hears every race this node finishes, right after the commit that finished it (a racer's last move, a
   * resign, the time limit or a forfeit; not the races a start-up ends as interrupted): the arenas score it
   * at once. Returns the stop function.
   */
  onFinished(listener: (race: FinishedRace) => void): () => void {
    return this.finished.add(listener);
  }

  // ---------- sockets ----------

  /**
   * Adds a socket to a room (`race-subscribe`): as its racer when `player` is one, else as a spectator. It
   * gets a `race` frame at once (and every room member one, as presence or the spectator count changed).
   * Errors: `not-found`.
   */
  async subscribe(code: string, sub: Subscriber, player: Actor): Promise<void> {
    const row = await this.opts.repository.room(code);
    const who = player !== null && row.racers.some((r) => r.playerId === player) ? player : null;
    const filed = this.sockets.roleIn(code, sub);
    if (filed !== undefined) {
      if (filed === who) {
        this.sockets.send(sub, this.viewOf(row, player));
        return;
      }
      // The socket's role changed since it subscribed (it authed, or its player joined): file it anew.
      this.unsubscribe(code, sub);
    }
    this.sockets.add(code, sub, who);
    const published = row.status !== 'finished' && (await this.syncPresence(code, who ?? SPECTATORS));
    // A finished room (or one that finished meanwhile) is not re-published: this socket alone hears it.
    if (!published) this.sockets.send(sub, this.viewOf(await this.opts.repository.room(code), player));
  }

  /** Removes a socket from a room (`race-unsubscribe`, or its socket closed). */
  unsubscribe(code: string, sub: Subscriber): void {
    const who = this.sockets.remove(code, sub);
    if (who === undefined) return;
    if (!this.writer.closed)
      this.syncPresence(code, who ?? SPECTATORS).catch((err: unknown) =>
        this.opts.log.error({ err, code }, 'race presence update failed'),
      );
  }

  /** Removes a socket from every room (its connection closed). */
  leaveAll(sub: Subscriber): void {
    for (const code of this.sockets.roomsOfSocket(sub)) this.unsubscribe(code, sub);
  }

  // ---------- hooks of the game rooms ----------

  /**
   * GameRooms' move listener (on whichever node committed the action): a racer's action → their stored
   * progress, a `progress` event, and maybe the end of the race (which resigns the other racers' games).
   * The rooms call it once the action's write has left its game's queue (core/rooms/game-room.ts `act`),
   * so the race's own writes to games (the resignations) are new writes, never a re-entry into one still
   * in progress. Kept in the writer's set, so closing waits for it; failures are logged.
   */
  onAction(action: CommittedAction): void {
    this.writer
      .track(this.recordProgress(action))
      .catch((err: unknown) => this.opts.log.error({ err, gameId: action.gameId }, 'race progress failed'));
  }

  /**
   * GameRooms' access guard: while a race is on, a racer's game is readable by that racer only, and its
   * deal by nobody; a room this node's index misses is looked up (races/room-index.ts). `raceCode`: the
   * game's race (GameFacts.raceCode). Errors (rejects): `forbidden`, `unauthorized`.
   */
  guard(gameId: string, raceCode: string | null, actor: Actor, what: 'read' | 'reveal'): Promise<void> {
    return this.index.guard(this.opts.repository, gameId, raceCode, actor, what);
  }

  // ---------- lifecycle ----------

  /**
   * Loads the index of the unfinished rooms (start-up, and every heartbeat with several nodes, so that a
   * lost announcement heals).
   */
  async loadIndex(): Promise<void> {
    await this.index.load(this.opts.repository);
  }

  /**
   * One node alone, at start-up: ends as `interrupted` every unfinished race (a previous run's). Running
   * races are ranked from their games as stored and their games resigned; lobby and countdown rooms end
   * without results. Returns how many races it ended.
   */
  async interruptStale(): Promise<number> {
    return interruptStale({
      ...this.opts,
      rules: this.rules,
      ended: (code) => this.index.forget(code),
      resign: (gameId, owner) => this.writer.resignGame(gameId, owner),
    });
  }

  /**
   * Several nodes: records this node's heartbeat (`ServerNode.seenAt` = now) and reloads the room index.
   */
  async heartbeat(): Promise<void> {
    await this.opts.repository.beat(this.opts.nodeId, new Date(this.opts.now()));
    await this.loadIndex();
  }

  /**
   * Several nodes, closing: this node's heartbeat row goes, so the sweeper (wherever it runs) takes this
   * node's race sockets away at once.
   */
  async leave(): Promise<void> {
    await this.opts.repository.forgetNode(this.opts.nodeId);
    this.opts.events.due();
  }

  /**
   * Closes every lobby older than `maxAgeMs` that nobody started (end reason `abandoned`), whichever node
   * created it. Returns how many this call closed.
   */
  async closeStaleLobbies(maxAgeMs: number): Promise<number> {
    const codes = await this.opts.repository.lobbiesCreatedBefore(new Date(this.opts.now() - maxAgeMs));
    let closed = 0;
    for (const code of codes) if ((await this.apply(code, { type: 'abandon' })).changed) closed++;
    return closed;
  }

  /** Unfinished rooms in this node's index (bounded by the lobby sweep and by the races' ends). */
  get liveCount(): number {
    return this.index.size;
  }

  /** Rooms in this node's index (tests, metrics). */
  get size(): number {
    return this.index.size;
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
    const inFlight = this.writer.close();
    this.setSweeper(false);
    for (const off of this.stopListening) off();
    this.deals.stop();
    await Promise.allSettled([...inFlight, this.sweeper.running]);
    this.sockets.stop();
  }

  // ---------- the sweeper ----------

  /**
   * Presence rows of nodes whose heartbeat stopped (several nodes; one node: of any other node, a previous
   * run's) go; their racers without a socket elsewhere are away since the node's last beat.
   */
  private async sweepDeadNodes(): Promise<void> {
    const { nodes, rooms } = await readDeadNodes(this.opts.repository, this.opts, this.opts.now());
    for (const code of rooms) await this.apply(code, { type: 'dead-nodes', ...nodes });
  }

  /** The countdown's end: every racer's game is created, then the race runs (once, under the row lock). */
  private async begin(code: string): Promise<void> {
    if (this.starting.has(code)) return;
    this.starting.add(code);
    try {
      const row = await this.opts.repository.room(code);
      if (row.status !== 'countdown' || row.startsAt === null || row.startsAt.getTime() > this.opts.now())
        return;
      if (row.racers.some((r) => r.gameId !== null)) return;
      const specs = raceGameSpecs(row);
      const games: StartedGame[] = [];
      try {
        for (const { playerId, spec } of specs) {
          const game = await this.opts.rooms.createGame(spec);
          games.push({ playerId, id: game.id, view: game.view });
        }
      } catch (err) {
        this.opts.log.error({ err, code }, 'race start failed');
        await this.apply(code, { type: 'fail-start' });
        return;
      }
      // When another run started it first, these games are nobody's: the decision resigns them.
      await this.apply(code, { type: 'run', games });
    } finally {
      this.starting.delete(code);
    }
  }

  // ---------- progress and the end ----------

  /** Stores a racer's progress after their action (a later game version only), publishes it, maybe ends. */
  private async recordProgress(action: CommittedAction): Promise<void> {
    const race = await this.index.startOfGame(this.opts.repository, action.gameId);
    if (race === null) return;
    const { code, startsAt } = race;
    const progress = progressOf(action.view, action.at - startsAt);
    if (!(await this.opts.repository.storeProgress(action.gameId, action.version, progress))) return;
    const playerId = action.owner;
    if (playerId !== null) this.opts.events.publish(code, { type: 'progress', playerId, progress });
    const reason = progress.status === 'won' ? 'won' : TERMINAL.has(progress.status) ? 'done' : null;
    if (reason !== null) await this.apply(code, { type: 'finish', reason });
  }

  // ---------- internals ----------

  /**
   * Writes this node's socket count of `viewer` (a racer, or SPECTATORS) in room `code` (after the earlier
   * writes of this room): the racer is here while any node has a socket of theirs, else away (and forfeits
   * at `forfeitAt` while the race runs). Returns whether the room was published.
   */
  private syncPresence(code: string, viewer: string): Promise<boolean> {
    return this.presence.queue(code, async () => {
      if (this.writer.closed) return false;
      const sockets = this.sockets.count(code, viewer);
      const { changed } = await this.apply(code, {
        type: 'presence',
        nodeId: this.opts.nodeId,
        viewer,
        sockets,
      });
      return changed;
    });
  }

  /** Stores a new room (repository.ts `RaceRepository.insert`) and announces it. Returns its code (null: see there). */
  private async insertRace(r: NewRace, rematchOf?: string): Promise<string | null> {
    const code = await this.opts.repository.insert({ ...this.opts, newCode: newRaceCode }, r, rematchOf);
    if (code !== null) this.opts.events.announce({ code, status: 'lobby', startsAt: null, gameIds: {} });
    return code;
  }

  /** Applies `event` to room `code` (room-writer.ts `apply`; its errors). */
  private apply(code: string, event: RaceEvent): Promise<{ changed: boolean; row: RaceRow }> {
    return this.writer.apply(code, event);
  }

  /** The room as `viewer` sees it now. */
  private viewOf(row: RaceRow, viewer: Actor): Race {
    return personalise(snapshotOf(row, this.opts.countdownMs), viewer, this.opts.now());
  }
}
