/**
 * The WebSocket half of the client: one connection to `/api/ws` that subscribes to games, sends moves with
 * the version rule, resyncs after a gap or a reconnect, and turns error frames into `KlondikeError`s.
 *
 * The version rule: every move, undo or resign carries the version the client last saw; the server applies
 * it only at that version and answers with a `state` frame at version + 1, or with `stale-version` (the game
 * moved on; the frame carries the current version). So a request sent twice is applied at most once, which
 * is what makes retrying after a lost connection safe:
 *
 * - A request whose answer was lost with the connection is kept. After reconnecting, the helper re-sends
 *   `auth`, re-subscribes to every game (the server answers with the current state), and then looks at the
 *   version: still the version the request was sent at → it was not applied, so it is sent again; moved on →
 *   it was applied before the connection dropped, and it resolves with the new state. A re-sent request
 *   refused as `stale-version` was applied by its first copy (the server was still finishing it while the
 *   helper reconnected): it too resolves with the state after a resync. This assumes one writer per game
 *   (a player and their game); with several writers a request may instead resolve with their move's state.
 * - Every `state` frame holds the whole view, so a gap (a frame skipped, the version jumping by more than
 *   one) is closed by taking the newer frame; frames older than the version held are ignored.
 * - Requests of one game are sent one at a time, each with the version the previous one produced.
 *
 * The version rule, the queue and the resync are the game session's (session.ts, shared with the web app's
 * `useGame`); a `GameHandle` is its adapter, with requests as promises.
 *
 * The connection itself (reconnects with backoff, `auth` first on every connection) is connection.ts, which
 * the web app's socket runs on too. Works with the browsers' WebSocket and Node 22's global one; on Node 20
 * pass one (the `ws` package's `WebSocket`) as `WebSocket`.
 */
import type { ClientFrame, ServerFrame } from '@klondike/protocol';
import { type Connection, type WebSocketClass, createConnection } from './connection.js';
import { KlondikeError, type KlondikeErrorCode } from './errors.js';
import { GameSession, type RequestKind, type SentRequest, type SessionRefusal } from './session.js';

export type { WebSocketClass, WebSocketLike } from './connection.js';

/** A move in the public notation, as the protocol package defines it (draw, recycle, move, …). */
export type Move = Extract<ClientFrame, { type: 'move' }>['move'];
export type { ServerFrame, ClientFrame };
/** A `state` frame: a game's whole view at a version. */
export type StateFrame = Extract<ServerFrame, { type: 'state' }>;
/** What a player may see of a game (face-up cards, counts of hidden ones, status, score). */
export type PlayerView = StateFrame['view'];
type ErrorFrame = Extract<ServerFrame, { type: 'error' }>;

/** A game at a version, as the helper holds it. */
export interface GameState {
  readonly gameId: string;
  readonly version: number;
  readonly view: PlayerView;
}

/** Options of `KlondikeSocket.connect`. */
export interface KlondikeSocketOptions {
  /** `ws(s)://host/api/ws` (`KlondikeClient.socketUrl()` gives it). */
  readonly url: string;
  /** Player token: sent as an `auth` frame on every (re)connection (needed for games owned by a player). */
  readonly token?: string;
  /** WebSocket implementation (default: the global one; Node 20 has none: pass `ws`'s WebSocket). */
  readonly WebSocket?: WebSocketClass;
  /** Reconnect after an unexpected close (default true), waiting `minDelayMs` doubling up to `maxDelayMs`. */
  readonly reconnect?: boolean;
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  /** How long to wait for an answer to auth or subscribe before giving up on a connection, ms (default 10 s). */
  readonly answerTimeoutMs?: number;
}

/** Events of a socket: `reconnect` after a lost connection was restored and every game resynced. */
export type SocketEvent = 'reconnect' | 'disconnect';

/** The error a refusal of the session becomes (a `cancelled` one cannot happen with the `keep` queue). */
function errorOfRefusal(r: SessionRefusal, gameId: string): KlondikeError {
  return new KlondikeError(r.code as KlondikeErrorCode, r.message, {
    ...(r.version !== undefined ? { version: r.version } : {}),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    gameId,
  });
}

/** A frame the helper waits for (an answer to auth or subscribe). */
interface Waiter {
  match(f: ServerFrame): boolean;
  resolve(f: ServerFrame): void;
  reject(e: KlondikeError): void;
}

/** `e` as a KlondikeError (anything else becomes a `network` one). */
function asKlondikeError(e: unknown): KlondikeError {
  return e instanceof KlondikeError ? e : new KlondikeError('network', String(e));
}

