/**
 * Test helpers: the real server (apps/server/src/main.ts as a child process on a free port, like any
 * deployment; see scripts/server.ts) and a WebSocket whose connections a test can deafen.
 */
import WebSocket from 'ws';
import type { WebSocketClass, WebSocketLike } from '../src/index.js';

export { spawnServer as startServer, type ServerProcess as TestServer } from '../scripts/server.ts';

/**
 * A `ws` WebSocket class whose connections the test controls: `deaf` drops every incoming frame (as if the
 * answers were lost on the way), `sockets` lists every connection opened (to count reconnects), `frames`
 * counts what arrived.
 */
export function controllableWebSocket(): {
  WebSocket: WebSocketClass;
  sockets: WebSocket[];
  setDeaf(deaf: boolean): void;
  /** Frames that arrived so far, dropped ones included. */
  frames(): number;
} {
  const sockets: WebSocket[] = [];
  let deaf = false;
  let frames = 0;
  class Controlled extends WebSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
      this.on('message', () => undefined);
    }
  }
  const wrap = (url: string): WebSocketLike => {
    const ws = new Controlled(url);
    const like: WebSocketLike = {
      get readyState() {
        return ws.readyState;
      },
      send: (data: string) => ws.send(data),
      close: (code?: number, reason?: string) => ws.close(code, reason),
      addEventListener: (type: string, listener: (event: { data: unknown }) => void) => {
        if (type === 'message')
          ws.on('message', (data: WebSocket.RawData) => {
            frames++;
            if (!deaf) listener({ data: frameText(data) });
          });
        else ws.on(type, () => listener({ data: undefined }));
      },
    };
    return like;
  };
  return {
    WebSocket: function (this: unknown, url: string) {
      return wrap(url);
    } as unknown as WebSocketClass,
    sockets,
    setDeaf: (d) => {
      deaf = d;
    },
    frames: () => frames,
  };
}

/** The text of a frame as `ws` hands it over (a Buffer, an ArrayBuffer, or fragments), read as UTF-8. */
function frameText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return Buffer.isBuffer(data) ? data.toString() : Buffer.from(data).toString();
}
