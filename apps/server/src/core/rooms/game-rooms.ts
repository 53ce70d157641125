/**
 * Game rooms: the in-memory owner of every live game, and the one door to it for the routes, the socket and
 * the features. A thin facade over three parts:
 * - one game's room (game-room.ts): the linear `act` (admit, load, authorise, freshen, the pure rules,
 *   commit, change, fan out, then the kind's hooks once the write has left the game's queue), `settle`,
 *   a subscriber's `join`, and the per-game write queue;
 * - the room directory (room-directory.ts): the rooms in memory, their loads from the store, eviction of
 *   idle ones, waiting for queued writes on shutdown;
 * - cluster sync (cluster-sync.ts): the bus to the other nodes, stale copies, catch-up.
 * The commits go through the core's group commit and commit queue (group-commit.ts) to the store
 * (store.ts): the database's (infra/db/game-store.ts, handed in by core/games/plugin.ts), or one in memory
 * (memory-store.ts) for a node built without a database.
 *
 * A room holds a game's engine state (which contains hidden cards and never leaves the rooms except through
 * `playerView`), its version (= length of its move log), its clock and its WebSocket subscribers. Writes to
 * one game run one at a time, in arrival order; each is durable before the room changes, the caller gets
 * its answer and the subscribers their state frame (game-room.ts).
 *
 * Kinds of game: every game is `casual`, `daily-ranked`, `daily-practice` or `race` (stored with it: its
 * daily, its race seat), and the policy of its kind (policies.ts; each declared by the module owning the
 * kind, through games/kinds.ts) adds that kind's rules: who may read it, whether it takes another action, when its clock
 * stops, which leaderboard row its ending commits in the same transaction, who hears of its commits, and
 * when its replay is public. The log itself knows one rule of ownership: a game created for a player takes
 * actions from that player only. A kind may also settle a game without an action (`settle`: a daily's
 * attempt when its day closes).
 */
import { type CreateGameBody, type GameResponse, MoveSchema, type StateResponse } from '@klondike/protocol';
import {
  type Deal,
  type GameAction,
  type GameState,
  type GameStatus,
  type Move,
  legalMoves,
} from '@klondike/rules';
import { ApiError } from '../../infra/errors.js';
import { casualGame } from './casual-game.js';
import { ClusterSync } from './cluster-sync.js';
import { type RoomContext, act, join, settle, viewAt } from './game-room.js';
import { type GroupCommitStats, MoveLog } from './group-commit.js';
import {
  type Actor,
  CASUAL_ONLY,
  type GameFacts,
  type GamePolicies,
  type GamePolicy,
  type ResultRow,
  type WireView,
} from './policies.js';
import {
  type ActOptions,
  type GameRoomsOptions,
  type NewGameSpec,
  type Replay,
  type Room,
  type Standing,
  type Subscriber,
  newRoom,
  replayOf,
} from './room.js';
import { RoomDirectory } from './room-directory.js';
import type { GameStore } from './store.js';

export type { Actor, CommittedAction, DailyRef, WireView } from './policies.js';
export { elapsedMs, newGameId, wireView } from './room.js';
export type {
  ActOptions,
  GameRoomsOptions,
  NewGameSpec,
  Replay,
  Standing,
  Subscriber,
  WriteOrigin,
} from './room.js';

/** The live games of this server. All public methods throw `ApiError` for refusals. */
export class GameRooms {
  /** The games in memory (room-directory.ts). */
  private readonly directory: RoomDirectory;
  /** The other nodes (cluster-sync.ts). */
  private readonly sync: ClusterSync;
  /** The commit queue and group commit (group-commit.ts). */
  private readonly log: MoveLog;
  /** What a room's operations use (game-room.ts). */
  private readonly ctx: RoomContext;
  private readonly now: () => number;
  private policies: GamePolicies = CASUAL_ONLY;

