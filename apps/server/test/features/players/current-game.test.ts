/**
 * GET /api/me/games/current (docs/features.md "Resuming a game"): the caller's unfinished game they acted on last,
 * which `/` resumes on another device signed in as the same player — and that device then plays it with
 * its own token (REST and socket) while nobody else can. Bad paths: no token or an unknown one (401),
 * another player's and anonymous games never answered, finished games (won, resigned) and a ranked attempt
 * of a closed day left out.
 */
import {
  CurrentGameResponseSchema,
  ErrorBodySchema,
  GameResponseSchema,
  PlayerCreatedSchema,
  type ServerFrame,
  StateResponseSchema,
  TransferSchema,
} from '@klondike/protocol';
import { type Move, resolveOptions } from '@klondike/rules';
import { winnableDeal, winningLine } from '@klondike/rules/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';

const DAY = '2026-03-10';
const at = (date: string, time = '12:00:00.000') => Date.parse(`${date}T${time}Z`);

describeEachDatabase('the current game (GET /api/me/games/current)', (db) => {
  let clock = at(DAY);
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};
  const sockets: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await app.close();
    await db.cleanup();
  });

  async function call(
    method: 'GET' | 'POST',
    url: string,
    opts: { as?: string; payload?: object } = {},
  ): Promise<LightMyRequestResponse> {
    const token = opts.as !== undefined ? (tokens[opts.as] ?? opts.as) : undefined;
    return app.inject({
      method,
      url,
      ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
  }
  function expectError(r: LightMyRequestResponse, status: number, code: string): void {
    expect(r.statusCode, r.body).toBe(status);
    expect(ErrorBodySchema.parse(r.json()).error.code).toBe(code);
  }
  async function current(as: string) {
    const r = await call('GET', '/api/me/games/current', { as });
    expect(r.statusCode, r.body).toBe(200);
    return CurrentGameResponseSchema.parse(r.json()).game;
  }
  /** Creates a game one server second later, as `as` (or anonymously). */
  async function create(as: string | undefined, payload: object): Promise<string> {
    clock += 1000;
    const r = await call('POST', '/api/games', { ...(as ? { as } : {}), payload });
    expect(r.statusCode, r.body).toBe(201);
    return GameResponseSchema.parse(r.json()).id;
  }
  /** Plays moves one server second apart from `version`; returns the last state. */
  async function play(id: string, as: string | undefined, moves: readonly Move[], version: number) {
    let last: ReturnType<typeof StateResponseSchema.parse> | undefined;
    for (const move of moves) {
      clock += 1000;
      const r = await call('POST', `/api/games/${id}/moves`, {
        ...(as ? { as } : {}),
        payload: { move, version: last?.version ?? version },
      });
      expect(r.statusCode, r.body).toBe(200);
      last = StateResponseSchema.parse(r.json());
    }
    if (!last) throw new Error('no move');
    return last;
  }
  async function resign(id: string, as: string, version: number): Promise<void> {
    clock += 1000;
    const r = await call('POST', `/api/games/${id}/resign`, { as, payload: { version } });
    expect(r.statusCode, r.body).toBe(200);
  }

  const draw: Move = { type: 'draw' };
  let g1 = '';
  let g2 = '';
  let bobs = '';

  it('players; without a token 401 unauthorized, with an unknown one 401 unknown-token', async () => {
    for (const name of ['Alice', 'Bob']) {
      const r = await call('POST', '/api/players', { payload: { name } });
      expect(r.statusCode, r.body).toBe(201);
      tokens[name.toLowerCase()] = PlayerCreatedSchema.parse(r.json()).token;
    }
    expectError(await call('GET', '/api/me/games/current'), 401, 'unauthorized');
    expectError(
      await call('GET', '/api/me/games/current', { as: 'not-a-token-anyone-was-given-000000000000' }),
      401,
      'unknown-token',
    );
  });

  it('a player without games has none: {"game": null}', async () => {
    expect(await current('alice')).toBeNull();
  });

  it('the most recently moved (or, without a move, created) unfinished game of the caller', async () => {
    g1 = await create('alice', { preset: 'classic-draw1', dealNumber: 7 });
    g2 = await create('alice', { preset: 'classic-draw3', dealNumber: 8 });
    expect(await current('alice')).toEqual({
      id: g2,
      kind: 'casual',
      preset: 'classic-draw3',
      daily: null,
      version: 0,
      moves: 0,
      lastActionAt: new Date(clock).toISOString(),
    });
    await play(g1, 'alice', [draw, draw], 0);
    expect(await current('alice')).toEqual({
      id: g1,
      kind: 'casual',
      preset: 'classic-draw1',
      daily: null,
      version: 2,
      moves: 2,
      lastActionAt: new Date(clock).toISOString(),
    });
  });

  it("another player's game and an anonymous game are never answered, however recent", async () => {
    bobs = await create('bob', { dealNumber: 9 });
    await play(bobs, 'bob', [draw], 0);
    const anon = await create(undefined, { dealNumber: 10 });
    await play(anon, undefined, [draw], 0);
    expect((await current('alice'))?.id).toBe(g1);
    expect((await current('bob'))?.id).toBe(bobs);
  });

  it('a second device signed in as the same player gets the same game and plays it with its own token', async () => {
    const t = await call('POST', '/api/me/transfer', { as: 'alice' });
    expect(t.statusCode, t.body).toBe(201);
    const r = await call('POST', '/api/players/transfer', {
      payload: { code: TransferSchema.parse(t.json()).code },
    });
    expect(r.statusCode, r.body).toBe(200);
    tokens.alice2 = PlayerCreatedSchema.parse(r.json()).token;
    expect(tokens.alice2).not.toBe(tokens.alice);

    const resumed = await current('alice2');
    expect(resumed).toMatchObject({ id: g1, version: 2, moves: 2 });
    const seen = await call('GET', `/api/games/${g1}`, { as: 'alice2' });
    expect(GameResponseSchema.parse(seen.json())).toMatchObject({ id: g1, version: 2 });

    // Nobody else may act on it: no token → 401, another player's → 403; nothing changes.
    const move = { move: draw, version: 2 };
    expectError(await call('POST', `/api/games/${g1}/moves`, { payload: move }), 401, 'unauthorized');
    expectError(await call('POST', `/api/games/${g1}/moves`, { as: 'bob', payload: move }), 403, 'forbidden');
    expect((await play(g1, 'alice2', [draw], 2)).version).toBe(3);
    expect(await current('alice')).toMatchObject({ id: g1, version: 3, moves: 3 });

    // Over the socket too: signed in as Alice (second token) the move is taken; signed in as Bob it is not.
    const isState = (f: ServerFrame) => f.type === 'state' && f.gameId === g1;
    const isError = (f: ServerFrame) => f.type === 'error';
    const socket = async (as: string) => {
      const c = await WsClient.connect(wsUrl(app));
      sockets.push(c);
      await c.request({ type: 'auth', token: tokens[as] }, (f) => f.type === 'authed');
      await c.request({ type: 'subscribe', gameId: g1 }, isState);
      return c;
    };
    const bob = await socket('bob');
    expect(
      await bob.request({ type: 'move', gameId: g1, move: draw, version: 3, requestId: 'b1' }, isError),
    ).toMatchObject({ code: 'forbidden', gameId: g1 });
    const second = await socket('alice2');
    clock += 1000;
    expect(
      await second.request(
        { type: 'move', gameId: g1, move: draw, version: 3, requestId: 'a1' },
        (f) => isState(f) || isError(f),
      ),
    ).toMatchObject({ type: 'state', version: 4, requestId: 'a1' });
    expect(await current('alice')).toMatchObject({
      id: g1,
      version: 4,
      lastActionAt: new Date(clock).toISOString(),
    });
  });

  it('finished games are left out: resigned, then won; none left → null', async () => {
    await resign(g1, 'alice2', 4);
    expect((await current('alice'))?.id).toBe(g2);
    const won = await create('alice', { preset: 'classic-draw1', deal: winnableDeal(1) });
    expect((await current('alice'))?.id).toBe(won);
    const end = await play(won, 'alice', winningLine(resolveOptions('classic-draw1')), 0);
    expect(end.view.status).toBe('won'); // docs/rules.md R12
    expect((await current('alice'))?.id).toBe(g2);
    await resign(g2, 'alice', 0);
    expect(await current('alice')).toBeNull();
  });

  it('daily games count; a ranked attempt only while its day is open (then it takes no more moves)', async () => {
    clock += 1000;
    const a = await call('POST', `/api/daily/${DAY}/classic-draw1/attempt`, { as: 'alice' });
    expect(a.statusCode, a.body).toBe(201);
    const ranked = GameResponseSchema.parse(a.json()).id;
    expect(await current('alice')).toMatchObject({
      id: ranked,
      kind: 'daily-ranked',
      daily: { date: DAY, preset: 'classic-draw1' },
    });
    expect((await current('bob'))?.id).toBe(bobs);

    clock = at('2026-03-11', '00:00:01.000'); // the day has closed: the attempt is over
    expect(await current('alice')).toBeNull();
    const p = await call('POST', `/api/daily/${DAY}/classic-draw1/practice`, { as: 'alice' });
    expect(p.statusCode, p.body).toBe(201);
    expect(await current('alice')).toMatchObject({
      id: GameResponseSchema.parse(p.json()).id,
      kind: 'daily-practice',
      daily: { date: DAY, preset: 'classic-draw1' },
    });
  });
});
