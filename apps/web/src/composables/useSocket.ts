/**
 * One WebSocket to `/api/ws` for the whole app, on @klondike/client's connection (connection.ts there, which
 * the package's own KlondikeSocket runs on too). It reconnects by itself with exponential backoff and jitter
 * (so it survives a server restart), pings to notice a dead connection, reconnects at once when the browser
 * comes back online or the tab becomes visible, and parses every incoming frame with the protocol's
 * `ServerFrameSchema` (frames that do not parse are dropped; frames that arrive before the schemas have
 * loaded, lib/schemas.ts, wait for them and are then handled in their order). Listeners registered with `onOpen` run on every
 * (re)connection: that is where a game re-subscribes with the last version it saw. A player token set with
 * `setAuth` goes out as the `auth` frame first on every (re)connection, before any listener runs (the server
 * handles a connection's frames in order, so a subscribe that follows is already the player's).
 */
import { type ConnectionStatus, type FrameCheck, createConnection } from '@klondike/client/connection';
import type { ClientFrame, ServerFrame } from '@klondike/protocol';
import { readonly, ref, type Ref } from 'vue';
import { loadSchemas, loadedSchemas, type Protocol } from '../lib/schemas';

export { backoffDelay } from '@klondike/client/connection';

export type SocketStatus = ConnectionStatus;

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

/** A frame check from the protocol's schemas: the frame when it parses, else null (dropped). */
function checkWith(protocol: Protocol): FrameCheck {
  return (json) => {
    const parsed = protocol.ServerFrameSchema.safeParse(json);
    return parsed.success ? parsed.data : null;
  };
}

/** The app's socket: a connection of @klondike/client with its status as a Vue ref. */
export function createSocket(options: SocketOptions = {}): Socket {
  let check: FrameCheck | undefined;
  const conn = createConnection({
    url: () => {
      if (options.url) return options.url;
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      return `${proto}//${location.host}/api/ws`;
    },
    minDelayMs: options.minDelayMs ?? 300,
    maxDelayMs: options.maxDelayMs ?? 8000,
    pingEveryMs: options.pingEveryMs ?? 20_000,
    frames: {
      now() {
        const protocol = loadedSchemas();
        if (protocol) check ??= checkWith(protocol);
        return check;
      },
      load: () => loadSchemas().then((protocol) => (check ??= checkWith(protocol))),
    },
  });
  const status = ref<SocketStatus>(conn.status);
  conn.onStatus((s) => {
    status.value = s;
  });

  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => conn.reconnectNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') conn.reconnectNow();
    });
  }

  return {
    status: readonly(status),
    send: (frame) => conn.send(frame),
    onFrame: (handler) => conn.onFrame(handler),
    onOpen: (handler) => conn.onOpen(handler),
    reconnectNow: () => conn.reconnectNow(),
    setAuth: (token) => conn.setAuth(token),
    close: () => conn.close(),
  };
}

let shared: Socket | null = null;

/** The app's one socket (created on first use). */
export function useSocket(): Socket {
  shared ??= createSocket();
  return shared;
}
