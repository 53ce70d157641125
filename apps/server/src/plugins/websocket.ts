/** Plugin `websocket`: @fastify/websocket with a hard frame limit. */
import websocket from '@fastify/websocket';
import { MAX_FRAME_BYTES } from '@klondike/protocol';
import fp from 'fastify-plugin';

/**
 * Hard per-frame limit of the socket (ws `maxPayload`); larger frames close the connection (1009). Frames
 * between MAX_FRAME_BYTES and this are refused one by one with `frame-too-large` (routes/ws.ts).
 */
export const WS_MAX_PAYLOAD = 16 * MAX_FRAME_BYTES;

/** Close code a closing server gives its sockets: 1012 "service restart", reconnect (to any node). */
export const RESTART_CLOSE_CODE = 1012;

/**
 * Registers @fastify/websocket (before any route, as it requires). When the server closes (SIGTERM, a
 * deploy) every socket is closed with 1012 so clients reconnect at once, to this node's successor or any
 * other; moves already admitted still finish their commits (the rooms drain after this), and a client
 * that reconnects resyncs with `subscribe`.
 */
export const websocketPlugin = fp(
  async (app) => {
    await app.register(websocket, {
      options: { maxPayload: WS_MAX_PAYLOAD },
      preClose(done) {
        const server = app.websocketServer;
        for (const client of server.clients) client.close(RESTART_CLOSE_CODE, 'server restarting: reconnect');
        server.close();
        done();
      },
    });
  },
  { name: 'websocket', fastify: '5.x' },
);
