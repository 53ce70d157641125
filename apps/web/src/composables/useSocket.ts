/**
 * One WebSocket to `/api/ws` for the whole app. It reconnects by itself with exponential backoff and jitter
 * (so it survives a server restart), pings to notice a dead connection, reconnects at once when the browser
 * comes back online or the tab becomes visible, and parses every incoming frame with the protocol's
 * `ServerFrameSchema` (frames that do not parse are dropped; frames that arrive before the schemas have
 * loaded, lib/schemas.ts, wait for them and are then handled in their order). Listeners registered with `onOpen` run on every
 * (re)connection: that is where a game re-subscribes with the last version it saw. A player token set with
 * `setAuth` goes out as the `auth` frame first on every (re)connection, before any listener runs (the server
 * handles a connection's frames in order, so a subscribe that follows is already the player's).
 */
import type { ClientFrame, ServerFrame } from '@klondike/protocol';
import { readonly, ref, type Ref } from 'vue';
import { loadSchemas, loadedSchemas, type Protocol } from '../lib/schemas';

export type SocketStatus = 'connecting' | 'open' | 'closed';

export interface SocketOptions {
  /** WebSocket URL; default `ws(s)://<host>/api/ws`. */
  readonly url?: string;
  /** First reconnect delay; doubles per failed attempt up to `maxDelayMs`. */
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Ping period; a connection silent for 2.5 periods is dropped and reopened. */
  readonly pingEveryMs?: number;
}

export interface Socket {
  readonly status: Readonly<Ref<SocketStatus>>;
  /** Sends a frame if the socket is open; false otherwise (the caller falls back to REST or waits). */
  send(frame: ClientFrame): boolean;
  /** Listens to parsed frames; returns the unsubscribe function. */
  onFrame(handler: (frame: ServerFrame) => void): () => void;
  /** Runs on each successful (re)connection; returns the unsubscribe function. */
  onOpen(handler: () => void): () => void;
  /** Reconnects now if closed (skipping the backoff wait). */
  reconnectNow(): void;
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

export function createSocket(options: SocketOptions = {}): Socket {
  const minDelay = options.minDelayMs ?? 300;
  const maxDelay = options.maxDelayMs ?? 8000;
  const pingEvery = options.pingEveryMs ?? 20_000;
  const status = ref<SocketStatus>('connecting');
  const frameHandlers = new Set<(frame: ServerFrame) => void>();
  const openHandlers = new Set<() => void>();
  let ws: WebSocket | null = null;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let connectTimer: ReturnType<typeof setTimeout> | undefined;
  let lastHeard = 0;
  let closedForGood = false;
  let authToken: string | null = null;
  /** Frames (parsed JSON) waiting for the schemas to load, oldest first. */
  const held: unknown[] = [];

  function url(): string {
    if (options.url) return options.url;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/api/ws`;
  }

  function connect(): void {
    clearTimeout(reconnectTimer);
    if (closedForGood) return;
    status.value = 'connecting';
    let sock: WebSocket;
    try {
      sock = new WebSocket(url());
    } catch {
      scheduleReconnect();
      return;
    }
    ws = sock;
    connectTimer = setTimeout(() => {
      if (ws === sock && sock.readyState !== WebSocket.OPEN) drop(sock);
    }, 10_000);
    sock.onopen = () => {
      if (ws !== sock) return;
      clearTimeout(connectTimer);
      attempt = 0;
      lastHeard = Date.now();
      status.value = 'open';
      startPing(sock);
      if (authToken) sock.send(JSON.stringify({ type: 'auth', token: authToken } satisfies ClientFrame));
      for (const h of [...openHandlers]) h();
    };
    sock.onmessage = (ev: MessageEvent) => {
      if (ws !== sock) return;
      lastHeard = Date.now();
      if (typeof ev.data !== 'string') return;
      let json: unknown;
      try {
        json = JSON.parse(ev.data);
      } catch {
        return;
      }
      const protocol = loadedSchemas();
      if (protocol && held.length === 0) deliver(protocol, json);
      else if (held.push(json) === 1) void loadSchemas().then(releaseHeld, () => failHeld(sock));
    };
    sock.onclose = () => {
      if (ws === sock) drop(sock);
    };
    sock.onerror = () => {
      /* a close event follows */
    };
  }

  /** Checks one frame with the protocol's schema and hands it to the listeners (dropped when it does not parse). */
  function deliver(protocol: Protocol, json: unknown): void {
    const parsed = protocol.ServerFrameSchema.safeParse(json);
    if (!parsed.success) return;
    if (parsed.data.type === 'pong') return;
    for (const h of [...frameHandlers]) h(parsed.data);
  }

  /** Handles, in order, the frames that arrived before the schemas had loaded. */
  function releaseHeld(protocol: Protocol): void {
    for (const json of held.splice(0)) deliver(protocol, json);
  }

  /**
   * The schemas could not load (the network went away): the held frames cannot be checked, so they are
   * dropped with their connection, and the next one re-subscribes from the last version seen.
   */
  function failHeld(sock: WebSocket): void {
    held.length = 0;
    if (ws === sock) drop(sock);
  }

  /** Forgets a socket (closing it if needed) and schedules the next attempt. */
  function drop(sock: WebSocket): void {
    clearTimeout(connectTimer);
    clearInterval(pingTimer);
    sock.onopen = sock.onmessage = sock.onclose = sock.onerror = null;
    try {
      sock.close();
    } catch {
      /* already closed */
    }
    if (ws === sock) ws = null;
    status.value = 'closed';
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closedForGood) return;
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(connect, backoffDelay(attempt++, minDelay, maxDelay));
  }

  function startPing(sock: WebSocket): void {
    clearInterval(pingTimer);
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
    if (closedForGood || status.value === 'open' || (ws && ws.readyState === WebSocket.CONNECTING)) return;
    attempt = 0;
    connect();
  }

  if (typeof window !== 'undefined') {
    window.addEventListener('online', reconnectNow);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') reconnectNow();
    });
  }

  connect();

  return {
    status: readonly(status),
    send(frame) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
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
    reconnectNow,
    setAuth(token) {
      if (token === authToken) return;
      const signedOut = authToken !== null && token === null;
      authToken = token;
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      if (token) ws.send(JSON.stringify({ type: 'auth', token } satisfies ClientFrame));
      else if (signedOut) drop(ws); // a connection cannot be signed out: start a fresh one
    },
    close() {
      closedForGood = true;
      clearTimeout(reconnectTimer);
      if (ws) {
        const sock = ws;
        ws = null;
        clearInterval(pingTimer);
        sock.close();
      }
      status.value = 'closed';
    },
  };
}

let shared: Socket | null = null;

/** The app's one socket (created on first use). */
export function useSocket(): Socket {
  shared ??= createSocket();
  return shared;
}
