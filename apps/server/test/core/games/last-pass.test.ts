/**
 * R16, the last pass (preset `draw3-last-pass`, option `finalSinglePass`, move `{"type":"last-pass"}`) over
 * REST and the WebSocket: a known deal won with the switch, the solver's line for it replayed, the
 * legal-moves route, the OpenAPI document, and the error paths.
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  LegalMovesResponseSchema,
  type ServerFrame,
  SolveResponseSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import { type Move, PRESETS, dealFromNumber } from '@klondike/rules';
import { solve } from '@klondike/solver';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';

/** A deal the solver wins under draw3-last-pass with a line that takes the last pass (node-limited search). */
const DEAL_NUMBER = 1;

type StateFrame = Extract<ServerFrame, { type: 'state' }>;
const isState = (f: ServerFrame): f is StateFrame => f.type === 'state';

describeEachDatabase('R16 last pass over REST and WebSocket', (db) => {
  let app: FastifyInstance;
  const clients: WsClient[] = [];
  beforeAll(async () => {
    app = await testApp(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  async function create(
    payload: object,
  ): Promise<{ id: string; body: ReturnType<typeof GameResponseSchema.parse> }> {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload });
    expect(r.statusCode, r.body).toBe(201);
    const body = GameResponseSchema.parse(r.json());
    return { id: body.id, body };
  }

  async function post(id: string, move: Move, version: number) {
    return app.inject({ method: 'POST', url: `/api/games/${id}/moves`, payload: { move, version } });
  }

  /** Plays `line` over REST from version 0; checks R16 around the switch; returns the final status. */
  async function playOverRest(id: string, line: readonly Move[]): Promise<string> {
    let version = 0;
    let status = '';
    let switched = false;
    let stockBefore = -1;
    let wasteBefore = -1;
    for (const move of line) {
      if (move.type === 'last-pass') {
        const legal = await app.inject({ method: 'GET', url: `/api/games/${id}/legal-moves` });
        const moves = LegalMovesResponseSchema.parse(legal.json()).moves;
        expect(moves).toContainEqual({ type: 'last-pass' });
        expect(moves).toContainEqual({ type: 'recycle' });
      }
      const r = await post(id, move, version);
      expect(r.statusCode, `${JSON.stringify(move)} → ${r.body}`).toBe(200);
      const { version: v, view } = StateResponseSchema.parse(r.json());
      expect(v).toBe(version + 1);
      version = v;
      status = view.status;
      if (move.type === 'last-pass') {
        switched = true;
        expect(view).toMatchObject({ lastPass: 'taken', redealsLeft: 0, waste: [] });
      } else if (move.type === 'draw' && switched) {
        // R16: after the last pass every draw turns one card.
        expect(view.stock.count).toBe(stockBefore - 1);
        expect(view.waste.length).toBe(wasteBefore + 1);
      } else if (!switched) expect(view.lastPass).toBe('available');
      stockBefore = view.stock.count;
      wasteBefore = view.waste.length;
    }
    return status;
  }

  it('R16: a draw3-last-pass game over REST takes the last pass and is won on a known deal', async () => {
    const deal = dealFromNumber(DEAL_NUMBER);
    if (!deal.ok) throw new Error('deal');
    const options = PRESETS['draw3-last-pass'];
    const r = solve(deal.value, options, { maxNodes: 300_000, timeLimitMs: 60_000, shortenMs: 0 });
    expect(r.verdict).toBe('won');
    const line = r.line ?? [];
    expect(line.filter((m) => m.type === 'last-pass')).toHaveLength(1);

    const { id, body } = await create({ preset: 'draw3-last-pass', dealNumber: DEAL_NUMBER });
    expect(body.preset).toBe('draw3-last-pass');
    expect(body.view.options).toEqual(options);
    expect(body.view.lastPass).toBe('available');
    expect(await playOverRest(id, line)).toBe('won');
    const after = await post(id, { type: 'draw' }, line.length);
    expect(after.statusCode).toBe(422);
  });

  it('R16: the line POST /api/solve gives for that deal replays over REST to a win', async () => {
    const solved = await app.inject({
      method: 'POST',
      url: '/api/solve',
      payload: { preset: 'draw3-last-pass', dealNumber: DEAL_NUMBER, timeLimitMs: 20_000 },
    });
    expect(solved.statusCode, solved.body).toBe(200);
    const result = SolveResponseSchema.parse(solved.json());
    expect(result.verdict).toBe('won');
    const { id } = await create({ preset: 'draw3-last-pass', dealNumber: DEAL_NUMBER });
    expect(await playOverRest(id, result.line ?? [])).toBe('won');
  });

  it('R16: illegal last passes → 422 with the rule reason and nothing changes; malformed → 400', async () => {
    const classic = await create({ preset: 'classic-draw3', dealNumber: DEAL_NUMBER });
    const off = await post(classic.id, { type: 'last-pass' }, 0);
    expect(off.statusCode).toBe(422);
    expect(ErrorBodySchema.parse(off.json()).error).toMatchObject({
      code: 'illegal-move',
      reason: 'last-pass-off',
    });
    expect(classic.body.view.lastPass).toBe('none');

    const { id } = await create({ preset: 'draw3-last-pass', dealNumber: DEAL_NUMBER });
    const early = await post(id, { type: 'last-pass' }, 0);
    expect(early.statusCode).toBe(422);
    expect(ErrorBodySchema.parse(early.json()).error).toMatchObject({
      reason: 'stock-not-empty',
      version: 0,
    });
    let version = 0;
    for (let i = 0; i < 8; i++) expect((await post(id, { type: 'draw' }, version++)).statusCode).toBe(200);
    expect((await post(id, { type: 'last-pass' }, version++)).statusCode).toBe(200);
    for (let i = 0; i < 24; i++) expect((await post(id, { type: 'draw' }, version++)).statusCode).toBe(200);
    for (const move of [{ type: 'recycle' }, { type: 'last-pass' }] as const) {
      const r = await post(id, move, version);
      expect(r.statusCode).toBe(422);
      expect(ErrorBodySchema.parse(r.json()).error.reason).toBe('last-pass-taken');
    }
    const legal = await app.inject({ method: 'GET', url: `/api/games/${id}/legal-moves` });
    expect(LegalMovesResponseSchema.parse(legal.json()).moves.some((m) => m.type !== 'move')).toBe(false);

    const extra = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      payload: { move: { type: 'last-pass', count: 1 }, version },
    });
    expect(extra.statusCode).toBe(400);
    const badOption = await app.inject({
      method: 'POST',
      url: '/api/games',
      payload: { preset: 'classic-draw3', options: { finalSinglePass: 'yes' } },
    });
    expect(badOption.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(badOption.json()).error.code).toBe('bad-request');
  });

  it('R16: options.finalSinglePass turns the last pass on for any preset (the game then has no preset name)', async () => {
    const { body } = await create({
      preset: 'strict-draw3',
      options: { finalSinglePass: true },
      dealNumber: 5,
    });
    expect(body.preset).toBeNull();
    expect(body.view.options).toMatchObject({ redeals: 2, finalSinglePass: true });
    expect(body.view.lastPass).toBe('available');
  });

  it('R16: the last pass over the WebSocket, and undo back to draw 3', async () => {
    const c = await WsClient.connect(wsUrl(app));
    clients.push(c);
    const { id } = await create({ preset: 'draw3-last-pass', dealNumber: DEAL_NUMBER });
    await c.request({ type: 'subscribe', gameId: id }, (f) => isState(f) && f.gameId === id);
    let version = 0;
    for (; version < 8; version++) {
      const v = version + 1;
      await c.request(
        { type: 'move', gameId: id, move: { type: 'draw' }, version },
        (f) => isState(f) && f.version === v,
      );
    }
    const passed = await c.request(
      { type: 'move', gameId: id, move: { type: 'last-pass' }, version, requestId: 'lp' },
      (f) => (isState(f) && f.version === 9) || f.type === 'error',
    );
    expect(passed).toMatchObject({
      type: 'state',
      cause: 'move',
      move: { type: 'last-pass' },
      requestId: 'lp',
    });
    if (isState(passed)) expect(passed.view).toMatchObject({ lastPass: 'taken', waste: [] });
    const drawn = await c.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 9 },
      (f) => isState(f) && f.version === 10,
    );
    if (isState(drawn)) expect(drawn.view.waste).toHaveLength(1);
    await c.request({ type: 'undo', gameId: id, version: 10 }, (f) => isState(f) && f.version === 11);
    const undone = await c.request(
      { type: 'undo', gameId: id, version: 11 },
      (f) => isState(f) && f.version === 12,
    );
    if (isState(undone)) expect(undone.view).toMatchObject({ lastPass: 'available', stock: { count: 0 } });
    expect(isState(undone) && undone.view.waste.length).toBe(24);
  });

  it('R16: the OpenAPI document has the move, the option, the view field and the preset', async () => {
    const r = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(r.statusCode).toBe(200);
    const text = r.body;
    for (const needle of ['"last-pass"', '"finalSinglePass"', '"draw3-last-pass"', '"lastPass"'])
      expect(text).toContain(needle);
  });
});
