/**
 * Graceful shutdown (SIGTERM, a deploy): every socket is told to reconnect with close code 1012 ("service
 * restart") rather than a bare close, so clients reconnect at once, to any node, and resync. (That writes
 * admitted before a SIGTERM are stored is the crash test's: test/edge/crash.test.ts.)
 */
import { GameResponseSchema } from '@klondike/protocol';
import { expect, it } from 'vitest';
import { STOP_GRACE_MS } from '../../src/features/daily/service.js';
import { RESTART_CLOSE_CODE } from '../../src/edge/plugins/websocket.js';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../support/helpers.js';

describeEachDatabase('graceful shutdown', (db) => {
  it('closing the server closes its sockets with 1012 "service restart"', async () => {
    const app = await testApp(db);
    let closed = false;
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const created = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 3 } });
      const { id } = GameResponseSchema.parse(created.json());
      const sockets = await Promise.all([WsClient.connect(wsUrl(app)), WsClient.connect(wsUrl(app))]);
      // One follows a game, one is idle: both are told.
      await sockets[0].request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state');
      const codes = Promise.all(sockets.map((s) => s.closed()));
      closed = true;
      await app.close();
      expect(await codes).toEqual([RESTART_CLOSE_CODE, RESTART_CLOSE_CODE]);
      expect(RESTART_CLOSE_CODE).toBe(1012);
    } finally {
      if (!closed) await app.close();
      await db.cleanup();
    }
  });
});

describeEachDatabase('shutdown during a daily deal search', (db) => {
  // A deal search (a daily's win proof, then its minimal-par search) can run for tens of seconds; closing
  // once waited for every one under way (34 s measured on a loaded machine), holding a deploy or a test.
  it('closing while the dailies are being made waits STOP_GRACE_MS at most, not for their searches', async () => {
    const app = await testApp(db, { config: { dailySchedule: true, dailySolveMs: 20_000 } });
    try {
      await app.ready(); // the daily job certifies today and tomorrow, then refines their pars in the background
      const refining = () => app.solver.running().some((j) => j.priority === 'par');
      for (let i = 0; i < 400 && !refining(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(refining()).toBe(true); // a par search of up to 20 M positions is under way, more are to come
    } finally {
      const started = Date.now();
      await app.close();
      // Four pars of up to 20 M positions of search each were under way or waiting.
      expect(Date.now() - started).toBeLessThan(STOP_GRACE_MS + 10_000);
      await db.cleanup();
    }
  }, 90_000);
});
