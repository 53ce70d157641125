/** Plugin `websocket`: @fastify/websocket with the frame limit of routes/ws.ts. */
import websocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import { WS_MAX_PAYLOAD } from '../routes/ws.js';

/** Registers @fastify/websocket (before any route, as it requires). */
export const websocketPlugin = fp(
  async (app) => {
    await app.register(websocket, { options: { maxPayload: WS_MAX_PAYLOAD } });
  },
  { name: 'websocket', fastify: '5.x' },
);
