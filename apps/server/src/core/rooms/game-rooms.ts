/**
 * Game rooms: the in-memory owner of every live game.
 *
 * A room holds a game's engine state (which contains hidden cards and never leaves this module except
 * through `playerView`), its version (= length of its move log), its clock and its WebSocket subscribers.
 *
 * Writes (moves, undo, resign, subscribe) to one game run one at a time, in arrival order (a promise
 * chain per room). Each write is validated by the rules package, then committed — `UPDATE "Game" … WHERE
 * id = ? AND version = expected` plus `INSERT "Move"` with `seq = version + 1` in one statement, grouped
 * with the concurrent writes of other games (group commit, db/move-log.ts) — and only after that commit is
 * durable does the room change, the caller get its answer and the subscribers get their state frame. A
 * write refused by the rules or by the version check changes nothing; a write whose flush failed gets
 * `commit-failed` and changes nothing. The writes admitted and not yet committed are bounded
 * (`commitQueue`): past it a write is refused at once with `overloaded`.
 *
 * Storage is a `GameStore` (rooms/store.ts): the database's (db/game-store.ts), or one in memory
 * (rooms/memory-store.ts) for a node built without a database.
 *
 * Scale-out (docs/architecture.md): each live game is owned by one node at a time; the optimistic version check in
 * the database refuses a write from a node whose cached copy is behind (the room is then dropped and
 * reloaded on next use). With several nodes a read (game, legal moves, hint position, deal, a socket's
 * subscribe snapshot) first compares a cached copy with the stored version (`GameStore.version`,
 * one primary-key look-up) and re-reads it when behind, so it answers a version at least as new as every
 * commit acknowledged before it began, whichever node made it, with or without the bus. When the bus
 * returns after an outage every copy is marked behind, and the games followed here are re-read and their
 * sockets sent the current state.
 *
 * Kinds of game: every game is `casual`, `daily-ranked`, `daily-practice` or `race` (stored with it: its
 * daily, its race seat), and the policy of its kind (rooms/policies.ts; all declared in
 * plugins/game-policies.ts) adds that kind's rules: who may read it, whether it takes another action, when
 * its clock stops, which leaderboard row its ending commits in the same transaction, and who hears of its
 * commits, and when its replay is public. The log itself knows one rule of ownership: a game created for a
 * player takes actions from that player only. A kind may also settle a game without an action (`settle`:
 * a daily's attempt when its day closes).
 */
import { type CreateGameBody, type GameResponse, type StateResponse } from '@klondike/protocol';
import {
  type Deal,
  type GameAction,
  type GameState,
  type GameStatus,
  type Move,
  applyAction,
  currentScore,
  legalMoves,
  playerView,
} from '@klondike/rules';
import { isDatabaseUnavailable } from '../../infra/db/availability.js';
import { ApiError } from '../../infra/errors.js';
import {
  CommitFailedError,
  GroupCommitter,
  type GroupCommitStats,
  type MoveCommit,
} from '../../infra/db/move-log.js';
import type { EventBus } from '../../infra/bus/event-bus.js';
import {
  type Actor,
  CASUAL_ONLY,
  type GameFacts,
  type GamePolicies,
  type GamePolicy,
  type ResultRow,
  type WireView,
} from './policies.js';
import type { GameStore } from './store.js';
import type { StateFrame } from './state-frame-text.js';
import { RoomCache } from './room-cache.js';
import { stepOf } from './step.js';

