/** Plugin `websocket`: @fastify/websocket with a hard frame limit. */
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import { MAX_FRAME_BYTES } from '@klondike/protocol';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';

/**
 * Hard per-frame limit of the socket (ws `maxPayload`); larger frames close the connection (1009). Frames
 * between MAX_FRAME_BYTES and this are refused one by one with `frame-too-large` (edge/socket.ts).
 */
export const WS_MAX_PAYLOAD = 16 * MAX_FRAME_BYTES;

/** Close code a closing server gives its sockets: 1012 "service restart", reconnect (to any node). */
export const RESTART_CLOSE_CODE = 1012;

/**
 * What a socket's `error` becomes: a client's breach of the WebSocket protocol (ws codes `WS_ERR_*`: a
 * frame over WS_MAX_PAYLOAD, bad UTF-8, a bad opcode…) is logged at debug, since any client can cause it
 * at will and must not fill the log at error level; anything else is a bug, logged at error. Either way
 * the socket is terminated (ws has already sent its close frame, 1009 for a frame too large).
 */
export function onSocketError(error: unknown, socket: WebSocket, req: FastifyRequest): void {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && code.startsWith('WS_ERR_'))
    req.log.debug({ err: error }, 'websocket frame refused by the protocol');
  else req.log.error({ err: error }, 'websocket failed');
  socket.terminate();
}

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
      errorHandler: onSocketError,
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