function errorOf(f: ErrorFrame): KlondikeError {
  return new KlondikeError(f.code, f.message, {
    ...(f.version !== undefined ? { version: f.version } : {}),
    ...(f.reason !== undefined ? { reason: f.reason } : {}),
    ...(f.gameId !== undefined ? { gameId: f.gameId } : {}),
  });
}

/** Handles made so far: each one's request ids have their own prefix (one connection carries them all). */
let handles = 0;

/**
 * One subscribed game: an adapter of a `GameSession` (session.ts: the version rule, the queue, resync) with
 * the `keep` queue, whose transport is the socket. Its requests are promises.
 */
export class GameHandle {
  /** The game's id. */
  readonly gameId: string;
  /** @internal The session (the version rule, the queue of requests). */
  readonly session: GameSession<PlayerView, Move>;
  private current: GameState;
  /** The frame being taken (handed to the state listeners). */
  private frame: StateFrame | null = null;
  private readonly listeners = new Set<(state: GameState, frame: StateFrame | null) => void>();

  /** @internal Made by `KlondikeSocket.subscribe`. */
  constructor(
    private readonly socket: KlondikeSocket,
    first: StateFrame,
  ) {
    this.gameId = first.gameId;
    this.current = { gameId: first.gameId, version: first.version, view: first.view };
    this.session = new GameSession<PlayerView, Move>({
      queue: 'keep',
      idPrefix: `g${++handles}r`,
      transport: {
        send: (request) => socket.sendRequest(this.gameId, request),
        resync: () => void socket.resyncGame(this),
      },
    });
    this.session.reset({ version: first.version, view: first.view });
    this.session.onChange(() => {
      const c = this.session.confirmed;
      if (!c || c.version === this.current.version) return;
      this.current = { gameId: this.gameId, version: c.version, view: c.view };
      for (const l of this.listeners) l(this.current, this.frame);
    });
  }

  /** The latest state the helper holds. */
  get state(): GameState {
    return this.current;
  }
  /** The latest version the helper holds (what the next request is sent at). */
  get version(): number {
    return this.current.version;
  }
  /** The latest view. */
  get view(): PlayerView {
    return this.current.view;
  }

