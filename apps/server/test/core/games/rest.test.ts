/** Every REST route's success and error paths (app.inject), on PGlite and on Postgres. */
import {
  ErrorBodySchema,
  GameResponseSchema,
  LegalMovesResponseSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import {
  CARD_CODES,
  MAX_DEAL_NUMBER,
  PRESETS,
  dealFromKey,
  dealFromNumber,
  formatDeal,
  type Move,
} from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { winnableDeal } from '@klondike/rules/testing';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

type Game = ReturnType<typeof GameResponseSchema.parse>;

describeEachDatabase('REST API', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function create(payload: object = { dealNumber: 7 }): Promise<Game> {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload });
    expect(r.statusCode, r.body).toBe(201);
    return GameResponseSchema.parse(r.json());
  }
  async function legal(id: string): Promise<{ version: number; moves: Move[] }> {
    const r = await app.inject({ method: 'GET', url: `/api/games/${id}/legal-moves` });
    expect(r.statusCode).toBe(200);
    return LegalMovesResponseSchema.parse(r.json());
  }
  function expectError(
    r: { statusCode: number; json: () => unknown },
    status: number,
    code: string,
  ): ReturnType<typeof ErrorBodySchema.parse> {
    expect(r.statusCode).toBe(status);
    const body = ErrorBodySchema.parse(r.json());
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(0);
    return body;
  }

  it('GET /api/health → 200 {status:"ok"} (supertest)', async () => {
    const r = await request(app.server).get('/api/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
  });

  describe('POST /api/games', () => {
    it('201 with a deal number: id, version 0, view, dealNumber, default preset classic-draw1', async () => {
      const g = await create({ dealNumber: 42 });
      expect(g.version).toBe(0);
      expect(g.dealNumber).toBe(42);
      expect(g.preset).toBe('classic-draw1');
      expect(g.view.status).toBe('playing');
      expect(g.view.options).toEqual(PRESETS['classic-draw1']);
      expect(g.view.stock.count).toBe(24);
      expect(g.view.tableau.map((p) => p.faceDown)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const deal = dealFromNumber(42);
      if (!deal.ok) throw new Error('deal');
      expect(g.view.tableau[0]?.faceUp).toEqual([formatDeal(deal.value).split(' ')[0]]);
    });

    it('201 with the largest deal number 2^32−1 (stored as BIGINT) and GET returns it', async () => {
      const g = await create({ dealNumber: MAX_DEAL_NUMBER });
      expect(g.dealNumber).toBe(MAX_DEAL_NUMBER);
      const r = await app.inject({ method: 'GET', url: `/api/games/${g.id}` });
      expect(GameResponseSchema.parse(r.json()).dealNumber).toBe(MAX_DEAL_NUMBER);
    });

    it('201 with no body deals a fresh random v2 key, kept server-side: no deal number in any response', async () => {
      const r = await app.inject({ method: 'POST', url: '/api/games' });
      expect(r.statusCode).toBe(201);
      const g = GameResponseSchema.parse(r.json());
      expect(g.dealNumber).toBeNull();
      const again = GameResponseSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/games/${g.id}` })).json(),
      );
      expect(again.dealNumber).toBeNull();
      const row = await app.prisma.game.findUniqueOrThrow({ where: { id: g.id } });
      expect(row.dealNumber).toBeNull();
      expect(row.dealKey).toMatch(/^[0-9a-f]{64}$/);
      const deal = dealFromKey(Buffer.from(row.dealKey ?? '', 'hex'));
      expect(deal.ok && formatDeal(deal.value)).toBe(row.deal);
      const other = await create({});
      const otherRow = await app.prisma.game.findUniqueOrThrow({ where: { id: other.id } });
      expect(otherRow.dealKey).not.toBe(row.dealKey);
      expect(otherRow.deal).not.toBe(row.deal);
    });

    it('201 with an explicit deal (52 codes), preset and option overrides (preset null once overridden)', async () => {
      const deal = winnableDeal(3);
      const g = await create({ deal, preset: 'vegas-draw3' });
      expect(g.preset).toBe('vegas-draw3');
      expect(g.dealNumber).toBeNull();
      expect(g.view.score).toBe(-52);
      expect(g.view.tableau[0]?.faceUp).toEqual([deal.split(' ')[0]]); // R2: card 1 is t1's face-up card
      const o = await create({ dealNumber: 3, preset: 'classic-draw3', options: { timed: false } });
      expect(o.preset).toBeNull();
      expect(o.view.options).toEqual({ ...PRESETS['classic-draw3'], timed: false });
      const same = await create({ dealNumber: 3, preset: 'classic-draw3', options: { draw: 3 } });
      expect(same.preset).toBe('classic-draw3');
    });

    it('400 bad-request: deal and dealNumber together, bad deal, unknown preset, bad dealNumber, unknown field, invalid JSON', async () => {
      expectError(
        await app.inject({
          method: 'POST',
          url: '/api/games',
          payload: { deal: winnableDeal(1), dealNumber: 1 },
        }),
        400,
        'bad-request',
      );
      const bad = expectError(
        await app.inject({ method: 'POST', url: '/api/games', payload: { deal: 'AC AC' } }),
        400,
        'bad-request',
      );
      expect(bad.error.message).toMatch(/52/);
      const dup = winnableDeal(1).replace('KS', 'QS');
      expectError(
        await app.inject({ method: 'POST', url: '/api/games', payload: { deal: dup } }),
        400,
        'bad-request',
      );
      expectError(
        await app.inject({ method: 'POST', url: '/api/games', payload: { preset: 'spider' } }),
        400,
        'bad-request',
      );
      expectError(
        await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 0 } }),
        400,
        'bad-request',
      );
      expectError(
        await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: MAX_DEAL_NUMBER + 1 } }),
        400,
        'bad-request',
      );
      expectError(
        await app.inject({ method: 'POST', url: '/api/games', payload: { colour: 'red' } }),
        400,
        'bad-request',
      );
      expectError(
        await app.inject({
          method: 'POST',
          url: '/api/games',
          headers: { 'content-type': 'application/json' },
          payload: '{"dealNumber":',
        }),
        400,
        'bad-request',
      );
    });
  });

  describe('GET /api/games/:id', () => {
    it('200 {id, version, view}', async () => {
      const g = await create();
      const r = await app.inject({ method: 'GET', url: `/api/games/${g.id}` });
      expect(r.statusCode).toBe(200);
      expect(GameResponseSchema.parse(r.json())).toMatchObject({
        id: g.id,
        version: 0,
        view: { ...g.view, elapsedMs: 0 },
      });
    });
    it('404 not-found for an unknown id; 400 bad-request for a malformed id', async () => {
      expectError(await app.inject({ method: 'GET', url: '/api/games/doesNotExist123' }), 404, 'not-found');
      expectError(await app.inject({ method: 'GET', url: '/api/games/bad%20id!' }), 400, 'bad-request');
    });
  });

  describe('POST /api/games/:id/moves', () => {
    it('200 {version, view}: version +1, the move applied, the clock started', async () => {
      const g = await create();
      const { moves } = await legal(g.id);
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      expect(r.statusCode).toBe(200);
      const s = StateResponseSchema.parse(r.json());
      expect(s.version).toBe(1);
      expect(s.view.moves).toBe(1);
      expect(s.view.stock.count).toBe(23);
      expect(s.view.waste).toHaveLength(1);
      expect(moves).toContainEqual({ type: 'draw' });
    });

    it('409 stale-version with the current version; the game is unchanged', async () => {
      const g = await create();
      await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      const before = await app.inject({ method: 'GET', url: `/api/games/${g.id}` });
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      const body = expectError(r, 409, 'stale-version');
      expect(body.error.version).toBe(1);
      const future = expectError(
        await app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version: 5 },
        }),
        409,
        'stale-version',
      );
      expect(future.error.version).toBe(1);
      const after = await app.inject({ method: 'GET', url: `/api/games/${g.id}` });
      const strip = (b: Game) => ({ ...b, view: { ...b.view, elapsedMs: 0, score: 0 } });
      expect(strip(GameResponseSchema.parse(after.json()))).toEqual(
        strip(GameResponseSchema.parse(before.json())),
      );
    });

    it('422 illegal-move with the rules reason and the version; the game is unchanged', async () => {
      const g = await create({ deal: winnableDeal(1) });
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'move', from: 't1', to: 'fC', count: 1 }, version: 0 },
      });
      const body = expectError(r, 422, 'illegal-move');
      expect(body.error.reason).toBe('foundation-build');
      expect(body.error.version).toBe(0);
      const same = expectError(
        await app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'move', from: 't3', to: 't3', count: 1 }, version: 0 },
        }),
        422,
        'illegal-move',
      );
      expect(same.error.reason).toBe('same-pile');
      const after = GameResponseSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/games/${g.id}` })).json(),
      );
      expect(after.version).toBe(0);
      expect(after.view).toEqual(g.view);
    });

    it('400 bad-request for malformed bodies (unknown move type, bad pile, count 0, missing version, extra field)', async () => {
      const g = await create();
      for (const payload of [
        { move: { type: 'fly' }, version: 0 },
        { move: { type: 'move', from: 't8', to: 't1', count: 1 }, version: 0 },
        { move: { type: 'move', from: 't1', to: 't2', count: 0 }, version: 0 },
        { move: { type: 'draw' } },
        { move: { type: 'draw' }, version: -1 },
        { move: { type: 'draw' }, version: 0, extra: true },
        {},
      ]) {
        expectError(
          await app.inject({ method: 'POST', url: `/api/games/${g.id}/moves`, payload }),
          400,
          'bad-request',
        );
      }
      expect(
        GameResponseSchema.parse((await app.inject({ method: 'GET', url: `/api/games/${g.id}` })).json())
          .version,
      ).toBe(0);
    });

    it('404 not-found for an unknown game', async () => {
      expectError(
        await app.inject({
          method: 'POST',
          url: '/api/games/nope123/moves',
          payload: { move: { type: 'draw' }, version: 0 },
        }),
        404,
        'not-found',
      );
    });
  });

  describe('POST /api/games/:id/undo', () => {
    it('200 reverts the last move (version still increases); works without a body and with {version}', async () => {
      const g = await create();
      await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      const r = await app.inject({ method: 'POST', url: `/api/games/${g.id}/undo` });
      expect(r.statusCode).toBe(200);
      const s = StateResponseSchema.parse(r.json());
      expect(s.version).toBe(2);
      expect(s.view.stock.count).toBe(24);
      expect(s.view.waste).toEqual([]);
      expect(s.view.moves).toBe(0);
      await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'draw' }, version: 2 },
      });
      const v = await app.inject({ method: 'POST', url: `/api/games/${g.id}/undo`, payload: { version: 3 } });
      expect(v.statusCode).toBe(200);
      expect(StateResponseSchema.parse(v.json()).version).toBe(4);
    });
    it('409 stale-version, 422 nothing-to-undo / undo-off, 404 unknown game, 400 bad body', async () => {
      const g = await create();
      const stale = expectError(
        await app.inject({ method: 'POST', url: `/api/games/${g.id}/undo`, payload: { version: 3 } }),
        409,
        'stale-version',
      );
      expect(stale.error.version).toBe(0);
      const none = expectError(
        await app.inject({ method: 'POST', url: `/api/games/${g.id}/undo`, payload: {} }),
        422,
        'illegal-move',
      );
      expect(none.error.reason).toBe('nothing-to-undo');
      const off = await create({ dealNumber: 9, options: { undo: false } });
      await app.inject({
        method: 'POST',
        url: `/api/games/${off.id}/moves`,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      const offBody = expectError(
        await app.inject({ method: 'POST', url: `/api/games/${off.id}/undo`, payload: { version: 1 } }),
        422,
        'illegal-move',
      );
      expect(offBody.error.reason).toBe('undo-off');
      expectError(
        await app.inject({ method: 'POST', url: '/api/games/nope123/undo', payload: {} }),
        404,
        'not-found',
      );
      expectError(
        await app.inject({ method: 'POST', url: `/api/games/${g.id}/undo`, payload: { version: 'x' } }),
        400,
        'bad-request',
      );
    });
  });

  describe('POST /api/games/:id/resign', () => {
    it('200 status resigned; then moves → 422 game-over; deal → 200', async () => {
      const g = await create({ dealNumber: 11 });
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/resign`,
        payload: { version: 0 },
      });
      expect(r.statusCode).toBe(200);
      const s = StateResponseSchema.parse(r.json());
      expect(s.view.status).toBe('resigned');
      expect(s.version).toBe(1);
      const again = expectError(
        await app.inject({ method: 'POST', url: `/api/games/${g.id}/resign` }),
        422,
        'illegal-move',
      );
      expect(again.error.reason).toBe('game-over');
      const move = expectError(
        await app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version: 1 },
        }),
        422,
        'illegal-move',
      );
      expect(move.error.reason).toBe('game-over');
      const deal = await app.inject({ method: 'GET', url: `/api/games/${g.id}/deal` });
      expect(deal.statusCode).toBe(200);
      const expected = dealFromNumber(11);
      if (!expected.ok) throw new Error('deal');
      expect(deal.json()).toEqual({ deal: formatDeal(expected.value), dealNumber: 11 });
    });
    it('409 stale-version and 404 not-found', async () => {
      const g = await create();
      expectError(
        await app.inject({ method: 'POST', url: `/api/games/${g.id}/resign`, payload: { version: 1 } }),
        409,
        'stale-version',
      );
      expectError(await app.inject({ method: 'POST', url: '/api/games/nope123/resign' }), 404, 'not-found');
    });
  });

  describe('GET /api/games/:id/legal-moves', () => {
    it('200 {version, moves}: every listed move applies (200), empty once resigned', async () => {
      const g = await create({ dealNumber: 5 });
      const { version, moves } = await legal(g.id);
      expect(version).toBe(0);
      expect(moves.length).toBeGreaterThan(0);
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: moves[0], version: 0 },
      });
      expect(r.statusCode).toBe(200);
      await app.inject({ method: 'POST', url: `/api/games/${g.id}/resign` });
      expect((await legal(g.id)).moves).toEqual([]);
    });
    it('404 not-found', async () => {
      expectError(
        await app.inject({ method: 'GET', url: '/api/games/nope123/legal-moves' }),
        404,
        'not-found',
      );
    });
  });

  describe('GET /api/games/:id/deal', () => {
    it('403 forbidden while playing (also after moves), 404 for an unknown game', async () => {
      const g = await create();
      expectError(await app.inject({ method: 'GET', url: `/api/games/${g.id}/deal` }), 403, 'forbidden');
      await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      expectError(await app.inject({ method: 'GET', url: `/api/games/${g.id}/deal` }), 403, 'forbidden');
      expectError(await app.inject({ method: 'GET', url: '/api/games/nope123/deal' }), 404, 'not-found');
    });
  });

  describe('GET /api/games/:id/deal for a blocked game (R13)', () => {
    it('403 while blocked (undo could still take it back); 200 with the deal once resigned', async () => {
      // Tableau tops are all black and no Ace is reachable, so nothing builds; one pass (redeals 0) and the last
      // stock card (2S) cannot be played: after drawing the whole stock the game is blocked.
      const tops = ['KC', 'KS', 'JC', 'JS', '9C', '9S', '7C'];
      const rest = [
        'AC',
        'AD',
        'AH',
        'AS',
        '2C',
        '2D',
        '2H',
        '3C',
        '3D',
        '3H',
        '3S',
        '4C',
        '4D',
        '4H',
        '4S',
        '5C',
        '5D',
        '5H',
        '5S',
        '6C',
        '6D',
      ];
      const used = new Set([...tops, ...rest]);
      const stock = CARD_CODES.filter((c) => !used.has(c) && c !== '2S').concat('2S');
      // Deal order: round r deals piles r..7; the card of round r to pile r is that pile's top.
      const piles: string[][] = tops.map((top, p) => [...rest.splice(0, p), top]);
      const order: string[] = [];
      for (let round = 0; round < 7; round++) for (let p = round; p < 7; p++) order.push(piles[p]![round]!);
      const g = await create({ deal: [...order, ...stock].join(' '), options: { redeals: 0 } });
      let version = g.version;
      for (let i = 0; i < 24; i++) {
        const r = await app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version },
        });
        expect(r.statusCode, r.body).toBe(200);
        version = StateResponseSchema.parse(r.json()).version;
      }
      const now = GameResponseSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/games/${g.id}` })).json(),
      );
      expect(now.view.status).toBe('blocked');
      expectError(await app.inject({ method: 'GET', url: `/api/games/${g.id}/deal` }), 403, 'forbidden');
      const resigned = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/resign`,
        payload: { version },
      });
      expect(resigned.statusCode).toBe(200);
      const deal = await app.inject({ method: 'GET', url: `/api/games/${g.id}/deal` });
      expect(deal.statusCode).toBe(200);
      expect(deal.json<{ deal: string }>().deal).toBe([...order, ...stock].join(' '));
    });
  });

  it('a game not in memory is reloaded from the database by replaying its log (same version and view)', async () => {
    const g = await create({ dealNumber: 21, options: { timed: false } });
    let version = 0;
    for (let i = 0; i < 6; i++) {
      const { moves } = await legal(g.id);
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${g.id}/moves`,
        payload: { move: moves[moves.length - 1], version },
      });
      version = StateResponseSchema.parse(r.json()).version;
    }
    await app.inject({ method: 'POST', url: `/api/games/${g.id}/undo` });
    const before = GameResponseSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/games/${g.id}` })).json(),
    );
    expect(app.rooms.evict(g.id)).toBe(true);
    const after = GameResponseSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/games/${g.id}` })).json(),
    );
    expect(after.version).toBe(before.version);
    expect({ ...after.view, elapsedMs: 0 }).toEqual({ ...before.view, elapsedMs: 0 });
    const next = await app.inject({
      method: 'POST',
      url: `/api/games/${g.id}/moves`,
      payload: { move: { type: 'draw' }, version: after.version },
    });
    expect(next.statusCode).toBe(200);
  });

  // Two servers on one database (scale-out): only meaningful where two processes can share it — Postgres.
  // Declared on Postgres alone (not skipped on PGlite, whose one process cannot share its database).
  if (db.kind === 'postgres')
    it('two nodes: a write from a node with a stale cached copy → 409 with the database version, then it catches up', async () => {
      const other = await testApp({
        kind: 'postgres',
        config: () => ({ databaseUrl: app.config.databaseUrl, dataDir: 'memory://' }),
        cleanup: async () => {},
      });
      try {
        const g = await create({ dealNumber: 8 });
        await app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version: 0 },
        });
        expect(
          GameResponseSchema.parse((await other.inject({ method: 'GET', url: `/api/games/${g.id}` })).json())
            .version,
        ).toBe(1);
        await app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version: 1 },
        });
        const stale = expectError(
          await other.inject({
            method: 'POST',
            url: `/api/games/${g.id}/moves`,
            payload: { move: { type: 'draw' }, version: 1 },
          }),
          409,
          'stale-version',
        );
        expect(stale.error.version).toBe(2);
        const caught = GameResponseSchema.parse(
          (await other.inject({ method: 'GET', url: `/api/games/${g.id}` })).json(),
        );
        expect(caught.version).toBe(2);
        expect(caught.view.stock.count).toBe(22);
        const ok = await other.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version: 2 },
        });
        expect(ok.statusCode).toBe(200);
      } finally {
        await other.close();
      }
    });

  it('concurrent POST /api/games/:id/moves to one game at the same version: exactly one 200, the rest 409', async () => {
    const g = await create({ dealNumber: 13 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version: 0 },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const seq = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: `/api/games/${g.id}/moves`,
          payload: { move: { type: 'draw' }, version: i + 1 },
        }),
      ),
    );
    expect(seq.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(
      GameResponseSchema.parse((await app.inject({ method: 'GET', url: `/api/games/${g.id}` })).json()).view
        .stock.count,
    ).toBe(18);
  });
});
