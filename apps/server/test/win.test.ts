/** Plays a known winning line through REST to `won`, for draw 1 and draw 3. */
import { applyMove, gameStatus, newGame, resolveOptions, type GameState } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, testApp, winningDeal, winningDealText, winningLine } from './helpers.js';

describe('the winnable test deal', () => {
  for (const draw of [1, 3] as const) {
    it(`wins under draw ${draw} when played with the rules package`, () => {
      let state: GameState = newGame(
        winningDeal(),
        resolveOptions(draw === 1 ? 'classic-draw1' : 'classic-draw3'),
      );
      for (const move of winningLine(draw)) {
        const r = applyMove(state, move);
        if (!r.ok) throw new Error(`${JSON.stringify(move)}: ${r.error.code}`);
        state = r.value;
      }
      expect(gameStatus(state)).toBe('won');
    });
  }
});

describeEachDatabase('winning over REST', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  for (const [preset, draw] of [
    ['classic-draw1', 1],
    ['classic-draw3', 3],
  ] as const) {
    it(`POST /api/games/:id/moves plays ${preset} to status won (200 each), then GET /api/games/:id/deal → 200`, async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/games',
        payload: { preset, deal: winningDealText() },
      });
      expect(created.statusCode).toBe(201);
      const { id } = created.json<{ id: string }>();
      let version = 0;
      let status = '';
      for (const move of winningLine(draw)) {
        const r = await app.inject({
          method: 'POST',
          url: `/api/games/${id}/moves`,
          payload: { move, version },
        });
        expect(r.statusCode, `${JSON.stringify(move)} → ${r.body}`).toBe(200);
        const body = r.json<{ version: number; view: { status: string } }>();
        expect(body.version).toBe(version + 1);
        version = body.version;
        status = body.view.status;
      }
      expect(status).toBe('won');
      const game = await app.inject({ method: 'GET', url: `/api/games/${id}` });
      expect(
        game.json<{ view: { status: string; foundations: Record<string, string> } }>().view.foundations,
      ).toEqual({ fC: 'KC', fD: 'KD', fH: 'KH', fS: 'KS' });
      const deal = await app.inject({ method: 'GET', url: `/api/games/${id}/deal` });
      expect(deal.statusCode).toBe(200);
      expect(deal.json()).toEqual({ deal: winningDealText(), dealNumber: null });
      const after = await app.inject({
        method: 'POST',
        url: `/api/games/${id}/moves`,
        payload: { move: { type: 'draw' }, version },
      });
      expect(after.statusCode).toBe(422);
      expect(after.json()).toMatchObject({ error: { code: 'illegal-move', reason: 'game-over', version } });
    });
  }
});
