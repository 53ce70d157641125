/**
 * Game rooms: the in-memory owner of every live game.
 *
 * A room holds a game's engine state (which contains hidden cards and never leaves this module except
 * through `playerView`), its version (= length of its move log), its clock and its WebSocket subscribers.
 *
 * Writes (moves, undo, resign, subscribe) to one game run one at a time, in arrival order (a promise
 * chain per room). Each write is validated by the rules package, then committed in ONE database
 * transaction — `UPDATE "Game" … WHERE id = ? AND version = expected` plus `INSERT "Move"` with
 * `seq = version + 1` — and only after the commit does the room change, the caller get its answer and the
 * subscribers get their state frame. A write refused by the rules or by the version check changes nothing.
 *
 * Scale-out (PRODUCT.md): each live game is owned by one node at a time; the optimistic version check in
 * the database refuses a write from a node whose cached copy is behind (the room is then dropped and
 * reloaded on next use).
 */
import { randomBytes, randomInt } from 'node:crypto';
import {
  type CreateGameBody,
  type GameResponse,
  MoveSchema,
  GameOptionsSchema,
  type ServerFrame,
  type StateResponse,
} from '@klondike/protocol';
import {
  DEFAULT_PRESET,
  type Deal,
  type GameAction,
  type GameOptions,
  type GameState,
  type GameStatus,
  MAX_DEAL_NUMBER,
  type Move,
  PRESETS,
  type PlayerView,
  type PresetName,
  applyAction,
  dealFromNumber,
  formatDeal,
  gameStatus,
  isPresetName,
  legalMoves,
  newGame,
  parseDeal,
  playerView,
  resolveOptions,
} from '@klondike/rules';
import { ApiError } from '../errors.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';

/** Something that receives serialised server frames (a WebSocket connection). */
export interface Subscriber {
  /** Sends one frame, already serialised as JSON text. Must not throw. */
  send(frame: string): void;
}

/** Who asked for a write over a WebSocket: its answer (a state frame) carries the request id. */
export interface WriteOrigin {
  readonly subscriber: Subscriber;
  readonly requestId?: string;
}

/** Options of `GameRooms`. */
export interface GameRoomsOptions {
  /** Most rooms kept in memory; idle rooms without subscribers are evicted first (least recently used). */
  readonly maxLiveGames?: number;
  /** The server clock in ms since the epoch (default `Date.now`); injectable for tests. */
  readonly now?: () => number;
}

interface Room {
  readonly id: string;
  readonly preset: PresetName | null;
  readonly dealNumber: number | null;
  /** The deal in public notation (secret until the game has ended). */
  readonly deal: string;
  state: GameState;
  status: GameStatus;
  version: number;
  /** Server time (ms) of the first logged action, or null. */
  startedAt: number | null;
  /** Server time (ms) at which the game became won/resigned/blocked, or null while playing. */
  endedAt: number | null;
  readonly subscribers: Set<Subscriber>;
  /** Tail of the room's write queue. */
  tail: Promise<void>;
  /** Writes queued or running. */
  pending: number;
}

/** Game time in ms by the server's clock: 0 before the first move, now − start while playing, end − start once ended. */
export function elapsedMs(startedAt: number | null, endedAt: number | null, now: number): number {
  if (startedAt === null) return 0;
  return Math.max(0, (endedAt ?? now) - startedAt);
}

function sameOptions(a: GameOptions, b: GameOptions): boolean {
  return (
    (Object.keys(b) as (keyof GameOptions)[]).every((k) => a[k] === b[k]) &&
    Object.keys(a).length === Object.keys(b).length
  );
}

/** A new random game id: 16 URL-safe characters (96 random bits). */
export function newGameId(): string {
  return randomBytes(12).toString('base64url');
}

/** A view as the wire schemas type it (mutable arrays). */
export type WireView = GameResponse['view'];

/** Copies a `playerView` result into the wire shape (same content; arrays copied, not cast). */
export function wireView(view: PlayerView): WireView {
  return {
    ...view,
    options: { ...view.options },
    tableau: view.tableau.map((p) => ({ faceDown: p.faceDown, faceUp: [...p.faceUp] })),
    foundations: { ...view.foundations },
    stock: { count: view.stock.count },
    waste: [...view.waste],
  };
}

