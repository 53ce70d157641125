/**
 * GET /api/games/:id/review (docs/review.md): 202 then 200 for a finished casual game; 403 for a game that may
 * still be played or an open day's ranked attempt (the review would tell the deal); 404 for an unknown game;
 * 400 for a malformed id. On both databases.
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  GameReviewPendingSchema,
  GameReviewSchema,
  LegalMovesResponseSchema,
  PlayerCreatedSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

describeEachDatabase('game review route', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // Background work shares the interactive thread here: a nice-19 thread can starve on a loaded test box.
    app = await testApp(db, { config: { reviewVerdictMs: 2_000, solverBackgroundThreads: 0 } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const code = (r: { json: () => unknown }): string => ErrorBodySchema.parse(r.json()).error.code;

  /** A casual game of deal `n` after `plies` moves (the last legal move each time). */
  async function played(n: number, plies: number): Promise<{ id: string; version: number }> {
    const g = GameResponseSchema.parse(
      (
        await app.inject({
          method: 'POST',
          url: '/api/games',
          payload: { dealNumber: n, options: { timed: false } },
        })
      ).json(),
    );
    let version = 0;
    for (let i = 0; i < plies; i++) {
      const legal = LegalMovesResponseSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/games/${g.id}/legal-moves` })).json(),
      );
      const move = legal.moves[legal.moves.length - 1];
      if (move === undefined) break;
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move, version },
      });
      version = StateResponseSchema.parse(r.json()).version;
    }
    return { id: g.id, version };
  }

  it('a game still being played is refused (403) and nothing is computed; unknown 404; malformed 400', async () => {
    const g = await played(11, 3);
    const r = await app.inject({ method: 'GET', url: `/api/games/${g.id}/review` });
    expect(r.statusCode, r.body).toBe(403);
    expect(code(r)).toBe('forbidden');
    expect(app.reviews.isComputing(g.id)).toBe(false);
    const missing = await app.inject({ method: 'GET', url: '/api/games/no-such-game/review' });
    expect(missing.statusCode).toBe(404);
    expect(code(missing)).toBe('not-found');
    const bad = await app.inject({ method: 'GET', url: `/api/games/${'x'.repeat(80)}/review` });
    expect(bad.statusCode).toBe(400);
  });

  it('a resigned game: 202 pending with Retry-After, then 200 with a review of the played line', async () => {
    const g = await played(11, 12);
    expect((await app.inject({ method: 'POST', url: `/api/games/${g.id}/resign` })).statusCode).toBe(200);
    const first = await app.inject({ method: 'GET', url: `/api/games/${g.id}/review` });
    expect(first.statusCode, first.body).toBe(202);
    expect(GameReviewPendingSchema.parse(first.json()).status).toBe('pending');
    expect(Number(first.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await app.reviews.settled(g.id);
    const done = await app.inject({ method: 'GET', url: `/api/games/${g.id}/review` });
    expect(done.statusCode, done.body).toBe(200);
    const review = GameReviewSchema.parse(done.json());
    expect(review.won).toBe(false);
    expect(review.moves).toBe(review.plies.length);
    expect(review.plies.map((p) => p.ply)).toEqual(review.plies.map((_, i) => i + 1));
    // Winnability only falls: no `true` after a `false`.
    const firstFalse = review.plies.findIndex((p) => p.winnable === false);
    if (firstFalse >= 0) expect(review.plies.slice(firstFalse).some((p) => p.winnable === true)).toBe(false);
    if (review.pointOfNoReturn !== null) expect(review.pointOfNoReturn.ply).toBe(firstFalse + 1);
    if (review.decided && review.winnableAtStart === true) expect(review.lastWinnable).not.toBeNull();
    expect(review.solverCalls).toBeGreaterThan(0);
  });

  it("an open day's ranked attempt is refused even to its owner once ended (the day has not closed)", async () => {
    const created = await app.inject({ method: 'POST', url: '/api/players', payload: { name: 'reviewer1' } });
    const token = PlayerCreatedSchema.parse(created.json()).token;
    const today = new Date(app.now()).toISOString().slice(0, 10);
    const a = await app.inject({
      method: 'POST',
      url: `/api/daily/${today}/classic-draw1/attempt`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(a.statusCode, a.body).toBe(201);
    const id = GameResponseSchema.parse(a.json()).id;
    const resigned = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/resign`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(resigned.statusCode, resigned.body).toBe(200);
    for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
      const r = await app.inject({ method: 'GET', url: `/api/games/${id}/review`, headers });
      expect(r.statusCode, r.body).toBe(403);
      expect(code(r)).toBe('forbidden');
    }
    expect(app.reviews.isComputing(id)).toBe(false);
  });
});
