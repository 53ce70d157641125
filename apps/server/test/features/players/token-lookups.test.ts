/**
 * Token look-ups under a burst (features/players/repository.ts `byTokenHash`, infra/db/batched-lookup.ts):
 * the tokens this node has not cached, asked for at once, share look-ups, and each request still gets its
 * own player — never another's — while an unknown or revoked token among them is refused.
 */
import { ErrorBodySchema, MeSchema, PlayerCreatedSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

describeEachDatabase('token look-ups in a burst', (db) => {
  let clock = Date.parse('2025-03-10T12:00:00Z');
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock });
  });
  afterAll(async () => {
    await app.close();
  });

  it('30 uncached tokens at once: each request is its own player; unknown and revoked tokens refused', async () => {
    const players = [];
    for (let i = 0; i < 30; i++) {
      const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name: `Burst ${i}` } });
      expect(r.statusCode, r.body).toBe(201);
      players.push(PlayerCreatedSchema.parse(r.json()));
    }
    const [revoked] = players;
    if (revoked === undefined) throw new Error('no player');
    // The first player signs out everywhere: its token is revoked.
    const out = await app.inject({
      method: 'POST',
      url: '/api/me/sign-out-everywhere',
      headers: { authorization: `Bearer ${revoked.token}` },
    });
    expect(out.statusCode, out.body).toBe(200);
    // Past the cache's memory of every token.
    clock += 10 * 60_000;

    const asks = [
      ...players.map((p) => ({ token: p.token, expect: p.id })),
      { token: 'not-a-token-anyone-holds', expect: null },
    ];
    const answers = await Promise.all(
      asks.map((a) =>
        app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${a.token}` } }),
      ),
    );
    answers.forEach((r, i) => {
      const ask = asks[i];
      if (ask === undefined) throw new Error('no ask');
      if (ask.expect === null || ask.token === revoked.token) {
        expect(r.statusCode, r.body).toBe(401);
        expect(ErrorBodySchema.parse(r.json()).error.code).toBe('unknown-token');
      } else {
        expect(r.statusCode, r.body).toBe(200);
        expect(MeSchema.parse(r.json()).id).toBe(ask.expect);
      }
    });
  });
});