  /**
   * Calls `listener` with every newer state (own moves, other clients' moves, resyncs). Returns a function
   * that removes it.
   */
  onState(listener: (state: GameState, frame: StateFrame | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Plays a move at the version held (or `options.version`) and resolves with the state after it.
   * Rejects with a `KlondikeError`: `illegal-move` (`reason` = the rule), `stale-version` (`version` = the
   * current one; the helper resyncs), `conflict` (the game is over), `not-found`, `forbidden`, …
   */
  move(move: Move, options: { version?: number } = {}): Promise<GameState> {
    return this.enqueue('move', move, options.version);
  }

  /** Takes back the last move (when the game allows undo). Errors as for `move`. */
  undo(options: { version?: number } = {}): Promise<GameState> {
    return this.enqueue('undo', undefined, options.version);
  }

  /** Resigns the game. Errors as for `move`. */
  resign(options: { version?: number } = {}): Promise<GameState> {
    return this.enqueue('resign', undefined, options.version);
  }

  /** Stops receiving this game's frames. */
  unsubscribe(): void {
    this.socket.forget(this);
  }

  private enqueue(
    kind: RequestKind,
    move: Move | undefined,
    version: number | undefined,
  ): Promise<GameState> {
    if (this.socket.isClosed) return Promise.reject(new KlondikeError('network', 'the socket was closed'));
    return new Promise<GameState>((resolve, reject) => {
      this.session.request(kind, move, {
        ...(version !== undefined ? { version } : {}),
        settle: (outcome) => {
          if (outcome.ok) resolve({ gameId: this.gameId, ...outcome.state });
          else reject(errorOfRefusal(outcome.refusal, this.gameId));
        },
      });
    });
  }

  /**
   * @internal Takes a state frame: the answer to a request, a resync's (`resync`: taken even when older), or
   * one from elsewhere (taken when newer: a gap is closed by the newer frame, which holds the whole view).
   */
  take(frame: StateFrame, resync: boolean): void {
    this.frame = frame;
    this.session.receive(
      { version: frame.version, view: frame.view },
      { ...(frame.requestId !== undefined ? { requestId: frame.requestId } : {}), resync },
    );
    this.frame = null;
  }
}

/**
 * A connection to `/api/ws` that stays up: it reconnects after an unexpected close, re-authenticates,
 * resyncs every subscribed game and settles the requests that were in flight (see the module comment).
 */
export class KlondikeSocket {
  private conn: Connection | null = null;
  private readonly games = new Map<string, GameHandle>();
  private readonly waiters = new Set<Waiter>();
  private readonly events = new Map<SocketEvent, Set<() => void>>();
  private closed = false;
  /** The connection is open and every game resynced (a close then is a `disconnect`). */
  private up = false;
  /** Settles once the connection is up again: subscriptions wait for it. */
  private ready: Promise<void> = Promise.resolve();
  private readyNow: { resolve: () => void; reject: (e: KlondikeError) => void } | null = null;
  private readonly WS: WebSocketClass;

  private constructor(private readonly opts: KlondikeSocketOptions) {
    const WS = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
    if (WS === undefined)
      throw new KlondikeError(
        'network',
        'no WebSocket implementation: pass one as `WebSocket` (Node 20: the `ws` package)',
      );
    this.WS = WS;
  }

  /** Opens a connection (and authenticates when a token is given). Errors: `network`, `unknown-token`. */
  static async connect(options: KlondikeSocketOptions): Promise<KlondikeSocket> {
    const socket = new KlondikeSocket(options);
    try {
      await socket.start();
    } catch (e) {
      socket.close();
      throw e;
    }
    return socket;
  }

  /** Whether the socket was closed for good (`close`, or a close without `reconnect`). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Calls `listener` on `reconnect` (connection restored, games resynced) or `disconnect`. */
  on(event: SocketEvent, listener: () => void): () => void {
    let set = this.events.get(event);
    if (!set) {
      set = new Set();
      this.events.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * Subscribes to a game and resolves with its handle at the current state (a second call for the same
   * game returns the same handle, resynced). Errors: `not-found`, `forbidden`, `unauthorized`, `network`.
   */
  async subscribe(gameId: string): Promise<GameHandle> {
    await this.ready;
    const first = await this.subscribeFrame(gameId);
    const known = this.games.get(gameId);
    if (known) {
      known.take(first, true);
      return known;
    }
    const handle = new GameHandle(this, first);
    this.games.set(gameId, handle);
    return handle;
  }

  /**
   * Drops the current connection as a network failure would (the reconnect path runs). For tests and for
   * callers that know the network changed.
   */
  dropConnection(): void {
    this.conn?.drop();
  }

  /** Closes the connection for good: requests in flight reject with `network`. */
  close(): void {
    this.closed = true;
    const e = new KlondikeError('network', 'the socket was closed');
    this.failAll(e);
    this.readyNow?.reject(e);
    this.readyNow = null;
    this.conn?.close();
    this.conn = null;
  }

  /** @internal Stops tracking a game (GameHandle.unsubscribe). */
  forget(handle: GameHandle): void {
    if (this.games.get(handle.gameId) !== handle) return;
    this.games.delete(handle.gameId);
    this.send({ type: 'unsubscribe', gameId: handle.gameId });
  }

  /** @internal The session's transport: sends a request of `gameId` when the connection is up. */
  sendRequest(gameId: string, r: SentRequest<Move>): boolean {
    if (!this.up || this.closed || this.conn === null) return false;
    const base = { gameId, version: r.version, requestId: r.requestId };
    if (r.kind === 'move' && r.move !== undefined)
      return this.conn.send({ type: 'move', move: r.move, ...base });
    if (r.kind === 'undo') return this.conn.send({ type: 'undo', ...base });
    return this.conn.send({ type: 'resign', ...base });
  }

  /**
   * @internal The session's resync (after a `stale-version` refusal): subscribes again and hands the state
   * over. A failure (the connection lost) is left to the reconnect, which resyncs every game.
   */
  async resyncGame(game: GameHandle): Promise<void> {
    try {
      game.take(await this.subscribeFrame(game.gameId), true);
    } catch {
      // The reconnect resyncs anyway.
    }
  }

  // ---------- connection ----------

  /**
   * Opens the connection (connection.ts: plain doubling backoff, no ping) and resolves once it is up: open,
   * authenticated. Rejects with `network` when it cannot open, or with the refusal of the token.
   */
  private start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let opened = false;
      const first = {
        resolve: () => {
          if (settled) return;
          settled = true;
          resolve();
        },
        reject: (e: KlondikeError) => {
          if (settled) return;
          settled = true;
          reject(e);
        },
      };
      const conn = createConnection({
        url: this.opts.url,
        WebSocket: this.WS,
        token: this.opts.token ?? null,
        minDelayMs: this.opts.minDelayMs ?? 100,
        maxDelayMs: this.opts.maxDelayMs ?? 5000,
        random: () => 1,
        pingEveryMs: 0,
        openTimeoutMs: 0,
        reconnect: this.opts.reconnect !== false,
      });
      this.conn = conn;
      conn.onFrame((f) => this.onFrame(f));
      conn.onStatus((status) => {
        if (status !== 'closed') return;
        if (!settled && !opened) first.reject(new KlondikeError('network', `cannot open ${this.opts.url}`));
        this.onClose();
      });
      conn.onOpen(() => {
        opened = true;
        const run = this.resync();
        if (!settled) {
          run.then(first.resolve, (e: unknown) => first.reject(asKlondikeError(e)));
          return;
        }
        run.then(
          () => this.emit('reconnect'),
          () => conn.drop(), // try again (the connection waits its backoff)
        );
      });
    });
  }

  /**
   * On a (re)connection (its `auth` already sent by the connection): waits for the token's answer, resyncs
   * every game (which settles or re-sends the requests in flight), then lets the waiting requests go.
   */
  private async resync(): Promise<void> {
    if (this.opts.token !== undefined)
      await this.answer((f) => f.type === 'authed' || (f.type === 'error' && f.gameId === undefined));
    for (const game of [...this.games.values()]) {
      try {
        game.take(await this.subscribeFrame(game.gameId), true);
      } catch (e) {
        // The server refused this game now (e.g. a token no longer valid for it): its requests fail with
        // that error and the helper stops tracking it; a lost connection fails the whole attempt.
        if (!(e instanceof KlondikeError) || e.code === 'network') throw e;
        this.games.delete(game.gameId);
        game.session.abort(e);
      }
    }
    this.up = true;
    for (const game of this.games.values()) game.session.flush();
    this.readyNow?.resolve();
    this.readyNow = null;
  }

  /** The connection closed: waiters fail; requests wait for the reconnection (or fail when there is none). */
  private onClose(): void {
    for (const w of this.waiters) w.reject(new KlondikeError('network', 'the connection closed'));
    this.waiters.clear();
    if (this.closed) return;
    const wasUp = this.up;
    this.up = false;
    for (const game of this.games.values()) game.session.lost();
    if (wasUp) this.emit('disconnect');
    if (this.opts.reconnect === false) {
      this.closed = true;
      const e = new KlondikeError('network', 'the connection closed');
      this.failAll(e);
      this.readyNow?.reject(e);
      this.readyNow = null;
      return;
    }
    if (this.readyNow === null) {
      this.ready = new Promise<void>((resolve, reject) => {
        this.readyNow = { resolve, reject };
      });
      // Subscriptions waiting on `ready` must not see an unhandled rejection before they attach.
      this.ready.catch(() => undefined);
    }
  }

  private emit(event: SocketEvent): void {
    for (const l of this.events.get(event) ?? []) l();
  }

  private failAll(e: KlondikeError): void {
    for (const game of this.games.values()) game.session.abort(e);
    for (const w of this.waiters) w.reject(e);
    this.waiters.clear();
  }

  // ---------- frames ----------

  private send(frame: ClientFrame): void {
    this.conn?.send(frame);
  }

  /** Subscribes and waits for the game's `state` (cause subscribe) or its error. */
  private async subscribeFrame(gameId: string): Promise<StateFrame> {
    const version = this.games.get(gameId)?.version;
    this.send({ type: 'subscribe', gameId, ...(version !== undefined ? { version } : {}) });
    const f = await this.answer(
      (x) =>
        (x.type === 'state' && x.gameId === gameId && x.cause === 'subscribe') ||
        (x.type === 'error' && x.gameId === gameId && x.requestId === undefined),
    );
    if (f.type !== 'state') throw new KlondikeError('protocol', 'unexpected answer to subscribe');
    return f;
  }

  /** Waits for the first frame matching `match`; an error frame among them rejects. */
  private answer(match: (f: ServerFrame) => boolean): Promise<ServerFrame> {
    return new Promise<ServerFrame>((resolve, reject) => {
      const timeoutMs = this.opts.answerTimeoutMs ?? 10_000;
      const waiter: Waiter = {
        match,
        resolve: (f) => {
          clearTimeout(timer);
          if (f.type === 'error') reject(errorOf(f));
          else resolve(f);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new KlondikeError('network', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private onFrame(f: ServerFrame): void {
    for (const w of this.waiters) {
      if (w.match(f)) {
        this.waiters.delete(w);
        w.resolve(f);
        break;
      }
    }
    if (f.type === 'state') {
      // A subscribe's answer is handed over as a resync by whoever subscribed; here it counts when newer.
      this.games.get(f.gameId)?.take(f, false);
    } else if (f.type === 'error' && f.requestId !== undefined) {
      const refusal: SessionRefusal = {
        code: f.code,
        message: f.message,
        ...(f.version !== undefined ? { version: f.version } : {}),
        ...(f.reason !== undefined ? { reason: f.reason } : {}),
      };
      const game = f.gameId !== undefined ? this.games.get(f.gameId) : undefined;
      if (game) game.session.refuse(f.requestId, refusal);
      else for (const g of this.games.values()) if (g.session.refuse(f.requestId, refusal)) break;
    }
  }
}
