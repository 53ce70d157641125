/**
 * Consent, fair ranking and unaided rated play (issue 53, items 1, 4 and 5), each written as the attack the
 * issue describes: a rematch that seats and rates an absent racer, a rated start nobody agreed to, a racer
 * who never came rated as a loser, the racer who resigned first placed first, a race whose racer never
 * connects running for ever, and a rated room with hints on. On PGlite and on Postgres, with the server
 * clock injected so time limits and forfeits come without waiting.
 */
import { MAX_RACE_TIME_MS, RaceResultsSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type WsClient, describeEachDatabase, testApp } from '../../support/helpers.js';
import {
  type RaceFrame,
  type TestPlayer,
  call,
  expectError,
  isRace,
  newPlayer,
  raceOf,
  raceSocket,
} from '../../support/race-helpers.js';

describeEachDatabase('race consent and fair ranking', (db) => {
  let app: FastifyInstance;
  /** Added to the server clock: a test moves time on by raising it. */
  let offset = 0;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => Date.now() + offset,
      // Fresh accounts play the rated rooms here (farming.test.ts tests the account thresholds).
      config: {
        raceCountdownMs: 20,
        raceAwayForfeitMs: 60_000,
        ratedMinAccountAgeMs: 0,
        ratedMinFinishedGames: 0,
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  /** The racer's own game in room `code`. */
  async function gameOf(code: string, p: TestPlayer): Promise<string> {
    const id = raceOf(await call(app, 'GET', `/api/races/${code}`, { as: p })).yourGameId;
    if (id === null) throw new Error('no game');
    return id;
  }

  /** A finished rated race between `a` and `b`, both connected, both resigned at once. */
  async function finishedRatedRace(a: TestPlayer, b: TestPlayer): Promise<string> {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: a, payload: { rated: true } }), 201);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: b }));
    const sock = await raceSocket(app, r.code, a, clients);
    await raceSocket(app, r.code, b, clients);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: b, payload: { ready: true } }));
    raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: a, payload: { ready: true } }));
    await sock.waitFor(isRace((x) => x.code === r.code && x.status === 'running'));
    for (const p of [a, b])
      await call(app, 'POST', `/api/games/${await gameOf(r.code, p)}/resign`, { as: p, payload: {} });
    await sock.waitFor(isRace((x) => x.code === r.code && x.status === 'finished'));
    return r.code;
  }

  it('a rematch seats only its caller: the absent racer is neither seated nor rated', async () => {
    const a = await newPlayer(app, 'thief');
    const b = await newPlayer(app, 'victim');
    const code = await finishedRatedRace(a, b);
    const before = await app.prisma.rating.findMany({ where: { playerId: b.id } });

    // The thief asks for a rematch and starts it at once; the victim never answers.
    const rematch = raceOf(await call(app, 'POST', `/api/races/${code}/rematch`, { as: a }), 201);
    expect(rematch.rated).toBe(true);
    expect(rematch.racers.map((r) => r.playerId)).toEqual([a.id]);
    expectError(await call(app, 'POST', `/api/races/${rematch.code}/start`, { as: a }), 409, 'conflict');
    const row = await app.prisma.race.findUniqueOrThrow({
      where: { code: rematch.code },
      include: { racers: true },
    });
    expect(row.status).toBe('lobby');
    expect(row.racers.map((r) => r.playerId)).toEqual([a.id]);
    expect(await app.prisma.rating.findMany({ where: { playerId: b.id } })).toEqual(before);

    // The other racer takes the seat by asking for the rematch too (an answer: consent), not ready yet.
    const joined = raceOf(await call(app, 'POST', `/api/races/${code}/rematch`, { as: b }), 200);
    expect(joined.code).toBe(rematch.code);
    expect(joined.racers.map((r) => [r.playerId, r.ready])).toEqual([
      [a.id, false],
      [b.id, false],
    ]);
  });

  it('a rated race starts only with every seated racer ready; an unrated one as before', async () => {
    const a = await newPlayer(app, 'host');
    const b = await newPlayer(app, 'guest');
    const rated = raceOf(await call(app, 'POST', '/api/races', { as: a, payload: { rated: true } }), 201);
    raceOf(await call(app, 'POST', `/api/races/${rated.code}/join`, { as: b }));
    expectError(await call(app, 'POST', `/api/races/${rated.code}/start`, { as: a }), 409, 'conflict');
    expect(raceOf(await call(app, 'GET', `/api/races/${rated.code}`)).status).toBe('lobby');
    raceOf(await call(app, 'POST', `/api/races/${rated.code}/ready`, { as: b, payload: { ready: true } }));
    // The host's start is the host's own consent.
    expect(raceOf(await call(app, 'POST', `/api/races/${rated.code}/start`, { as: a })).status).toBe(
      'countdown',
    );

    const casual = raceOf(await call(app, 'POST', '/api/races', { as: a, payload: {} }), 201);
    raceOf(await call(app, 'POST', `/api/races/${casual.code}/join`, { as: b }));
    expect(raceOf(await call(app, 'POST', `/api/races/${casual.code}/start`, { as: a })).status).toBe(
      'countdown',
    );
  });

  it('a racer who never moved and never connected is void: not rated; one who connected is', async () => {
    const a = await newPlayer(app, 'mover');
    const b = await newPlayer(app, 'absent');
    const c = await newPlayer(app, 'idle');
    const r = raceOf(
      await call(app, 'POST', '/api/races', {
        as: a,
        payload: { rated: true, maxPlayers: 3, timeLimitMs: 60_000 },
      }),
      201,
    );
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: b }));
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: c }));
    const sock = await raceSocket(app, r.code, a, clients);
    await raceSocket(app, r.code, c, clients);
    for (const p of [b, c])
      raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: p, payload: { ready: true } }));
    raceOf(await call(app, 'POST', `/api/races/${r.code}/start`, { as: a }));
    await sock.waitFor(isRace((x) => x.code === r.code && x.status === 'running'));
    const aGame = await gameOf(r.code, a);
    await call(app, 'POST', `/api/games/${aGame}/moves`, {
      as: a,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    await call(app, 'POST', `/api/games/${aGame}/resign`, { as: a, payload: {} });
    offset += 61_000;
    await sock.waitFor(
      isRace((x) => x.code === r.code && x.status === 'finished'),
      0,
      5000,
    );

    const rated = await app.prisma.rating.findMany({
      where: { pool: 'race-classic-draw1', playerId: { in: [a.id, b.id, c.id] } },
    });
    expect(rated.map((x) => x.playerId).sort()).toEqual([a.id, c.id].sort());
    const results = RaceResultsSchema.parse((await call(app, 'GET', `/api/races/${r.code}/results`)).json());
    expect(results.results.find((x) => x.playerId === b.id)?.rating).toBeNull();
    expect(results.results.find((x) => x.playerId === c.id)?.rating).not.toBeNull();
  });

  it('equal non-winners tie: resigning first earns no place and no points', async () => {
    const a = await newPlayer(app, 'quitter');
    const b = await newPlayer(app, 'stayer');
    const r = raceOf(await call(app, 'POST', '/api/races', { as: a, payload: { rated: true } }), 201);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: b }));
    const sock = await raceSocket(app, r.code, a, clients);
    await raceSocket(app, r.code, b, clients);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: b, payload: { ready: true } }));
    raceOf(await call(app, 'POST', `/api/races/${r.code}/start`, { as: a }));
    await sock.waitFor(isRace((x) => x.code === r.code && x.status === 'running'));
    await call(app, 'POST', `/api/games/${await gameOf(r.code, a)}/resign`, { as: a, payload: {} });
    offset += 30_000;
    await call(app, 'POST', `/api/games/${await gameOf(r.code, b)}/resign`, { as: b, payload: {} });
    const end = (await sock.waitFor(
      isRace((x) => x.code === r.code && x.status === 'finished'),
    )) as RaceFrame;
    expect(end.race.racers.map((x) => x.placement)).toEqual([1, 1]);
    const ratings = await app.prisma.rating.findMany({
      where: { pool: 'race-classic-draw1', playerId: { in: [a.id, b.id] } },
    });
    expect(ratings).toHaveLength(2);
    for (const x of ratings) expect(x.rating).toBeCloseTo(1500, 6);
  });

  it('a racer with no socket from the start is away; a race without a time limit still ends', async () => {
    const a = await newPlayer(app, 'present');
    const b = await newPlayer(app, 'never');
    const r = raceOf(await call(app, 'POST', '/api/races', { as: a, payload: {} }), 201);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: b }));
    const sock = await raceSocket(app, r.code, a, clients);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/start`, { as: a }));
    const running = (await sock.waitFor(
      isRace((x) => x.code === r.code && x.status === 'running'),
    )) as RaceFrame;
    expect(running.race.racers.find((x) => x.playerId === b.id)?.presence).toBe('away');
    const row = await app.prisma.race.findUniqueOrThrow({ where: { code: r.code } });
    expect(row.timeLimitMs).toBeNull();
    expect((row.endsAt?.getTime() ?? 0) - (row.startsAt?.getTime() ?? 0)).toBe(MAX_RACE_TIME_MS);

    // Away too long: the absent racer forfeits; the one left plays on until the limit.
    offset += 61_000;
    await sock.waitFor(
      isRace((x) => x.racers.find((y) => y.playerId === b.id)?.presence === 'forfeited'),
      0,
      5000,
    );
    offset += MAX_RACE_TIME_MS;
    const end = (await sock.waitFor(
      isRace((x) => x.code === r.code && x.status === 'finished'),
      0,
      5000,
    )) as RaceFrame;
    expect(end.race.racers.map((x) => [x.playerId, x.progress?.status])).toEqual([
      [a.id, 'timeout'],
      [b.id, 'forfeited'],
    ]);
    expect((await app.prisma.race.findUniqueOrThrow({ where: { code: r.code } })).endReason).toBe('timeout');
  });

  it('a rated room is unaided: hints on, or undo against the preset, is refused (400) and makes no room', async () => {
    const a = await newPlayer(app, 'aided');
    const count = await app.prisma.race.count();
    expectError(
      await call(app, 'POST', '/api/races', { as: a, payload: { rated: true, options: { hints: true } } }),
      400,
      'bad-request',
    );
    expectError(
      await call(app, 'POST', '/api/races', {
        as: a,
        payload: { rated: true, preset: 'classic-draw3', options: { hints: true, undo: true } },
      }),
      400,
      'bad-request',
    );
    expectError(
      await call(app, 'POST', '/api/races', { as: a, payload: { rated: true, options: { undo: false } } }),
      400,
      'bad-request',
    );
    expect(await app.prisma.race.count()).toBe(count);
    // Unrated, hints stay the host's choice.
    const casual = raceOf(
      await call(app, 'POST', '/api/races', { as: a, payload: { options: { hints: true } } }),
      201,
    );
    expect(casual.options.hints).toBe(true);
  });
});