  /** `store` holds the games (infra/db/game-store.ts, or memory-store.ts); see `GameRoomsOptions`. */
  constructor(
    private readonly store: GameStore,
    options: GameRoomsOptions = {},
  ) {
    const now = options.now ?? Date.now;
    this.now = now;
    this.directory = new RoomDirectory(store, options.maxLiveGames ?? 10_000);
    this.log = new MoveLog(store, options);
    const rules = { now, policy: (room: Room): GamePolicy => this.policies[room.kind] };
    this.sync = new ClusterSync(options.bus, this.directory, store, rules);
    this.ctx = { ...rules, store, log: this.log, peers: this.sync };
  }

  /** Move-log flushes this node keeps in flight at once (GameRoomsOptions.commitConcurrency). */
  get commitConcurrency(): number {
    return this.log.concurrency;
  }

  /** Group-commit counters (flushes, largest batch, …) since start. */
  get commitStats(): Readonly<GroupCommitStats> {
    return this.log.stats;
  }

  /** The commit queue now: its depth, its bound and the `overloaded` refusals since start (metrics). */
  get commitQueue(): MoveLog['queue'] {
    return this.log.queue;
  }

  /** Number of games in memory. */
  get size(): number {
    return this.directory.size;
  }

  /**
   * Declares the policy of every kind of game (games/kinds.ts, as the modules declare their kinds once
   * the daily and race services exist). Until then every kind follows the casual policy.
   */
  usePolicies(policies: GamePolicies): void {
    this.policies = policies;
  }

  private policy(room: Room): GamePolicy {
    return this.policies[room.kind];
  }

  /**
   * Creates a casual game (POST /api/games): options = preset (default classic-draw1) + overrides; the deal
   * from `deal` (52 codes), `dealNumber` (v1; echoed: the creator chose it), `sameDealAs` (another game's
   * deal and, without preset or options, its options; its number is echoed only when it was chosen) or a
   * fresh random key (deal algorithm v2; the key stays in the database). Stores it at version 0.
   * `guard` sees every deal the caller chose (not a fresh random one) and may refuse it by throwing (the
   * deal embargo). `owner`: the player whose token created it (the game then takes that player's actions
   * only, and counts in their statistics and history), or null for an anonymous game.
   * Errors: `bad-request` for an unreadable deal or deal number; `not-found` for an unknown `sameDealAs`.
   */
  async create(
    body: CreateGameBody,
    guard?: (deal: Deal) => Promise<void>,
    owner: string | null = null,
  ): Promise<GameResponse> {
    const { spec, dealNumber, chosen } = await casualGame(body, owner, this.store);
    if (chosen) await guard?.(spec.deal);
    return this.insert(spec, dealNumber);
  }

  /**
   * Creates a game of a kind's own (daily/games.ts, races/service.ts) and stores it at version 0, with the
   * row its kind adds at creation. Errors: `RowExists` (store.ts) when that row's unique key is taken.
   */
  async createGame(spec: NewGameSpec): Promise<GameResponse> {
    return this.insert(spec, null);
  }

  /**
   * The game as its player sees it (GET /api/games/:id).
   * Errors: `not-found`; `unauthorized`/`forbidden` for a daily game of an open day read by another caller.
   */
  async get(id: string, actor: Actor = null): Promise<GameResponse> {
    const room = await this.sync.current(id);
    const now = this.now();
    await this.checkRead(room, actor, now);
    return this.response(room, viewAt(this.ctx, room, now));
  }

  /**
   * Every legal move now (GET /api/games/:id/legal-moves); empty once the game is over (or, for a ranked
   * attempt, once it has ended or its day has closed). Errors: as for `get`.
   */
  async legalMoves(id: string, actor: Actor = null): Promise<{ version: number; moves: Move[] }> {
    const room = await this.sync.current(id);
    const now = this.now();
    await this.checkRead(room, actor, now);
    const over = this.policy(room).over?.(room, now) ?? false;
    return { version: room.version, moves: over ? [] : legalMoves(room.state) };
  }

