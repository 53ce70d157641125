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
 * The connection itself (reconnects with backoff, `auth` first on every connection) is connection.ts, which
 * the web app's socket runs on too. Works with the browsers' WebSocket and Node 22's global one; on Node 20
 * pass one (the `ws` package's `WebSocket`) as `WebSocket`.
 */
import type { ClientFrame, ServerFrame } from '@klondike/protocol';
import { type Connection, type WebSocketClass, createConnection } from './connection.js';
import { KlondikeError } from './errors.js';

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

type RequestKind = 'move' | 'undo' | 'resign';

/** A request in flight: sent (or waiting to be sent) at `version`, answered by a frame with `requestId`. */
interface Pending {
  readonly requestId: string;
  readonly game: GameHandle;
  readonly kind: RequestKind;
  readonly move: Move | undefined;
  readonly version: number;
  /** Sent again after a reconnect: a `stale-version` answer then means its first copy was applied. */
  resent: boolean;
  resolve(state: GameState): void;
  reject(e: KlondikeError): void;
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

/** One subscribed game: its current state, state listeners, and its moves (sent one at a time). */
export class GameHandle {
  /** The game's id. */
  readonly gameId: string;
  private current: GameState;
  private readonly listeners = new Set<(state: GameState, frame: StateFrame | null) => void>();
  /** The last request of this game (the next one waits for it). */
  private chain: Promise<unknown> = Promise.resolve();

  /** @internal Made by `KlondikeSocket.subscribe`. */
  constructor(
    private readonly socket: KlondikeSocket,
    first: StateFrame,
  ) {
    this.gameId = first.gameId;
    this.current = { gameId: first.gameId, version: first.version, view: first.view };
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
    const run = () => this.socket.request(this, kind, move, version ?? this.current.version);
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /**
   * @internal Takes a state frame (or a resync's) when it is newer than the one held — a gap is closed by
   * the newer frame, which holds the whole view — and tells the listeners. Returns whether it was taken.
   */
  take(frame: StateFrame): boolean {
    const newer = frame.version > this.current.version;
    const resync = frame.cause === 'subscribe' && frame.version !== this.current.version;
    if (!newer && !resync) return false;
    this.current = { gameId: frame.gameId, version: frame.version, view: frame.view };
    for (const l of this.listeners) l(this.current, frame);
    return true;
  }
}

/**
 * A connection to `/api/ws` that stays up: it reconnects after an unexpected close, re-authenticates,
 * resyncs every subscribed game and settles the requests that were in flight (see the module comment).
 */
export class KlondikeSocket {
  private conn: Connection | null = null;
  private readonly games = new Map<string, GameHandle>();
  private readonly pending = new Map<string, Pending>();
  private readonly waiters = new Set<Waiter>();
  private readonly events = new Map<SocketEvent, Set<() => void>>();
  private nextRequest = 1;
  private closed = false;
  /** The connection is open and every game resynced (a close then is a `disconnect`). */
  private up = false;
  /** Settles once the connection is up again: requests wait for it. */
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
      known.take(first);
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

  /** @internal Sends a move, undo or resign of `game` at `version` and waits for its answer. */
  async request(
    game: GameHandle,
    kind: RequestKind,
    move: Move | undefined,
    version: number,
  ): Promise<GameState> {
    await this.ready;
    if (this.closed) throw new KlondikeError('network', 'the socket was closed');
    const requestId = `r${this.nextRequest++}`;
    return new Promise<GameState>((resolve, reject) => {
      const p: Pending = { requestId, game, kind, move, version, resent: false, resolve, reject };
      this.pending.set(requestId, p);
      this.sendRequest(p);
    });
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
   * every game and settles the requests in flight, then lets the waiting requests go.
   */
  private async resync(): Promise<void> {
    if (this.opts.token !== undefined)
      await this.answer((f) => f.type === 'authed' || (f.type === 'error' && f.gameId === undefined));
    for (const game of [...this.games.values()]) {
      try {
        game.take(await this.subscribeFrame(game.gameId));
      } catch (e) {
        // The server refused this game now (e.g. a token no longer valid for it): its requests fail with
        // that error and the helper stops tracking it; a lost connection fails the whole attempt.
        if (!(e instanceof KlondikeError) || e.code === 'network') throw e;
        this.games.delete(game.gameId);
        for (const p of [...this.pending.values()])
          if (p.game === game) {
            this.pending.delete(p.requestId);
            p.reject(e);
          }
      }
    }
    for (const p of [...this.pending.values()]) this.settleAfterResync(p);
    this.up = true;
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
      // Requests waiting on `ready` must not see an unhandled rejection before they attach.
      this.ready.catch(() => undefined);
    }
  }

  /** After a resync: send a request again (not applied) or resolve it (applied before the drop). */
  private settleAfterResync(p: Pending): void {
    if (p.game.version === p.version) {
      p.resent = true;
      this.sendRequest(p);
      return;
    }
    this.pending.delete(p.requestId);
    p.resolve(p.game.state);
  }

  private emit(event: SocketEvent): void {
    for (const l of this.events.get(event) ?? []) l();
  }

  private failAll(e: KlondikeError): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    for (const w of this.waiters) w.reject(e);
    this.waiters.clear();
  }

  // ---------- frames ----------

  private send(frame: ClientFrame): void {
    this.conn?.send(frame);
  }

  private sendRequest(p: Pending): void {
    const base = { gameId: p.game.gameId, version: p.version, requestId: p.requestId };
    if (p.kind === 'move' && p.move !== undefined) this.send({ type: 'move', move: p.move, ...base });
    else if (p.kind === 'undo') this.send({ type: 'undo', ...base });
    else this.send({ type: 'resign', ...base });
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
    if (f.type === 'state') this.onState(f);
    else if (f.type === 'error' && f.requestId !== undefined) this.onRequestError(f, f.requestId);
  }

  private onState(f: StateFrame): void {
    const game = this.games.get(f.gameId);
    if (game) game.take(f);
    if (f.requestId === undefined) return;
    const p = this.pending.get(f.requestId);
    if (!p) return;
    this.pending.delete(f.requestId);
    p.resolve(game?.state ?? { gameId: f.gameId, version: f.version, view: f.view });
  }

  private onRequestError(f: ErrorFrame, requestId: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    if (f.code === 'stale-version') {
      // The game moved on: resync it. A re-sent request refused as stale was applied by its first copy.
      void this.resyncThen(p, f);
      return;
    }
    p.reject(errorOf(f));
  }

  private async resyncThen(p: Pending, f: ErrorFrame): Promise<void> {
    try {
      p.game.take(await this.subscribeFrame(p.game.gameId));
    } catch {
      // The resync failed (connection lost): the reconnect resyncs anyway; report the refusal as it came.
    }
    if (p.resent && p.game.version > p.version) p.resolve(p.game.state);
    else p.reject(errorOf(f));
  }
}
