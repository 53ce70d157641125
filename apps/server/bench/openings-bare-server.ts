/**
 * The platform's floor for `pnpm bench:openings`: a bare Fastify server (no plugins, no database, no rooms)
 * that answers the daily attempt's route with 201 and the body a real server answered (the JSON in the file
 * BARE_ANSWER_FILE, serialised per answer as Fastify does), `GET /api/me` with a small player and
 * `GET /api/health`; on `/api/ws` (a `ws` server, as @fastify/websocket uses) it answers `auth` with `authed`
 * and `daily-attempt` with `daily-opened` of that game and the frame's requestId (BENCH_OPEN_OVER=socket).
 * What its openings take at one instant is what the box, the HTTP stack and the load generator take before
 * the server does anything. Started by openings.bench.ts (PORT, HOST).
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { WebSocketServer } from 'ws';
import { rawText } from './server-bench/format.js';

const file = process.env.BARE_ANSWER_FILE;
if (file === undefined) throw new Error('BARE_ANSWER_FILE is not set');
const answer = JSON.parse(readFileSync(file, 'utf8')) as object;

const app = Fastify({ logger: false });
app.get('/api/health', () => Promise.resolve({ status: 'ok' }));
app.get('/api/me', () => Promise.resolve({ id: 'bare', name: 'bare player', bot: true }));
app.post('/api/daily/:date/:preset/attempt', async (_req, reply) => reply.code(201).send(answer));
const sockets = new WebSocketServer({ noServer: true });
app.server.on('upgrade', (req, socket, head) => {
  if (req.url !== '/api/ws') return socket.destroy();
  sockets.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', (data) => {
      const f = JSON.parse(rawText(data)) as { type?: string; requestId?: string };
      if (f.type === 'auth')
        ws.send(JSON.stringify({ type: 'authed', playerId: 'bare', name: 'bare player' }));
      else if (f.type === 'daily-attempt')
        ws.send(JSON.stringify({ type: 'daily-opened', game: answer, requestId: f.requestId }));
    });
  });
});
await app.listen({
  port: Number(process.env.PORT ?? 0),
  host: process.env.HOST ?? '127.0.0.1',
  backlog: 4096,
});