/** Thrown inside the commit transaction when the database's version is not the expected one. */
class VersionConflict extends Error {}

/** The live games of this server. All public methods throw `ApiError` for refusals. */
export class GameRooms {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room>>();
  private readonly maxLiveGames: number;
  private readonly now: () => number;

  /** `prisma` is the open database; see `GameRoomsOptions`. */
  constructor(
    private readonly prisma: PrismaClient,
    options: GameRoomsOptions = {},
  ) {
    this.maxLiveGames = options.maxLiveGames ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Number of games in memory. */
  get size(): number {
    return this.rooms.size;
  }

  /**
   * Creates a game (POST /api/games): options = preset (default classic-draw1) + overrides; the deal from
   * `deal` (52 codes), `dealNumber`, or a random deal number (crypto). Stores it at version 0.
   * Errors: `bad-request` for an unreadable deal or deal number.
   */
  async create(body: CreateGameBody): Promise<GameResponse> {
    const base = body.preset ?? DEFAULT_PRESET;
    const options = resolveOptions(base, body.options ?? {});
    const preset = sameOptions(options, PRESETS[base]) ? base : null;
    let deal: Deal;
    let dealNumber: number | null = null;
    if (body.deal !== undefined) {
      const r = parseDeal(body.deal);
      if (!r.ok) throw new ApiError('bad-request', r.error.message);
      deal = r.value;
    } else {
      dealNumber = body.dealNumber ?? randomInt(1, MAX_DEAL_NUMBER + 1);
      const r = dealFromNumber(dealNumber);
      if (!r.ok) throw new ApiError('bad-request', r.error.message);
      deal = r.value;
    }
    const state = newGame(deal, options);
    const now = this.now();
    const view = wireView(playerView(state, 0)); // no move yet: the clock has not started
    const status = view.status;
    const room: Room = {
      id: newGameId(),
      preset,
      dealNumber,
      deal: formatDeal(deal),
      state,
      status,
      version: 0,
      startedAt: null,
      endedAt: status === 'playing' ? null : now,
      subscribers: new Set(),
      tail: Promise.resolve(),
      pending: 0,
    };
    await this.prisma.game.create({
      data: {
        id: room.id,
        preset,
        options: { ...options },
        deal: room.deal,
        dealNumber: dealNumber === null ? null : BigInt(dealNumber),
        version: 0,
        status,
        score: view.score,
        moves: view.moves,
        createdAt: new Date(now),
        endedAt: room.endedAt === null ? null : new Date(room.endedAt),
      },
    });
    this.remember(room);
    return this.response(room, view);
  }

  /** The game as its player sees it (GET /api/games/:id). Errors: `not-found`. */
  async get(id: string): Promise<GameResponse> {
    const room = await this.room(id);
    return this.response(room, this.view(room, this.now()));
  }

  /** Every legal move now (GET /api/games/:id/legal-moves); empty once the game is over. Errors: `not-found`. */
  async legalMoves(id: string): Promise<{ version: number; moves: Move[] }> {
    const room = await this.room(id);
    return { version: room.version, moves: legalMoves(room.state) };
  }

  /**
   * The full deal (GET /api/games/:id/deal), only once the game has ended: won or resigned. A blocked game
   * (R13) has not ended — undo can still take it back — so its deal stays secret until the player resigns.
   * Errors: `not-found`; `forbidden` while the game can still be played.
   */
  async deal(id: string): Promise<{ deal: string; dealNumber: number | null }> {
    const room = await this.room(id);
    if (room.status !== 'won' && room.status !== 'resigned')
      throw new ApiError('forbidden', 'the deal is revealed only once the game has been won or resigned');
    return { deal: room.deal, dealNumber: room.dealNumber };
  }

  /**
   * Applies a move, undo or resignation, commits it, then broadcasts a state frame to every subscriber
   * (the origin's copy carries its request id) and returns the new version and view.
   * `expectedVersion` undefined = no version check (undo/resign over REST without a version).
   * Errors: `not-found`; `stale-version` with the current version; `illegal-move` with the rules' reason
   * and the current version; database failures are thrown as they are (nothing changes).
   */
  async act(
    id: string,
    action: GameAction,
    expectedVersion: number | undefined,
    origin?: WriteOrigin,
  ): Promise<StateResponse> {
    const room = await this.room(id);
    return this.exclusive(room, async () => {
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
      const state = r.value;
      const startedAt = room.startedAt ?? now;
      // The status comes from the view (playerView computes it; the R13 search is not cheap, so once).
      // The clock stops at `endedAt`: now for a game that ends with this action, which is also the
      // elapsed time the first view used; only a game that was already blocked needs a second view.
      let view = wireView(playerView(state, elapsedMs(startedAt, null, now)));
      const status = view.status;
      const endedAt = status === 'playing' ? null : (room.endedAt ?? now);
      if (endedAt !== null && endedAt !== now)
        view = wireView(playerView(state, elapsedMs(startedAt, endedAt, now)));
      const version = room.version + 1;
      await this.commit(room, {
        version,
        status,
        score: view.score,
        moves: view.moves,
        startedAt,
        endedAt,
        kind: action.type,
        move: action.type === 'move' ? action.move : null,
      });
      room.state = state;
      room.status = status;
      room.version = version;
      room.startedAt = startedAt;
      room.endedAt = endedAt;
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
      );
      return { version, view };
    });
  }

