/**
 * What a game is, in the server's words: every game response carries `kind` (`casual`, `daily-ranked`,
 * `daily-practice`, `race`) and its daily or race, so no client guesses from the game's options; the kind
 * survives a reload from the database (the room's policy follows it). And a token the server does not know is
 * refused with its own code, `unknown-token`, over REST and the socket, so clients act on codes, never on
 * message text.
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  PlayerCreatedSchema,
  RaceSchema,
  type GameResponse,
} from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

const SECRET = 'test-kinds-daily-secret-0123456789';
const DAY = '2025-06-10';
const NEXT_DAY = '2025-06-11';
const bearer = (p: Player) => ({ authorization: `Bearer ${p.token}` });

function expectError(r: LightMyRequestResponse, status: number, code: string): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(ErrorBodySchema.parse(r.json()).error.code).toBe(code);
}

describeEachDatabase('game kinds and the unknown-token code', (db) => {
  let app: FastifyInstance;
  let clock = Date.parse(`${DAY}T12:00:00.000Z`) - 86_400_000;
  let ada: Player;
  let bob: Player;

  async function create(name: string): Promise<Player> {
    const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
    expect(r.statusCode, r.body).toBe(201);
    return PlayerCreatedSchema.parse(r.json());
  }

  /** GET /api/games/:id, first with the room in memory, then replayed from the database. */
  async function bothWays(id: string, p?: Player): Promise<[GameResponse, GameResponse]> {
    const get = async () => {
      const r = await app.inject({ url: `/api/games/${id}`, ...(p ? { headers: bearer(p) } : {}) });
      expect(r.statusCode, r.body).toBe(200);
      return GameResponseSchema.parse(r.json());
    };
    const live = await get();
    expect(app.rooms.evict(id)).toBe(true);
    return [live, await get()];
  }

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => clock,
      config: { dailyArchiveDays: 0, dailySecret: SECRET, raceCountdownMs: 30, playerCreateRateMax: 0 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    ada = await create('Ada');
    bob = await create('Bob');
    clock = Date.parse(`${DAY}T12:00:00.000Z`);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  it('a casual game says casual, with no daily or race, before and after a reload', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 11 } });
    expect(r.statusCode, r.body).toBe(201);
    const created = GameResponseSchema.parse(r.json());
    expect(created).toMatchObject({ kind: 'casual', daily: null, race: null });
    for (const g of await bothWays(created.id))
      expect(g).toMatchObject({ kind: 'casual', daily: null, race: null });
  });

  it('a ranked attempt says daily-ranked with its daily; practice after close says daily-practice', async () => {
    const url = `/api/daily/${DAY}/classic-draw1`;
    const a = await app.inject({ method: 'POST', url: `${url}/attempt`, headers: bearer(ada) });
    expect(a.statusCode, a.body).toBe(201);
    const attempt = GameResponseSchema.parse(a.json());
    const daily = { date: DAY, preset: 'classic-draw1' };
    expect(attempt).toMatchObject({ kind: 'daily-ranked', daily, race: null });
    for (const g of await bothWays(attempt.id, ada)) expect(g).toMatchObject({ kind: 'daily-ranked', daily });

    // Its policy came back with it: while the day is open nobody else reads it, and after resigning it takes
    // no more moves (the ranked rule), also after the reload above.
    expectError(
      await app.inject({ url: `/api/games/${attempt.id}`, headers: bearer(bob) }),
      403,
      'forbidden',
    );
    const resigned = await app.inject({
      method: 'POST',
      url: `/api/games/${attempt.id}/resign`,
      headers: bearer(ada),
      payload: {},
    });
    expect(resigned.statusCode, resigned.body).toBe(200);
    expect(app.rooms.evict(attempt.id)).toBe(true);
    expectError(
      await app.inject({
        method: 'POST',
        url: `/api/games/${attempt.id}/moves`,
        headers: bearer(ada),
        payload: { move: { type: 'draw' }, version: 1 },
      }),
      409,
      'conflict',
    );

    clock = Date.parse(`${NEXT_DAY}T00:00:01.000Z`);
    const p = await app.inject({ method: 'POST', url: `${url}/practice`, headers: bearer(bob) });
    expect(p.statusCode, p.body).toBe(201);
    const practice = GameResponseSchema.parse(p.json());
    expect(practice).toMatchObject({ kind: 'daily-practice', daily, race: null });
    for (const g of await bothWays(practice.id, bob))
      expect(g).toMatchObject({ kind: 'daily-practice', daily });
  });

  it("a racer's game says race with its invite code, and stays the racer's alone during the race", async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/races',
      headers: bearer(ada),
      payload: {},
    });
    expect(created.statusCode, created.body).toBe(201);
    const { code } = RaceSchema.parse(created.json());
    const joined = await app.inject({ method: 'POST', url: `/api/races/${code}/join`, headers: bearer(bob) });
    expect(joined.statusCode, joined.body).toBe(200);
    const started = await app.inject({
      method: 'POST',
      url: `/api/races/${code}/start`,
      headers: bearer(ada),
    });
    expect(started.statusCode, started.body).toBe(200);
    clock += 1000; // past the 30 ms countdown of the injected clock
    let gameId: string | null = null;
    for (let i = 0; i < 100 && gameId === null; i++) {
      const race = RaceSchema.parse(
        (await app.inject({ url: `/api/races/${code}`, headers: bearer(ada) })).json(),
      );
      gameId = race.yourGameId;
      if (gameId === null) await new Promise((r) => setTimeout(r, 20));
    }
    expect(gameId).not.toBeNull();
    const id = gameId as string;
    for (const g of await bothWays(id, ada))
      expect(g).toMatchObject({ kind: 'race', daily: null, race: { code } });
    expectError(await app.inject({ url: `/api/games/${id}`, headers: bearer(bob) }), 403, 'forbidden');
    expectError(await app.inject({ url: `/api/games/${id}/deal` }), 403, 'forbidden');
  });

  it('an unknown token is refused with unknown-token over REST and the socket; a missing one with unauthorized', async () => {
    const made = { authorization: 'Bearer not-a-token-anyone-was-given-0000000000' };
    expectError(await app.inject({ url: '/api/me', headers: made }), 401, 'unknown-token');
    expectError(await app.inject({ url: '/api/me' }), 401, 'unauthorized');
    expectError(
      await app.inject({ url: '/api/me', headers: { authorization: 'Basic abc' } }),
      401,
      'unauthorized',
    );
    // A token that worked and was then signed out everywhere is unknown from then on.
    const carol = await create('Carol');
    expect((await app.inject({ url: '/api/me', headers: bearer(carol) })).statusCode).toBe(200);
    const out = await app.inject({
      method: 'POST',
      url: '/api/me/sign-out-everywhere',
      headers: bearer(carol),
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expectError(await app.inject({ url: '/api/me', headers: bearer(carol) }), 401, 'unknown-token');

    const ws = await WsClient.connect(wsUrl(app));
    try {
      const frame = await ws.request(
        { type: 'auth', token: 'not-a-token-anyone-was-given-0000000000' },
        (f) => f.type === 'error',
      );
      expect(frame).toMatchObject({ type: 'error', code: 'unknown-token' });
    } finally {
      ws.close();
    }
  });
});
