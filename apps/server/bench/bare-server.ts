/**
 * The platform's ceiling for the server benchmark: a bare Fastify + @fastify/websocket server on the same
 * stack as the real one (node, ws, zod, JSON) that does only what every move frame costs at the edge —
 * parse the frame, validate it with protocol's ClientFrameSchema, answer a `state` frame of the real frames'
 * size (a real `playerView` of a game in the middle of the benchmark's draw cycle, serialised per answer) —
 * with no rules, no database, no rooms.
 * Started by server.bench.ts as a child process (PORT, HOST); answers `subscribe` and `move` frames.
 */
import websocket from '@fastify/websocket';
import { ClientFrameSchema, type ServerFrame } from '@klondike/protocol';
import { applyAction, dealFromNumber, newGame, playerView, resolveOptions } from '@klondike/rules';
import Fastify from 'fastify';
import { wireView } from '../src/core/rooms/game-rooms.js';

const deal = dealFromNumber(1);
if (!deal.ok) throw new Error(deal.error.message);
// The view the real server answers with in the middle of the benchmark's draw cycle (the waste holds
// 0…24 cards over a pass, 12 on average) a minute into the game, so that the frame has the size of the
// real answers on average (~0.8 KB), not of a fresh deal's (no waste, no clock: ~60 bytes less).
let state = newGame(deal.value, resolveOptions('classic-draw1', {}));
for (let i = 0; i < 12; i++) {
  const r = applyAction(state, { type: 'move', move: { type: 'draw' } });
  if (!r.ok) throw new Error(r.error.message);
  state = r.value;
}
const view = wireView(playerView(state, 60_000));

const app = Fastify({ logger: false });
await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
app.get('/api/health', () => Promise.resolve({ status: 'ok' }));
app.get('/api/ws', { websocket: true }, (socket) => {
  socket.on('message', (data: Buffer) => {
    const parsed = ClientFrameSchema.safeParse(JSON.parse(data.toString('utf8')));
    if (!parsed.success) {
      socket.send(JSON.stringify({ type: 'error', code: 'bad-request', message: 'invalid frame' }));
      return;
    }
    const f = parsed.data;
    if (f.type !== 'subscribe' && f.type !== 'move') return;
    const frame: ServerFrame = {
      type: 'state',
      gameId: f.gameId,
      version: f.type === 'move' ? (f.version ?? 0) + 1 : 0,
      view,
      cause: f.type === 'move' ? 'move' : 'subscribe',
      ...(f.type === 'move' ? { move: f.move } : {}),
      ...(f.type === 'move' && f.requestId !== undefined ? { requestId: f.requestId } : {}),
    };
    socket.send(JSON.stringify(frame));
  });
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