  /**
   * Adds a subscriber to a game and sends it a `state` frame (cause `subscribe`) with the current version:
   * the (re)connect and resync path. Ordered with the game's writes, so no frame is missed or reordered.
   * Errors: `not-found`.
   */
  async subscribe(id: string, subscriber: Subscriber): Promise<void> {
    const room = await this.room(id);
    await this.exclusive(room, async () => {
      room.subscribers.add(subscriber);
      const frame: ServerFrame = {
        type: 'state',
        gameId: room.id,
        version: room.version,
        view: this.view(room, this.now()),
        cause: 'subscribe',
      };
      subscriber.send(JSON.stringify(frame));
    });
  }

  /** Removes a subscriber from a game (no error when it was not subscribed). */
  unsubscribe(id: string, subscriber: Subscriber): void {
    this.rooms.get(id)?.subscribers.delete(subscriber);
  }

  /** Whether `subscriber` is subscribed to game `id`. */
  isSubscribed(id: string, subscriber: Subscriber): boolean {
    return this.rooms.get(id)?.subscribers.has(subscriber) ?? false;
  }

  /**
   * A game's current position for the solver (GET /api/games/:id/hint): the engine state without its undo
   * history, its version and status. The state holds hidden cards: it goes to a solver thread only, never
   * to a client. Errors: `not-found`.
   */
  async position(id: string): Promise<{ state: GameState; version: number; status: GameStatus }> {
    const room = await this.room(id);
    return { state: { ...room.state, history: null }, version: room.version, status: room.status };
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
    const room = this.rooms.get(id);
    if (!room || room.subscribers.size > 0 || room.pending > 0) return false;
    return this.rooms.delete(id);
  }

