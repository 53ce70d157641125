/**
 * Race routes: every route's success and error paths (400/401/403/404/409/429/503 where they apply), the
 * socket's race-subscribe errors, the time limit by the server clock, placements and invite codes.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RaceCodeSchema, RaceResultsSchema } from '@klondike/protocol';
import { formatDeal } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { dealOfKey } from '../../../src/core/rooms/keyed-deals.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RACE_CODE_ALPHABET, newRaceCode, rankRacers } from '../../../src/features/races/service.js';
import { type TestDatabase, WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';
import {
  type RaceFrame,
  type TestPlayer,
  call,
  expectError,
  isRace,
  newPlayer,
  raceOf,
  raceSocket,
  scorePoints,
} from '../../support/race-helpers.js';

const memory: TestDatabase = {
  kind: 'pglite',
  config: () => ({ databaseUrl: undefined, dataDir: 'memory://' }),
  cleanup: async () => {},
};

describeEachDatabase('race routes', (db) => {
  let app: FastifyInstance;
  let host: TestPlayer;
  let guest: TestPlayer;
  let other: TestPlayer;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db, {
      // Fresh accounts race rated here; who may sit in a rated room is tested in farming.test.ts.
      config: { raceCountdownMs: 30, raceCertifyMs: 2000, ratedMinAccountAgeMs: 0, ratedMinFinishedGames: 0 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    host = await newPlayer(app, 'host');
    guest = await newPlayer(app, 'guest');
    other = await newPlayer(app, 'other');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  it('POST /api/races: 201 with a code and url; 401 without a token; 400 for a bad body', async () => {
    const r = raceOf(
      await call(app, 'POST', '/api/races', {
        as: host,
        payload: { preset: 'classic-draw3', maxPlayers: 3, timeLimitMs: 120_000 },
      }),
      201,
    );
    expect(RaceCodeSchema.safeParse(r.code).success).toBe(true);
    expect(r).toMatchObject({
      url: `/race/${r.code}`,
      preset: 'classic-draw3',
      maxPlayers: 3,
      timeLimitMs: 120_000,
      status: 'lobby',
      spectators: 0,
      rematchCode: null,
    });
    const custom = raceOf(
      await call(app, 'POST', '/api/races', { as: host, payload: { options: { draw: 3, redeals: 2 } } }),
      201,
    );
    expect(custom.preset).toBeNull();
    expect(custom.options).toMatchObject({ draw: 3, redeals: 2 });
    expectError(await call(app, 'POST', '/api/races', { payload: {} }), 401, 'unauthorized');
    for (const payload of [
      { maxPlayers: 9 },
      { maxPlayers: 1 },
      { deal: 'sometimes' },
      { deal: { dealNumber: 0 } },
      { timeLimitMs: 1000 },
      { extra: true },
    ])
      expectError(await call(app, 'POST', '/api/races', { as: host, payload }), 400, 'bad-request');
  });

  it('POST /api/races with deal "certified": a deal the solver proved winnable', async () => {
    const r = raceOf(
      await call(app, 'POST', '/api/races', { as: host, payload: { deal: 'certified' } }),
      201,
    );
    const row = await app.prisma.race.findUnique({ where: { code: r.code } });
    expect(row?.dealKind).toBe('certified');
    expect(row?.deal.split(' ')).toHaveLength(52);
  });

  it('GET /api/races/:code: spectators without a token; 404 unknown; 400 malformed; 401 bad token', async () => {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    const seen = raceOf(await call(app, 'GET', `/api/races/${r.code}`));
    expect(seen).toMatchObject({ code: r.code, you: null, yourGameId: null });
    expect(raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: host })).you).toBe(host.id);
    expectError(await call(app, 'GET', `/api/races/${newRaceCode()}`), 404, 'not-found');
    expectError(await call(app, 'GET', '/api/races/abc'), 400, 'bad-request');
    expectError(await call(app, 'GET', '/api/races/0000000000'), 400, 'bad-request');
    const bad = await app.inject({
      method: 'GET',
      url: `/api/races/${r.code}`,
      headers: { authorization: 'Bearer nope' },
    });
    expectError(bad, 401, 'unknown-token');
  });

  it('join: 200 (idempotent); 401; 404; 409 full; 409 once started', async () => {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    const j = raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest }));
    expect(j.racers.map((x) => x.playerId)).toEqual([host.id, guest.id]);
    expect(raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest })).racers).toHaveLength(
      2,
    );
    expectError(await call(app, 'POST', `/api/races/${r.code}/join`), 401, 'unauthorized');
    expectError(await call(app, 'POST', `/api/races/${newRaceCode()}/join`, { as: guest }), 404, 'not-found');
    expectError(await call(app, 'POST', `/api/races/${r.code}/join`, { as: other }), 409, 'conflict');

    const big = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: { maxPlayers: 3 } }), 201);
    raceOf(await call(app, 'POST', `/api/races/${big.code}/join`, { as: guest }));
    raceOf(await call(app, 'POST', `/api/races/${big.code}/start`, { as: host }));
    expectError(await call(app, 'POST', `/api/races/${big.code}/join`, { as: other }), 409, 'conflict');
  });

  it('ready: 200; 403 for a non-racer; 401; 400 bad body; all seats ready → countdown; 409 afterwards', async () => {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest }));
    const url = `/api/races/${r.code}/ready`;
    const one = raceOf(await call(app, 'POST', url, { as: host, payload: { ready: true } }));
    expect(one.racers.find((x) => x.playerId === host.id)?.ready).toBe(true);
    expect(one.status).toBe('lobby');
    expect(
      raceOf(await call(app, 'POST', url, { as: host, payload: { ready: false } })).racers[0]?.ready,
    ).toBe(false);
    expectError(await call(app, 'POST', url, { as: other, payload: { ready: true } }), 403, 'forbidden');
    expectError(await call(app, 'POST', url, { payload: { ready: true } }), 401, 'unauthorized');
    expectError(await call(app, 'POST', url, { as: host, payload: { ready: 'yes' } }), 400, 'bad-request');
    expectError(
      await call(app, 'POST', `/api/races/${newRaceCode()}/ready`, { as: host, payload: { ready: true } }),
      404,
      'not-found',
    );
    raceOf(await call(app, 'POST', url, { as: host, payload: { ready: true } }));
    const go = raceOf(await call(app, 'POST', url, { as: guest, payload: { ready: true } }));
    expect(go.status).toBe('countdown');
    expectError(await call(app, 'POST', url, { as: guest, payload: { ready: false } }), 409, 'conflict');
  });

  it('start: host only (403); ≥ 2 racers (409); 404; then running with each racer’s own game', async () => {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    const url = `/api/races/${r.code}/start`;
    expectError(await call(app, 'POST', url, { as: host }), 409, 'conflict');
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest }));
    expectError(await call(app, 'POST', url, { as: guest }), 403, 'forbidden');
    expectError(await call(app, 'POST', url), 401, 'unauthorized');
    expectError(await call(app, 'POST', `/api/races/${newRaceCode()}/start`, { as: host }), 404, 'not-found');
    const sock = await raceSocket(app, r.code, guest, clients);
    expect(raceOf(await call(app, 'POST', url, { as: host })).status).toBe('countdown');
    expectError(await call(app, 'POST', url, { as: host }), 409, 'conflict');
    const run = (await sock.waitFor(isRace((x) => x.status === 'running'))) as RaceFrame;
    const mine = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: host }));
    expect(mine.yourGameId).not.toBeNull();
    expect(mine.yourGameId).not.toBe(run.race.yourGameId);
    expect(raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: other })).yourGameId).toBeNull();
  });

  it('results: 403 before the end, 404 unknown; rematch: 409 before the end, 403 non-racer, 401, 404', async () => {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    expectError(await call(app, 'GET', `/api/races/${r.code}/results`), 403, 'forbidden');
    expectError(await call(app, 'GET', `/api/races/${newRaceCode()}/results`), 404, 'not-found');
    expectError(await call(app, 'POST', `/api/races/${r.code}/rematch`, { as: host }), 409, 'conflict');
    expectError(await call(app, 'POST', `/api/races/${r.code}/rematch`, { as: other }), 403, 'forbidden');
    expectError(await call(app, 'POST', `/api/races/${r.code}/rematch`), 401, 'unauthorized');
    expectError(
      await call(app, 'POST', `/api/races/${newRaceCode()}/rematch`, { as: host }),
      404,
      'not-found',
    );
  });

  it('both resign: the race ends (done), results ranked; rematch of a random race; join/ready/start then 409', async () => {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest }));
    const sock = await raceSocket(app, r.code, host, clients);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/start`, { as: host }));
    await sock.waitFor(isRace((x) => x.status === 'running'));
    const hostGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: host })).yourGameId;
    const guestGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: guest })).yourGameId;
    await call(app, 'POST', `/api/games/${guestGame}/moves`, {
      as: guest,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    await call(app, 'POST', `/api/games/${guestGame}/resign`, { as: guest, payload: {} });
    await call(app, 'POST', `/api/games/${hostGame}/resign`, { as: host, payload: {} });
    const end = (await sock.waitFor(isRace((x) => x.status === 'finished'))) as RaceFrame;
    expect(end.race.racers.every((x) => x.placement !== null)).toBe(true);
    const results = RaceResultsSchema.parse((await call(app, 'GET', `/api/races/${r.code}/results`)).json());
    expect(results.results.map((x) => x.progress.status)).toEqual(['resigned', 'resigned']);
    // Commit-reveal of the deal: the commitment shown since the room was made is the SHA-256 of the revealed
    // preimage, which names this room and a key that deals exactly the race's deal.
    expect(r.dealCommitment).toMatch(/^[0-9a-f]{64}$/);
    expect(end.race.dealCommitment).toBe(r.dealCommitment);
    const reveal = results.dealReveal;
    expect(reveal).toMatchObject({
      algorithm: 'deal-v2',
      dealCommitment: r.dealCommitment,
      dealNumber: null,
    });
    expect(
      createHash('sha256')
        .update(reveal?.preimage ?? '')
        .digest('hex'),
    ).toBe(r.dealCommitment);
    expect(reveal?.preimage).toBe(`klondike-race|${r.code}|deal-v2|${reveal?.key}|${reveal?.salt}`);
    expect(formatDeal(dealOfKey(reveal?.key ?? ''))).toBe(results.deal);
    expectError(await call(app, 'POST', `/api/races/${r.code}/join`, { as: other }), 409, 'conflict');
    expectError(
      await call(app, 'POST', `/api/races/${r.code}/ready`, { as: host, payload: { ready: true } }),
      409,
      'conflict',
    );
    expectError(await call(app, 'POST', `/api/races/${r.code}/start`, { as: host }), 409, 'conflict');
    const again = raceOf(await call(app, 'POST', `/api/races/${r.code}/rematch`, { as: guest }), 201);
    expect((await app.prisma.race.findUnique({ where: { code: again.code } }))?.dealKind).toBe('random');
  });

  it("a rated race moves the racers' race ratings once by placement; a known deal or other rules cannot be rated (400)", async () => {
    expectError(
      await call(app, 'POST', '/api/races', { as: host, payload: { rated: true, deal: { dealNumber: 7 } } }),
      400,
      'bad-request',
    );
    expectError(
      await call(app, 'POST', '/api/races', { as: host, payload: { rated: true, preset: 'vegas-draw1' } }),
      400,
      'bad-request',
    );
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: { rated: true } }), 201);
    expect(r.rated).toBe(true);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest }));
    expect(raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: other })).rated).toBe(true);
    const sock = await raceSocket(app, r.code, host, clients);
    // The guest connects (a racer who never connects nor moves is void) and is ready (a rated race waits).
    await raceSocket(app, r.code, guest, clients);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: guest, payload: { ready: true } }));
    raceOf(await call(app, 'POST', `/api/races/${r.code}/start`, { as: host }));
    await sock.waitFor(isRace((x) => x.status === 'running'));
    const hostGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: host })).yourGameId;
    const guestGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: guest })).yourGameId;
    // The host scores, so the two differ in progress (equal non-winners tie).
    await scorePoints(app, host, hostGame ?? '');
    await call(app, 'POST', `/api/games/${hostGame}/resign`, { as: host, payload: {} });
    await call(app, 'POST', `/api/games/${guestGame}/resign`, { as: guest, payload: {} });
    const end = (await sock.waitFor(isRace((x) => x.status === 'finished'))) as RaceFrame;
    const winner = end.race.racers.find((x) => x.placement === 1)?.playerId;
    const loser = end.race.racers.find((x) => x.placement === 2)?.playerId;
    expect([winner, loser]).toEqual([host.id, guest.id]);
    const ratings = await app.prisma.rating.findMany({ where: { pool: 'race-classic-draw1' } });
    expect(ratings).toHaveLength(2);
    const of = (id: string | undefined) => ratings.find((x) => x.playerId === id);
    expect(of(winner)?.rating ?? 0).toBeGreaterThan(1500);
    expect(of(loser)?.rating ?? 2000).toBeLessThan(1500);
    for (const x of ratings) expect(x.games).toBe(1);
    const row = await app.prisma.race.findUniqueOrThrow({ where: { code: r.code } });
    expect(row.ratedAt).not.toBeNull();
    // The results show each racer's rating before and after.
    const shown = RaceResultsSchema.parse(
      (await call(app, 'GET', `/api/races/${r.code}/results`, { as: other })).json(),
    ).results;
    expect(shown.find((x) => x.playerId === winner)?.rating).toEqual({
      before: 1500,
      after: Math.round(of(winner)?.rating ?? 0),
    });
    expect(shown.find((x) => x.playerId === loser)?.rating?.after).toBeLessThan(1500);
    // An unrated race moves nothing.
    const before = await app.prisma.rating.count();
    const u = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    expect(u.rated).toBe(false);
    expect(await app.prisma.rating.count()).toBe(before);
  });

  it('WS race-subscribe: unknown code → not-found; malformed → bad-request; spectators are counted', async () => {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    const c = await WsClient.connect(wsUrl(app));
    clients.push(c);
    expect(
      await c.request({ type: 'race-subscribe', code: newRaceCode() }, (f) => f.type === 'error'),
    ).toMatchObject({ code: 'not-found' });
    expect(await c.request({ type: 'race-subscribe', code: 'x' }, (f) => f.type === 'error')).toMatchObject({
      code: 'bad-request',
    });
    const hostSock = await raceSocket(app, r.code, host, clients);
    await c.request(
      { type: 'race-subscribe', code: r.code },
      isRace((x) => x.code === r.code),
    );
    await hostSock.waitFor(isRace((x) => x.spectators === 1));
    c.send({ type: 'race-unsubscribe', code: r.code });
    await hostSock.waitFor(
      isRace((x) => x.spectators === 0),
      hostSock.frames.length - 1,
    );
  });
});

describe('race limits and rules [PGlite]', () => {
  it('GET and join by code have a stricter per-client limit → 429; so do unknown codes on a socket', async () => {
    const app = await testApp(memory, { config: { rateLimitMax: 100, raceRateMax: 2 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const p = await newPlayer(app, 'limit');
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await call(app, 'GET', `/api/races/${newRaceCode()}`)).statusCode);
      expect(codes).toEqual([404, 404, 429]);
      expectError(await call(app, 'GET', `/api/races/${newRaceCode()}`), 429, 'rate-limited');
      const joins: number[] = [];
      for (let i = 0; i < 3; i++)
        joins.push((await call(app, 'POST', `/api/races/${newRaceCode()}/join`, { as: p })).statusCode);
      expect(joins).toEqual([404, 404, 429]);
      const c = await WsClient.connect(wsUrl(app));
      try {
        for (const expected of ['not-found', 'not-found', 'rate-limited'])
          expect(
            await c.request({ type: 'race-subscribe', code: newRaceCode() }, (f) => f.type === 'error'),
          ).toMatchObject({ code: expected });
      } finally {
        c.close();
      }
    } finally {
      await app.close();
    }
  });

  it('the time limit runs out by the server clock: the race ends as timeout; equal non-winners tie', async () => {
    let offset = 0;
    const app = await testApp(memory, {
      now: () => Date.now() + offset,
      config: { raceCountdownMs: 20 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const clients: WsClient[] = [];
    try {
      const a = await newPlayer(app, 'tla');
      const b = await newPlayer(app, 'tlb');
      const r = raceOf(
        await call(app, 'POST', '/api/races', {
          as: a,
          payload: { timeLimitMs: 60_000, deal: { dealNumber: 11 } },
        }),
        201,
      );
      raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: b }));
      const sock = await raceSocket(app, r.code, a, clients);
      raceOf(await call(app, 'POST', `/api/races/${r.code}/start`, { as: a }));
      await sock.waitFor(isRace((x) => x.status === 'running'));
      const bGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: b })).yourGameId;
      expect(
        (
          await call(app, 'POST', `/api/games/${bGame}/moves`, {
            as: b,
            payload: { move: { type: 'draw' }, version: 0 },
          })
        ).statusCode,
      ).toBe(200);
      offset += 61_000;
      const end = (await sock.waitFor(
        isRace((x) => x.status === 'finished'),
        0,
        4000,
      )) as RaceFrame;
      expect(end.race.racers.map((x) => x.progress?.status)).toEqual(['timeout', 'timeout']);
      const row = await app.prisma.race.findUnique({ where: { code: r.code } });
      expect(row?.endReason).toBe('timeout');
      // Neither has a card on the foundations or a point: they tie, whoever played longer.
      expect(end.race.racers.map((x) => x.placement)).toEqual([1, 1]);
    } finally {
      for (const c of clients) c.close();
      await app.close();
    }
  });

  it('a restart ends unfinished races as interrupted: running ones ranked from their games, which are resigned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'races-'));
    const disk: TestDatabase = {
      kind: 'pglite',
      config: () => ({ databaseUrl: undefined, dataDir: dir }),
      cleanup: async () => {},
    };
    try {
      let app = await testApp(disk, { config: { raceCountdownMs: 10 } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const a = await newPlayer(app, 'rsa');
      const b = await newPlayer(app, 'rsb');
      const lobby = raceOf(await call(app, 'POST', '/api/races', { as: a, payload: {} }), 201);
      const r = raceOf(await call(app, 'POST', '/api/races', { as: a, payload: {} }), 201);
      raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: b }));
      const sock = await raceSocket(app, r.code, a);
      raceOf(await call(app, 'POST', `/api/races/${r.code}/start`, { as: a }));
      await sock.waitFor(isRace((x) => x.status === 'running'));
      sock.close();
      const bGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: b })).yourGameId;
      await call(app, 'POST', `/api/games/${bGame}/moves`, {
        as: b,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      await app.close();

      app = await testApp(disk);
      try {
        const ended = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: b }));
        expect(ended.status).toBe('finished');
        expect(ended.yourGameId).toBe(bGame);
        const row = await app.prisma.race.findUnique({ where: { code: r.code } });
        expect(row?.endReason).toBe('interrupted');
        const results = RaceResultsSchema.parse(
          (await call(app, 'GET', `/api/races/${r.code}/results`)).json(),
        );
        expect(results.results.map((x) => x.progress.moves).sort()).toEqual([0, 1]);
        const game = await call(app, 'GET', `/api/games/${bGame}`, { as: b });
        expect(game.json<{ view: { status: string } }>().view.status).toBe('resigned');
        expect(raceOf(await call(app, 'GET', `/api/races/${lobby.code}`)).status).toBe('finished');
        expectError(await call(app, 'POST', `/api/races/${lobby.code}/join`, { as: b }), 409, 'conflict');
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // two servers on an on-disk PGlite, one after the other: slow on a loaded machine

  it('rankRacers: winners by time, then cards, then score, equal non-winners tied whatever their time; forfeits last', () => {
    const p = (
      status: 'won' | 'playing' | 'forfeited' | 'resigned',
      cards: number,
      score: number,
      ms: number,
    ) => ({
      foundationCards: cards,
      faceDown: 0,
      moves: 1,
      score,
      elapsedMs: ms,
      status,
    });
    const places = rankRacers([
      { playerId: 'f', seat: 0, progress: p('forfeited', 40, 900, 1) },
      { playerId: 'c', seat: 1, progress: p('playing', 30, 100, 50) },
      { playerId: 'd', seat: 2, progress: p('resigned', 30, 100, 40) },
      { playerId: 'e', seat: 3, progress: p('playing', 30, 200, 90) },
      { playerId: 'w', seat: 4, progress: p('won', 52, 0, 500) },
      { playerId: 'b', seat: 5, progress: p('playing', 35, 0, 99) },
      { playerId: 'v', seat: 6, progress: p('won', 52, 0, 400) },
      { playerId: 'g', seat: 7, progress: p('forfeited', 40, 900, 9) },
    ]);
    // c and d: 30 cards and 100 points each; d resigned sooner, which earns nothing. f and g tie as well.
    expect(Object.fromEntries(places)).toEqual({ v: 1, w: 2, b: 3, e: 4, c: 5, d: 5, f: 7, g: 7 });
  });

  it('invite codes: 10 characters of the unambiguous alphabet, from crypto randomness', () => {
    expect(RACE_CODE_ALPHABET).toHaveLength(32);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const c = newRaceCode();
      expect(RaceCodeSchema.safeParse(c).success).toBe(true);
      seen.add(c);
    }
    expect(seen.size).toBe(2000);
  });
});
