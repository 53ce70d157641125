/**
 * Graceful shutdown (SIGTERM, a deploy): every socket is told to reconnect with close code 1012 ("service
 * restart"), and a move admitted before the close is still committed (the rooms drain), so the client that
 * reconnects elsewhere resyncs to it.
 */
import { GameResponseSchema } from '@klondike/protocol';
import { expect, it } from 'vitest';
import { RESTART_CLOSE_CODE } from '../src/plugins/websocket.js';
import { WsClient, describeEachDatabase, testApp, wsUrl } from './helpers.js';

describeEachDatabase('graceful shutdown', (db) => {
  it('closing the server closes its sockets with 1012 and keeps the move it had admitted', async () => {
    const app = await testApp(db);
    let closed = false;
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const created = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 3 } });
      const { id } = GameResponseSchema.parse(created.json());
      const ws = await WsClient.connect(wsUrl(app));
      await ws.request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state');
      const move = app.inject({
        method: 'POST',
        url: `/api/games/${id}/moves`,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      const code = ws.closed();
      const closing = app.close();
      closed = true;
      expect(await code).toBe(RESTART_CLOSE_CODE);
      const answered = await move;
      await closing;
      // Admitted before the close: committed and answered, not lost.
      expect(answered.statusCode, answered.body).toBe(200);
      expect(RESTART_CLOSE_CODE).toBe(1012);
    } finally {
      if (!closed) await app.close();
      await db.cleanup();
    }
  });
});