import {
  type ActOptions,
  type GameRoomsOptions,
  type NewGameSpec,
  type RemoteCommit,
  type Replay,
  type Room,
  type Standing,
  type Stored,
  type Subscriber,
  type WriteOrigin,
  casualGame,
  elapsedMs,
  isRemoteCommit,
  liveRoom,
  newRoom,
  reload,
  replayOf,
  replayed,
  wireView,
} from './room.js';

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
  /** The games in memory (room-cache.ts). */
  private readonly rooms: RoomCache;
  private readonly now: () => number;
  private policies: GamePolicies = CASUAL_ONLY;
  private readonly committer: GroupCommitter;
  private readonly commitQueue: number;
  private readonly bus: EventBus | undefined;
  private readonly stopHearingReconnects: () => void;
  /** Writes admitted by `act` and not yet settled. */
  private admitted = 0;

  /** `store` holds the games (db/game-store.ts, or rooms/memory-store.ts); see `GameRoomsOptions`. */
  constructor(
    private readonly store: GameStore,
    options: GameRoomsOptions = {},
  ) {
    this.rooms = new RoomCache(options.maxLiveGames ?? 10_000);
    this.now = options.now ?? Date.now;
    this.commitQueue = Math.max(1, options.commitQueue ?? 256);
    this.committer = new GroupCommitter(store.writeMoves, { concurrency: options.commitConcurrency ?? 1 });
    this.bus = options.bus?.kind === 'single' ? undefined : options.bus;
    this.stopHearingReconnects = this.bus?.onReconnect(() => this.busReturned()) ?? (() => {});
  }

  /** Move-log flushes this node keeps in flight at once (GameRoomsOptions.commitConcurrency). */
  get commitConcurrency(): number {
    return this.committer.concurrency;
  }

  /** Group-commit counters (flushes, largest batch, …) since start. */
  get commitStats(): Readonly<GroupCommitStats> {
    return this.committer.stats;
  }

  /** Number of games in memory. */
  get size(): number {
    return this.rooms.size;
  }

  /**
   * Declares the policy of every kind of game (plugins/game-policies.ts, once the daily and race services
   * exist). Until then every kind follows the casual policy.
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
   * row its kind adds at creation. Errors: `RowExists` (rooms/store.ts) when that row's unique key is taken.
   */
  async createGame(spec: NewGameSpec): Promise<GameResponse> {
    return this.insert(spec, null);
  }

  /** Stores a new game at version 0 (with the row its kind adds, in one transaction). */
  private async insert(g: NewGameSpec, dealNumber: number | null): Promise<GameResponse> {
    const { room, record, view } = newRoom(g, dealNumber, this.now());
    await this.store.insert(record);
    this.rooms.add(room);
    return this.response(room, view);
  }

  /**
   * The game as its player sees it (GET /api/games/:id).
   * Errors: `not-found`; `unauthorized`/`forbidden` for a daily game of an open day read by another caller.
   */
  async get(id: string, actor: Actor = null): Promise<GameResponse> {
    const room = await this.current(id);
    const now = this.now();
    await this.checkRead(room, actor, now);
    return this.response(room, this.view(room, now));
  }

  /**
   * Every legal move now (GET /api/games/:id/legal-moves); empty once the game is over (or, for a ranked
   * attempt, once it has ended or its day has closed). Errors: as for `get`.
   */
  async legalMoves(id: string, actor: Actor = null): Promise<{ version: number; moves: Move[] }> {
    const room = await this.current(id);
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
    const room = await this.current(id);
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
   * (the origin's copy carries its request id) and returns the new version and view.
   * See `ActOptions` (`expectedVersion` undefined = no version check).
   * Errors: `not-found`; `unauthorized`/`forbidden` when the game belongs to another player; `conflict`
   * when a ranked attempt has ended or its day has closed; `stale-version` with the current version;
   * `illegal-move` with the rules' reason and the current version; database failures are thrown as they
   * are (nothing changes).
   */
  async act(id: string, action: GameAction, options: ActOptions = {}): Promise<StateResponse> {
    if (this.admitted >= this.commitQueue)
      throw new ApiError(
        'overloaded',
        'the server is busy: too many moves waiting to be stored; retry shortly',
      );
    this.admitted++;
    try {
      const found = this.room(id);
      return await (found instanceof Promise
        ? found.then((room) => this.actInRoom(room, action, options))
        : this.actInRoom(found, action, options));
    } finally {
      this.admitted--;
    }
  }

  private actInRoom(room: Room, action: GameAction, options: ActOptions): Promise<StateResponse> {
    const { expectedVersion, origin } = options;
    this.checkOwner(room, options.actor ?? null);
    const policy = this.policy(room);
    return this.exclusive(room, async () => {
      policy.checkWrite?.(room, this.now(), room.version);
      // A copy nobody here follows hears no other node's commits: a client ahead of it catches it up first,
      // and an action without a version (undo, resign) applies to the stored game, not to an older copy.
      if (
        this.bus &&
        (expectedVersion === undefined
          ? ((await this.store.version(room.id)) ?? room.version) > room.version
          : expectedVersion > room.version)
      )
        reload(room, await this.read(room.id));
      if (expectedVersion !== undefined && expectedVersion !== room.version) {
        throw new ApiError(
          'stale-version',
          `the game is at version ${room.version}, not ${expectedVersion}`,
          { version: room.version },
        );
      }
      const r = applyAction(room.state, action);
      if (!r.ok)
        throw new ApiError('illegal-move', r.error.message, { version: room.version, reason: r.error.code });
      const now = this.now();
      const { state, view, commit, result } = stepOf(room, action, r.value, now, policy);
      const version = commit.version;
      await this.commit(room, commit, result);
      if (result !== null) room.finished = true;
      room.state = state;
      // Not kept: held here, a view lives until the game's next move (a second and more at a human pace),
      // long enough to be copied by the young generation's collections and often moved to the old one; its
      // frame is sent, and a read rebuilds it with the status known here (no second R13 search).
      room.view = null;
      room.status = commit.status;
      room.version = version;
      room.startedAt = commit.startedAt;
      room.endedAt = commit.endedAt;
      this.broadcast(
        room,
        {
          type: 'state',
          gameId: room.id,
          version,
          view,
          cause: action.type,
          ...(action.type === 'move' ? { move: action.move } : {}),
        },
        origin,
        true,
      );
      if (result !== null) policy.afterResult?.(room);
      policy.afterCommit?.({ gameId: room.id, owner: room.owner, version, view, at: now });
      return { version, view };
    });
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
    const wasLive = this.rooms.get(id) !== undefined;
    const room = await this.room(id);
    try {
      const added = await this.exclusive(room, async () => {
        if (room.finished) return false;
        const row = decide(room, this.now(), (end) => {
          const timeMs = elapsedMs(room.startedAt, end, end);
          const view = playerView(room.state, timeMs);
          return { score: view.score, moves: view.moves, timeMs };
        });
        if (row === null) return false;
        const stored = await this.store.settle(room, row);
        room.finished = true;
        return stored;
      });
      if (added) this.policy(room).afterResult?.(room);
      return added;
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
    const room = await this.current(id);
    await this.checkRead(room, actor, this.now());
    await this.exclusive(room, async () => {
      room.subscribers.add(subscriber);
      this.listen(room);
      subscriber.send(room.frameText.text(this.currentFrame(room), room.state));
    });
  }

  /** Removes a subscriber from a game (no error when it was not subscribed). */
  unsubscribe(id: string, subscriber: Subscriber): void {
    const room = this.rooms.get(id);
    if (!room) return;
    if (room.subscribers.delete(subscriber) && room.subscribers.size === 0) this.rooms.touch(room);
    this.listen(room);
  }

  /** Whether `subscriber` is subscribed to game `id`. */
  isSubscribed(id: string, subscriber: Subscriber): boolean {
    return this.rooms.get(id)?.subscribers.has(subscriber) ?? false;
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
    const room = await this.current(id);
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
    return this.rooms.get(id)?.state;
  }

  /**
   * Forgets a game held in memory so that its next use replays it from the database. Only an idle game
   * (no subscribers, no queued write) is forgotten; returns whether it was.
   */
  evict(id: string): boolean {
    return this.rooms.evict(id);
  }

  /** Waits for every queued write to finish and forgets all rooms (on shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.rooms.values()].map((r) => r.tail));
    await this.committer.drain();
    for (const r of this.rooms.values()) r.unlisten?.();
    this.stopHearingReconnects();
    this.rooms.clear();
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

  /** The read rule of the game's kind (a daily game of an open day, a race game during its race). */
  private async checkRead(room: Room, actor: Actor, now: number): Promise<void> {
    await this.policy(room).checkRead?.(room, actor, 'read', now);
  }

  /** A game created for a player takes actions only from that player. */
  private checkOwner(room: Room, actor: Actor): void {
    if (room.owner === null) return;
    if (actor === null)
      throw new ApiError('unauthorized', "this game belongs to a player: send that player's token");
    if (actor !== room.owner) throw new ApiError('forbidden', 'this game belongs to another player');
  }

  /** The view at `now`: the room's cached view of its position with the score and clock of `now`. */
  private view(room: Room, now: number): WireView {
    const elapsed = elapsedMs(room.startedAt, this.clockEnd(room, now), now);
    if (room.view === null) room.view = wireView(playerView(room.state, elapsed, room.status));
    const ms = Math.max(0, Math.floor(elapsed));
    if (room.view.elapsedMs === ms) return room.view;
    return { ...room.view, score: currentScore(room.state, elapsed), elapsedMs: ms };
  }

  /** When the game's clock stopped: its end, or the moment its policy stopped it (a closed day), or null. */
  private clockEnd(room: Room, now: number): number | null {
    return room.endedAt ?? this.policy(room).clockEnd?.(room, now) ?? null;
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

  /** The room's current state as a `state` frame of cause `subscribe` (a (re)connect, a resync). */
  private currentFrame(room: Room): StateFrame {
    const view = this.view(room, this.now());
    return { type: 'state', gameId: room.id, version: room.version, view, cause: 'subscribe' };
  }

  /**
   * Sends a `state` frame to the game's subscribers here, and (a commit: `publish`) to the other nodes.
   * `frame.view` is the view of `room.state` (the room's frame writer keys its reused text on it).
   */
  private broadcast(room: Room, frame: StateFrame, origin: WriteOrigin | undefined, publish = false): void {
    // Serialised at most once for everyone else (often nobody: the mover is the only subscriber).
    let text: string | undefined;
    for (const s of room.subscribers)
      if (s !== origin?.subscriber) s.send((text ??= room.frameText.text(frame, room.state)));
    if (origin) {
      origin.subscriber.send(
        origin.requestId === undefined
          ? (text ?? room.frameText.text(frame, room.state))
          : room.frameText.text(frame, room.state, origin.requestId),
      );
    }
    if (publish && this.bus)
      this.bus.publish(`game:${room.id}`, {
        version: frame.version,
        frame: text ?? room.frameText.text(frame, room.state),
      } satisfies RemoteCommit);
  }

  /**
   * A commit of this game by another node: its frame goes to the sockets here (in the order that node
   * committed them), and the room is re-read from the database before its next use.
   */
  private remoteCommit(room: Room, message: unknown): void {
    if (!isRemoteCommit(message) || message.version <= Math.max(room.version, room.heard)) return;
    room.stale = true;
    room.heard = message.version;
    for (const s of room.subscribers) s.send(message.frame);
  }

  /**
   * The bus is back after an outage: any copy here may have missed commits of other nodes. Every room is
   * re-read before its next use, and the games followed here at once (their sockets get the current state).
   */
  private busReturned(): void {
    for (const room of this.rooms.values()) {
      room.stale = true;
      // The database away too: the room stays stale and is re-read on its next use.
      if (room.subscribers.size > 0) this.catchUp(room).catch(() => {});
    }
  }

  /**
   * The room for a read, at least as new as every commit acknowledged before the call on any node. One
   * node alone: its copy is the truth. Several: a copy that was already in memory (or being loaded by an
   * earlier call) is compared with the stored version, asked for at the same time, and re-read when behind.
   * Errors: `not-found`; database failures as they are (a 503 while the database is away).
   */
  private async current(id: string): Promise<Room> {
    if (!this.bus || !this.rooms.known(id)) return this.room(id);
    const [room, stored] = await Promise.all([this.room(id), this.store.version(id)]);
    if (stored !== null && stored > room.version) {
      room.stale = true;
      await this.catchUp(room);
    }
    return room;
  }

  /** Starts or stops following the game's commits on other nodes as it gains or loses local subscribers. */
  private listen(room: Room): void {
    if (!this.bus) return;
    if (room.subscribers.size > 0 && room.unlisten === null)
      room.unlisten = this.bus.subscribe(`game:${room.id}`, (m) => this.remoteCommit(room, m));
    else if (room.subscribers.size === 0 && room.unlisten !== null) {
      room.unlisten();
      room.unlisten = null;
    }
  }

  /**
   * Re-reads a room another node wrote (stale), in its write queue. Its sockets are sent the state read only
   * when it is newer than every frame they already heard from the other node (the bus was away, or the read
   * overtook a frame still on its way).
   */
  private async catchUp(room: Room): Promise<void> {
    await this.exclusive(room, async () => {
      if (!room.stale) return;
      const told = Math.max(room.version, room.heard);
      reload(room, await this.read(room.id));
      if (room.version <= told || room.subscribers.size === 0) return;
      room.heard = room.version;
      this.broadcast(room, this.currentFrame(room), undefined);
    });
  }

  /** Runs `fn` after every earlier write of this room (per-game serialisation). */
  private exclusive<T>(room: Room, fn: () => Promise<T>): Promise<T> {
    // Nothing queued for this game: every earlier write has settled, so `fn` starts now, and its own promise
    // is the write's (no turn of the queue, no promise adopting another).
    // `fn` must not start another write of this game before its first await (none does).
    const idle = room.pending === 0;
    room.pending++;
    const run = idle ? fn() : room.tail.then(fn);
    // The queue's tail settles with `run`, and its handlers run before the caller's (registered first), so
    // the write no longer counts as pending by the time its caller goes on.
    const done = (): void => {
      room.pending--;
    };
    room.tail = run.then(done, done);
    return run;
  }

  /**
   * The commit: optimistic version check and log append in one transaction; `w` is the move log's entry
   * (`w.gameId` = `room.id`), `result` the ranked attempt's leaderboard row when this action ends it.
   */
  private async commit(room: Room, w: MoveCommit, result: ResultRow | null): Promise<void> {
    if (result === null) {
      let committed: boolean;
      try {
        committed = await this.committer.submit(w);
      } catch (e) {
        if (!(e instanceof CommitFailedError)) throw e;
        // The database away (connection refused or lost): the same 503 `unavailable` as every other route.
        if (isDatabaseUnavailable(e))
          throw new ApiError('unavailable', 'the database is unreachable for a moment; retry shortly', {
            version: room.version,
          });
        throw new ApiError('commit-failed', 'the move could not be stored; the game is unchanged, retry', {
          version: room.version,
        });
      }
      if (committed) return;
    } else {
      // A ranked attempt's last action also inserts its leaderboard row: one transaction (rare).
      const outcome = await this.store.commitWithRow(room, w, result);
      if (outcome === 'committed') return;
      if (outcome === 'row-exists') {
        room.finished = true;
        throw new ApiError('conflict', 'this ranked attempt has already ended (the day may have closed)', {
          version: room.version,
        });
      }
    }
    // Another node wrote this game: our copy is behind. Catch up and report the database's version.
    const version = await this.refresh(room);
    throw new ApiError('stale-version', `the game is at version ${version}`, { version });
  }

  /**
   * The room of a game, loading it from the database when it is not in memory: the room itself when it is
   * in memory and current (no promise to wait for on every move), else a promise of it.
   */
  private room(id: string): Room | Promise<Room> {
    const cached = this.rooms.get(id);
    if (cached) {
      // Most recently used last. A room with subscribers is never evicted, so its place in that order
      // matters only once its last subscriber leaves, which touches it then (`unsubscribe`).
      if (cached.subscribers.size === 0) this.rooms.touch(cached);
      if (cached.stale) return this.catchUp(cached).then(() => cached);
      return cached;
    }
    return this.rooms.loadOnce(id, () => this.load(id));
  }

  /** Reads the game and its log, and replays it from the deal. Errors: `not-found`. */
  private async read(id: string): Promise<Stored> {
    const row = await this.store.load(id);
    if (!row) throw new ApiError('not-found', `no game ${id}`);
    return replayed(row);
  }

  private async load(id: string): Promise<Room> {
    const room = liveRoom(await this.read(id));
    // A concurrent create/load may have raced us; keep the first.
    const existing = this.rooms.get(id);
    if (existing) return existing;
    this.rooms.add(room);
    return room;
  }

  /**
   * Re-reads a room whose copy is behind the database (another node wrote the game), in place so its
   * subscribers stay, and sends them the fresh state. Returns the database's version.
   */
  private async refresh(room: Room): Promise<number> {
    reload(room, await this.read(room.id));
    this.broadcast(room, this.currentFrame(room), undefined);
    return room.version;
  }
}
