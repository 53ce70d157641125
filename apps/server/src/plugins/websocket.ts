/** Plugin `websocket`: @fastify/websocket with a hard frame limit. */
import websocket from '@fastify/websocket';
import { MAX_FRAME_BYTES } from '@klondike/protocol';
import fp from 'fastify-plugin';

/**
 * Hard per-frame limit of the socket (ws `maxPayload`); larger frames close the connection (1009). Frames
 * between MAX_FRAME_BYTES and this are refused one by one with `frame-too-large` (routes/ws.ts).
 */
export const WS_MAX_PAYLOAD = 16 * MAX_FRAME_BYTES;

/** Registers @fastify/websocket (before any route, as it requires). */
export const websocketPlugin = fp(
  async (app) => {
    await app.register(websocket, { options: { maxPayload: WS_MAX_PAYLOAD } });
  },
  { name: 'websocket', fastify: '5.x' },
);
