import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';

describeEachDatabase('games kept in memory (MAX_LIVE_GAMES = 2)', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db, { config: { maxLiveGames: 2 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  const create = async (): Promise<string> => {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 7 } });
    expect(r.statusCode).toBe(201);
    return r.json<{ id: string }>().id;
  };
  const live = (id: string): boolean => app.rooms.peekState(id) !== undefined;

  it('a subscribed game is never evicted; once its last subscriber leaves it counts as just used', async () => {
    const a = await create();
    const ws = await WsClient.connect(wsUrl(app));
    try {
      await ws.request({ type: 'subscribe', gameId: a }, (f) => f.type === 'state' && f.gameId === a);
      const b = await create();
      // A third game: one idle game must go, and it is b (a has a subscriber), though a is older.
      const c = await create();
      expect([live(a), live(b), live(c)]).toEqual([true, false, true]);
      // Moves on the subscribed game keep it in memory whatever else is created meanwhile.
      await ws.request(
        { type: 'move', gameId: a, version: 0, move: { type: 'draw' }, requestId: 'm1' },
        (f) => f.type === 'state' && f.requestId === 'm1',
      );
      const d = await create();
      expect([live(a), live(c), live(d)]).toEqual([true, false, true]);
      // a loses its subscriber after d was used: a is now the most recently used, so e evicts d.
      ws.send({ type: 'unsubscribe', gameId: a });
      await ws.request({ type: 'ping' }, (f) => f.type === 'pong');
      const e = await create();
      expect([live(a), live(d), live(e)]).toEqual([true, false, true]);
      expect(app.rooms.size).toBe(2);
    } finally {
      ws.close();
    }
  });
});
