/**
 * The connection half of the socket protocol: one WebSocket to `/api/ws` that stays up. It reconnects by
 * itself after a close with exponential backoff (jittered unless told otherwise), can ping to notice a dead
 * connection, sends the player's token as the `auth` frame first on every (re)connection — before any
 * `onOpen` listener runs, so a subscribe that follows is already the player's (the server handles a
 * connection's frames in order) — and checks every incoming frame before handing it on (frames that arrive
 * while the checker is still loading wait for it and are then handled in their order).
 *
 * Both clients of the protocol run on it: `KlondikeSocket` (socket.ts: the version rule for scripts and bots)
 * and the web app's `useSocket` (a Vue ref of its status, and a reconnect when the browser comes back online).
 */
import type { ClientFrame, ServerFrame } from '@klondike/protocol';

/** Where a connection stands. */
export type ConnectionStatus = 'connecting' | 'open' | 'closed';

/** The part of a WebSocket a connection uses (browsers' WebSocket, Node 22's global, `ws`). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
/** A WebSocket class: `new WebSocket(url)`. */
export type WebSocketClass = new (url: string) => WebSocketLike;

/** Turns a frame's parsed JSON into a server frame, or null to drop it. */
export type FrameCheck = (json: unknown) => ServerFrame | null;

/** How incoming frames are checked: a check ready now, or one still to load (the protocol's schemas). */
export interface FrameChecker {
  /** The check when it is ready now, else undefined. */
  now(): FrameCheck | undefined;
  /** Loads the check; a failure drops the frames waiting for it with their connection. */
  load(): Promise<FrameCheck>;
}

/** Options of `createConnection`. */
export interface ConnectionOptions {
  /** `ws(s)://host/api/ws`, or a function giving it at each (re)connection. */
  readonly url: string | (() => string);
  /** WebSocket implementation (default: the global one). */
  readonly WebSocket?: WebSocketClass;
  /** The player token sent as `auth` on every (re)connection (default none; `setAuth` changes it). */
  readonly token?: string | null;
  /** First reconnect delay, ms (default 300); doubles per failed attempt up to `maxDelayMs` (default 8000). */
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  /** The jitter of `backoffDelay` (default Math.random; `() => 1` for plain doubling). */
  readonly random?: () => number;
  /** Ping period, ms (default 20 000; 0 = no ping); a connection silent for 2.5 periods is dropped. */
  readonly pingEveryMs?: number;
  /** How long an opening may take before it is dropped, ms (default 10 000; 0 = no limit). */
  readonly openTimeoutMs?: number;
  /** Reconnect after a close (default true); false: the first close ends the connection for good. */
  readonly reconnect?: boolean;
  /** How frames are checked (default: every frame taken as it is, `pong` included). */
  readonly frames?: FrameChecker;
}

/** A connection that stays up (see the module comment). */
export interface Connection {
  /** Where it stands now. */
  readonly status: ConnectionStatus;
  /** Sends a frame if the connection is open; false otherwise (the caller falls back to REST or waits). */
  send(frame: ClientFrame): boolean;
  /** Listens to the checked frames (never `pong`); returns the function that stops it. */
  onFrame(handler: (frame: ServerFrame) => void): () => void;
  /** Runs on each successful (re)connection, after `auth` went out; returns the function that stops it. */
  onOpen(handler: () => void): () => void;
  /** Runs on every change of `status`; returns the function that stops it. */
  onStatus(handler: (status: ConnectionStatus) => void): () => void;
  /** Reconnects now if closed (skipping the backoff wait). */
  reconnectNow(): void;
  /** Drops the current connection as a network failure would (the reconnect path runs). */
  drop(): void;
  /** The player token to send as `auth` on every (re)connection; null signs the connection out (reconnects). */
  setAuth(token: string | null): void;
  /** Closes for good. */
  close(): void;
}

/** Backoff delay before reconnect attempt `attempt` (0-based), with ±50 % jitter from `random()`. */
export function backoffDelay(
  attempt: number,
  minMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 20));
  return Math.round(base / 2 + (random() * base) / 2);
}

const OPEN = 1;
const CONNECTING = 0;

function frameText(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return null;
}

const TAKE_AS_IS: FrameChecker = {
  now: () => (json) => json as ServerFrame,
  load: () => Promise.resolve((json: unknown) => json as ServerFrame),
};

