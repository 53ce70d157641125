/**
 * The "still winnable?" badge has an allowance of its own (GET /api/games/:id/winnable, WINNABLE_RATE_MAX),
 * so checking after every move never uses up the hints (SOLVE_RATE_MAX); and a position on a winning line
 * the solver already found for the game is answered from that line, without another search — following
 * the line, or coming back to it with undo.
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  HintResponseSchema,
  type HintResponse,
} from '@klondike/protocol';
import { winnableDeal } from '@klondike/rules/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

describeEachDatabase('the winnable badge', (db) => {
  let app: FastifyInstance;
  let searches = 0;

  beforeAll(async () => {
    app = await testApp(db, {
      config: { rateLimitMax: 1000, solveRateMax: 3, winnableRateMax: 20, hintTimeMs: 3000 },
    });
    // Count the searches that reach the solver threads (the solver itself runs as always).
    const run = app.solver.run.bind(app.solver);
    app.solver.run = (...args) => {
      searches++;
      return run(...args);
    };
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const ask = async (id: string, what: 'hint' | 'winnable', ip: string) =>
    app.inject({ url: `/api/games/${id}/${what}`, remoteAddress: ip });

  it('checks after every move do not use up the hints', async () => {
    const ip = '10.7.0.1';
    const g = GameResponseSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/games', payload: { deal: winnableDeal(1) } })).json(),
    );
    let version = g.version;
    // The badge asks after each of 8 draws; the player's three hints stay available.
    for (let i = 0; i < 8; i++) {
      const w = await ask(g.id, 'winnable', ip);
      expect(w.statusCode, w.body).toBe(200);
      const moved = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'draw' }, version },
        remoteAddress: ip,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      version++;
    }
    for (let i = 0; i < 3; i++) expect((await ask(g.id, 'hint', ip)).statusCode).toBe(200);
    const over = await ask(g.id, 'hint', ip);
    expect(over.statusCode).toBe(429);
    expect(ErrorBodySchema.parse(over.json()).error.code).toBe('rate-limited');
    // The hints are used up; the badge still answers.
    expect((await ask(g.id, 'winnable', ip)).statusCode).toBe(200);
  });

  it('positions on a known winning line are answered without a search', async () => {
    const ip = '10.7.0.2';
    const g = GameResponseSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/games', payload: { deal: winnableDeal(1) } })).json(),
    );
    const first: HintResponse = HintResponseSchema.parse((await ask(g.id, 'winnable', ip)).json());
    expect(first.verdict).toBe('won');
    const move = first.move;
    expect(move).toBeDefined();
    const lineLength = first.lineLength ?? 0;
    const before = searches;

    // Follow the line for three moves: each position is on it.
    let version = 0;
    let next = move;
    for (let i = 1; i <= 3; i++) {
      const moved = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: next, version },
        remoteAddress: ip,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      version++;
      const h = HintResponseSchema.parse((await ask(g.id, 'winnable', ip)).json());
      expect(h).toMatchObject({ version, verdict: 'won', lineLength: lineLength - i });
      next = h.move;
    }
    // Undo back onto the line: known too.
    const undone = await app.inject({
      method: 'POST',
      url: `/api/games/${g.id}/undo`,
      payload: { version },
      remoteAddress: ip,
    });
    expect(undone.statusCode, undone.body).toBe(200);
    const back = HintResponseSchema.parse((await ask(g.id, 'hint', ip)).json());
    expect(back).toMatchObject({ version: version + 1, verdict: 'won', lineLength: lineLength - 2 });
    expect(searches).toBe(before);
  });
});