  /**
   * The full deal (GET /api/games/:id/deal), only once the game has ended: won or resigned. A blocked game
   * (R13) has not ended — undo can still take it back — so its deal stays secret until the player resigns.
   * Errors: `not-found`; `forbidden` while the game can still be played.
   */
  async deal(id: string): Promise<{ deal: string; dealNumber: number | null }> {
    const room = await this.sync.current(id);
    const policy = this.policy(room);
    const now = this.now();
    await policy.checkRead?.(room, null, 'reveal', now);
    if (policy.reveal) {
      policy.reveal(room, now);
      return { deal: room.deal, dealNumber: room.dealNumber };
    }
    if (room.status !== 'won' && room.status !== 'resigned')
      throw new ApiError('forbidden', 'the deal is revealed only once the game has been won or resigned');
    return { deal: room.deal, dealNumber: room.dealNumber };
  }

  /**
   * Applies a move, undo or resignation, commits it, then broadcasts a state frame to every subscriber
   * (the origin's copy carries its request id) and returns the new version and view; the kind's hooks
   * (`afterCommit`, `afterResult`) run once the write has left the game's queue (game-room.ts `act`).
   * See `ActOptions` (`expectedVersion` undefined = no version check).
   * Errors: `overloaded` when too many writes wait to be stored; `not-found`; `unauthorized`/`forbidden`
   * when the game belongs to another player; `conflict` when a ranked attempt has ended or its day has
   * closed; `stale-version` with the current version; `illegal-move` with the rules' reason and the current
   * version; `unavailable`/`commit-failed` when the commit failed; other database failures as they are
   * (nothing changes).
   */
  act(id: string, action: GameAction, options: ActOptions = {}): Promise<StateResponse> {
    return act(this.ctx, id, action, options);
  }

  /**
   * Settles a game without an action (a ranked attempt whose day has closed while it was still playing):
   * in the game's write queue, `decide` gets its facts, the server time and its score, moves and game time
   * with the clock stopped at `end` (`at`), and names the leaderboard row to store, or null for none. Returns
   * whether a row was added (false as well for a game that already has its row). An idle game loaded for
   * this is forgotten again afterwards. Errors: `not-found`.
   */
  async settle(
    id: string,
    decide: (game: GameFacts, now: number, at: (end: number) => Standing) => ResultRow | null,
  ): Promise<boolean> {
    const wasLive = this.directory.get(id) !== undefined;
    try {
      return await settle(this.ctx, await this.sync.room(id), decide);
    } finally {
      if (!wasLive) this.evict(id);
    }
  }

  /**
   * Adds a subscriber to a game and sends it a `state` frame (cause `subscribe`) with the current version:
   * the (re)connect and resync path. Ordered with the game's writes, so no frame is missed or reordered.
   * Errors: `not-found`.
   */
  async subscribe(id: string, subscriber: Subscriber, actor: Actor = null): Promise<void> {
    const room = await this.sync.current(id);
    await this.checkRead(room, actor, this.now());
    await join(this.ctx, room, subscriber);
  }

  /**
   * Adds a subscriber to a game without the first `state` frame: for the one who just created it and holds
   * its answer (the daily channel's `daily-attempt`), so the room held here is current and the stored version
   * is not asked for. Later frames reach it as a `subscribe`'s would. Errors: as `subscribe`.
   */
  async follow(id: string, subscriber: Subscriber, actor: Actor = null): Promise<void> {
    const room = await this.sync.room(id);
    await this.checkRead(room, actor, this.now());
    await join(this.ctx, room, subscriber, false);
  }

  /**
   * The logged actions of game `id` after version `since`, oldest first, and the stored version: what a
   * resumed stream replays before its live frames (features/streams). A move names piles and a count only,
   * never a card (what every `state` frame's `move` already shows). The read rule of the game's kind is
   * checked for `actor`. Errors: `not-found`; the kind's read refusals (`unauthorized`, `forbidden`).
   */
  async actionsSince(
    id: string,
    since: number,
    actor: Actor = null,
  ): Promise<{ version: number; actions: { version: number; action: GameAction['type']; move?: Move }[] }> {
    const room = await this.sync.current(id);
    await this.checkRead(room, actor, this.now());
    const stored = await this.store.load(id);
    if (stored === null) throw new ApiError('not-found', `no game ${id}`);
    const actions = stored.log
      .filter((e) => e.seq > since)
      .map((e) =>
        e.kind === 'move'
          ? { version: e.seq, action: 'move' as const, move: MoveSchema.parse(e.move) }
          : { version: e.seq, action: e.kind },
      );
    return { version: stored.version, actions };
  }