/** Opens a connection that stays up (see the module comment). Throws when no WebSocket exists here. */
export function createConnection(options: ConnectionOptions): Connection {
  const found = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  if (found === undefined) throw new Error('no WebSocket implementation');
  const WS: WebSocketClass = found;
  const minDelay = options.minDelayMs ?? 300;
  const maxDelay = options.maxDelayMs ?? 8000;
  const pingEvery = options.pingEveryMs ?? 20_000;
  const openTimeout = options.openTimeoutMs ?? 10_000;
  const checker = options.frames ?? TAKE_AS_IS;
  const frameHandlers = new Set<(frame: ServerFrame) => void>();
  const openHandlers = new Set<() => void>();
  const statusHandlers = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let ws: WebSocketLike | null = null;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  let lastHeard = 0;
  let closedForGood = false;
  let authToken: string | null = options.token ?? null;
  /** Frames (parsed JSON) waiting for the checker to load, oldest first. */
  const held: unknown[] = [];

  function setStatus(s: ConnectionStatus): void {
    if (s === status) return;
    status = s;
    for (const h of [...statusHandlers]) h(s);
  }

  function url(): string {
    return typeof options.url === 'string' ? options.url : options.url();
  }

  function connect(): void {
    clearTimeout(reconnectTimer);
    if (closedForGood) return;
    setStatus('connecting');
    let sock: WebSocketLike;
    try {
      sock = new WS(url());
    } catch {
      scheduleReconnect();
      return;
    }
    ws = sock;
    if (openTimeout > 0)
      openTimer = setTimeout(() => {
        if (ws === sock && sock.readyState !== OPEN) drop(sock);
      }, openTimeout);
    sock.addEventListener('open', () => {
      if (ws !== sock) return;
      clearTimeout(openTimer);
      attempt = 0;
      lastHeard = Date.now();
      setStatus('open');
      startPing(sock);
      if (authToken) sock.send(JSON.stringify({ type: 'auth', token: authToken } satisfies ClientFrame));
      for (const h of [...openHandlers]) h();
    });
    sock.addEventListener('message', (ev) => {
      if (ws !== sock) return;
      lastHeard = Date.now();
      const text = frameText(ev.data);
      if (text === null) return;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return;
      }
      const check = checker.now();
      if (check && held.length === 0) deliver(check, json);
      else if (held.push(json) === 1) void checker.load().then(releaseHeld, () => failHeld(sock));
    });
    sock.addEventListener('close', () => {
      if (ws === sock) drop(sock);
    });
    sock.addEventListener('error', () => {
      /* a close event follows */
    });
  }

  /** Checks one frame and hands it to the listeners (dropped when it does not pass). */
  function deliver(check: FrameCheck, json: unknown): void {
    const frame = check(json);
    if (frame === null || frame.type === 'pong') return;
    for (const h of [...frameHandlers]) h(frame);
  }

  /** Handles, in order, the frames that arrived before the checker had loaded. */
  function releaseHeld(check: FrameCheck): void {
    for (const json of held.splice(0)) deliver(check, json);
  }

  /**
   * The checker could not load (the network went away): the held frames cannot be checked, so they are
   * dropped with their connection, and the next one re-subscribes from the last version seen.
   */
  function failHeld(sock: WebSocketLike): void {
    held.length = 0;
    if (ws === sock) drop(sock);
  }

  /** Forgets a socket (closing it if needed) and schedules the next attempt. */
  function drop(sock: WebSocketLike): void {
    clearTimeout(openTimer);
    clearInterval(pingTimer);
    if (ws === sock) ws = null;
    try {
      sock.close();
    } catch {
      /* already closed */
    }
    if (options.reconnect === false) closedForGood = true;
    setStatus('closed');
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closedForGood) return;
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(connect, backoffDelay(attempt++, minDelay, maxDelay, options.random));
  }

  function startPing(sock: WebSocketLike): void {
    clearInterval(pingTimer);
    if (pingEvery <= 0) return;
    pingTimer = setInterval(() => {
      if (ws !== sock) return;
      if (Date.now() - lastHeard > pingEvery * 2.5) {
        drop(sock);
        return;
      }
      sock.send(JSON.stringify({ type: 'ping' } satisfies ClientFrame));
    }, pingEvery);
  }

  function reconnectNow(): void {
    if (closedForGood || status === 'open' || (ws && ws.readyState === CONNECTING)) return;
    attempt = 0;
    connect();
  }

  connect();

  return {
    get status() {
      return status;
    },
    send(frame) {
      if (!ws || ws.readyState !== OPEN) return false;
      ws.send(JSON.stringify(frame));
      return true;
    },
    onFrame(handler) {
      frameHandlers.add(handler);
      return () => frameHandlers.delete(handler);
    },
    onOpen(handler) {
      openHandlers.add(handler);
      return () => openHandlers.delete(handler);
    },
    onStatus(handler) {
      statusHandlers.add(handler);
      return () => statusHandlers.delete(handler);
    },
    reconnectNow,
    drop() {
      if (ws) drop(ws);
    },
    setAuth(token) {
      if (token === authToken) return;
      const signedOut = authToken !== null && token === null;
      authToken = token;
      if (!ws || ws.readyState !== OPEN) return;
      if (token) ws.send(JSON.stringify({ type: 'auth', token } satisfies ClientFrame));
      else if (signedOut) drop(ws); // a connection cannot be signed out: start a fresh one
    },
    close() {
      closedForGood = true;
      clearTimeout(reconnectTimer);
      clearTimeout(openTimer);
      if (ws) {
        const sock = ws;
        ws = null;
        clearInterval(pingTimer);
        sock.close();
      }
      setStatus('closed');
    },
  };
}
