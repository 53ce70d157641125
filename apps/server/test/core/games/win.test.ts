/**
 * Plays a known winning line through REST to `won`, for draw 1 and draw 3. The deal and its line are the
 * rules package's fixtures (`@klondike/rules/testing`, whose own tests check the line wins).
 */
import { resolveOptions } from '@klondike/rules';
import { winnableDeal, winningLine } from '@klondike/rules/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

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
        payload: { preset, deal: winnableDeal(draw) },
      });
      expect(created.statusCode).toBe(201);
      const { id } = created.json<{ id: string }>();
      let version = 0;
      let status = '';
      for (const move of winningLine(resolveOptions(preset))) {
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
      expect(deal.json()).toEqual({ deal: winnableDeal(draw), dealNumber: null });
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