  /** Removes a subscriber from a game (no error when it was not subscribed). */
  unsubscribe(id: string, subscriber: Subscriber): void {
    const room = this.directory.get(id);
    if (!room) return;
    if (room.subscribers.delete(subscriber) && room.subscribers.size === 0) this.directory.touch(room);
    this.sync.listen(room);
  }

  /** Whether `subscriber` is subscribed to game `id`. */
  isSubscribed(id: string, subscriber: Subscriber): boolean {
    return this.directory.get(id)?.subscribers.has(subscriber) ?? false;
  }

  /**
   * A game's current position for the solver (GET /api/games/:id/hint): the engine state without its undo
   * history, its version and status, its deal (for the deal embargo) and whether it is a casual game
   * (anonymous, no daily). The state and deal hold hidden cards: they go to a solver thread or the embargo
   * check only, never to a client. Errors: as for `get`.
   */
  async position(
    id: string,
    actor: Actor = null,
  ): Promise<{ state: GameState; version: number; status: GameStatus; deal: string; casual: boolean }> {
    const room = await this.sync.current(id);
    await this.checkRead(room, actor, this.now());
    return {
      state: { ...room.state, history: null },
      version: room.version,
      status: room.status,
      deal: room.deal,
      casual: room.kind === 'casual',
    };
  }

  /**
   * The engine state of a game in memory, or undefined. For tests and audits only (e.g. computing which
   * cards are hidden): the state holds hidden cards and must never be sent to a client.
   */
  peekState(id: string): GameState | undefined {
    return this.directory.get(id)?.state;
  }

  /**
   * Forgets a game held in memory so that its next use replays it from the database. Only an idle game
   * (no subscribers, no queued write) is forgotten; returns whether it was.
   */
  evict(id: string): boolean {
    return this.directory.evict(id);
  }

  /** Waits for every queued write to finish and forgets all rooms (on shutdown). */
  async drain(): Promise<void> {
    await this.directory.drain();
    await this.log.drain();
    this.sync.stop();
    this.directory.clear();
  }

  /**
   * A finished game's deal and log (GET /api/games/:id/replay), read from the database: a daily game's
   * once its day has closed, a race game's once its race has finished, any other game once it is won or
   * resigned.
   * Errors: `not-found`; `forbidden` before that.
   */
  async replay(id: string): Promise<Replay> {
    const row = await this.store.replay(id);
    if (!row) throw new ApiError('not-found', `no game ${id}`);
    const rule = this.policies[row.kind].checkReplay;
    if (rule) rule(row, this.now());
    else if (row.status !== 'won' && row.status !== 'resigned')
      throw new ApiError('forbidden', 'the replay is available once the game has been won or resigned');
    return replayOf(row);
  }

  // ---------- internals ----------

  /** Stores a new game at version 0 (with the row its kind adds, in one transaction). */
  private async insert(g: NewGameSpec, dealNumber: number | null): Promise<GameResponse> {
    const { room, record, view } = newRoom(g, dealNumber, this.now());
    await this.store.insert(record);
    this.directory.add(room);
    return this.response(room, view);
  }

  /** The read rule of the game's kind (a daily game of an open day, a race game during its race). */
  private async checkRead(room: Room, actor: Actor, now: number): Promise<void> {
    await this.policy(room).checkRead?.(room, actor, 'read', now);
  }

  private response(room: Room, view: WireView): GameResponse {
    return {
      id: room.id,
      version: room.version,
      view,
      preset: room.preset,
      dealNumber: room.dealNumber,
      kind: room.kind,
      daily: room.daily === null ? null : { date: room.daily.date, preset: room.daily.preset },
      race: room.raceCode === null ? null : { code: room.raceCode },
    };
  }
}