  /** Waits for every queued write to finish and forgets all rooms (on shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.rooms.values()].map((r) => r.tail));
    this.rooms.clear();
  }

  // ---------- internals ----------

  private view(room: Room, now: number): WireView {
    return wireView(playerView(room.state, elapsedMs(room.startedAt, room.endedAt, now)));
  }

  private response(room: Room, view: WireView): GameResponse {
    return { id: room.id, version: room.version, view, preset: room.preset, dealNumber: room.dealNumber };
  }

  private broadcast(
    room: Room,
    frame: ServerFrame & { type: 'state' },
    origin: WriteOrigin | undefined,
  ): void {
    const text = JSON.stringify(frame);
    for (const s of room.subscribers) if (s !== origin?.subscriber) s.send(text);
    if (origin) {
      const own: ServerFrame =
        origin.requestId === undefined ? frame : { ...frame, requestId: origin.requestId };
      origin.subscriber.send(own === frame ? text : JSON.stringify(own));
    }
  }

  /** Runs `fn` after every earlier write of this room (per-game serialisation). */
  private exclusive<T>(room: Room, fn: () => Promise<T>): Promise<T> {
    room.pending++;
    const run = room.tail.then(fn);
    room.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => {
      room.pending--;
    });
  }

  /** The commit: optimistic version check and log append in one transaction. */
  private async commit(
    room: Room,
    w: {
      version: number;
      status: GameStatus;
      score: number;
      moves: number;
      startedAt: number;
      endedAt: number | null;
      kind: GameAction['type'];
      move: Move | null;
    },
  ): Promise<void> {
    try {
      await this.prisma.$transaction(async (tx) => {
        const updated = await tx.game.updateMany({
          where: { id: room.id, version: w.version - 1 },
          data: {
            version: w.version,
            status: w.status,
            score: w.score,
            moves: w.moves,
            startedAt: new Date(w.startedAt),
            endedAt: w.endedAt === null ? null : new Date(w.endedAt),
          },
        });
        if (updated.count !== 1) throw new VersionConflict();
        await tx.move.create({
          data: {
            gameId: room.id,
            seq: w.version,
            kind: w.kind,
            move: w.move === null ? Prisma.DbNull : { ...w.move },
          },
        });
      });
    } catch (e) {
      const conflict =
        e instanceof VersionConflict ||
        (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002');
      if (!conflict) throw e;
      // Another node wrote this game: our copy is behind. Catch up and report the database's version.
      const version = await this.refresh(room);
      throw new ApiError('stale-version', `the game is at version ${version}`, { version });
    }
  }

  /** The room of a game, loading it from the database when it is not in memory. */
  private async room(id: string): Promise<Room> {
    const cached = this.rooms.get(id);
    if (cached) {
      this.rooms.delete(id);
      this.rooms.set(id, cached); // most recently used last
      return cached;
    }
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  /** Reads Game + its log ordered by seq and replays it from the deal. Errors: `not-found`. */
  private async read(id: string): Promise<Omit<Room, 'subscribers' | 'tail' | 'pending'>> {
    const row = await this.prisma.game.findUnique({
      where: { id },
      include: { log: { orderBy: { seq: 'asc' } } },
    });
    if (!row) throw new ApiError('not-found', `no game ${id}`);
    const options = GameOptionsSchema.parse(row.options);
    const dealResult = parseDeal(row.deal);
    if (!dealResult.ok) throw new Error(`game ${id}: stored deal unreadable: ${dealResult.error.message}`);
    let state = newGame(dealResult.value, options);
    for (const entry of row.log) {
      const action: GameAction =
        entry.kind === 'move' ? { type: 'move', move: MoveSchema.parse(entry.move) } : { type: entry.kind };
      const r = applyAction(state, action);
      if (!r.ok) throw new Error(`game ${id}: log entry ${entry.seq} does not replay: ${r.error.code}`);
      state = r.value;
    }
    if (row.log.length !== row.version)
      throw new Error(`game ${id}: version ${row.version} but ${row.log.length} log entries`);
    return {
      id,
      preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
      dealNumber: row.dealNumber === null ? null : Number(row.dealNumber),
      deal: row.deal,
      state,
      status: gameStatus(state),
      version: row.version,
      startedAt: row.startedAt?.getTime() ?? null,
      endedAt: row.endedAt?.getTime() ?? null,
    };
  }

  private async load(id: string): Promise<Room> {
    const room: Room = {
      ...(await this.read(id)),
      subscribers: new Set(),
      tail: Promise.resolve(),
      pending: 0,
    };
    // A concurrent create/load may have raced us; keep the first.
    const existing = this.rooms.get(id);
    if (existing) return existing;
    this.remember(room);
    return room;
  }

  /**
   * Re-reads a room whose copy is behind the database (another node wrote the game), in place so its
   * subscribers stay, and sends them the fresh state. Returns the database's version.
   */
  private async refresh(room: Room): Promise<number> {
    const fresh = await this.read(room.id);
    room.state = fresh.state;
    room.status = fresh.status;
    room.version = fresh.version;
    room.startedAt = fresh.startedAt;
    room.endedAt = fresh.endedAt;
    this.broadcast(
      room,
      {
        type: 'state',
        gameId: room.id,
        version: room.version,
        view: this.view(room, this.now()),
        cause: 'subscribe',
      },
      undefined,
    );
    return room.version;
  }

  private remember(room: Room): void {
    this.rooms.set(room.id, room);
    if (this.rooms.size <= this.maxLiveGames) return;
    for (const [id, r] of this.rooms) {
      if (this.rooms.size <= this.maxLiveGames) break;
      if (r.subscribers.size === 0 && r.pending === 0 && r !== room) this.rooms.delete(id);
    }
  }
}
