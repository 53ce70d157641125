/**
 * No farming (issue 53 item 2, docs/ratings.md "No farming"), written as the booster: two accounts racing
 * rated rematches again and again, one of them throwing every race; a fresh second account asking for a rated
 * room; the pairwise rule of a race of three. Both databases.
 */
import {
  type Arena,
  ArenaSchema,
  PairingStatusSchema,
  RaceResultsSchema,
  type PairingStatus,
} from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMATCH_AFTER_MS, type ArenaWaiting, pairArena } from '../../../src/features/arenas/pairing.js';
import {
  ANYONE_AFTER_MS,
  type WaitingPlayer,
  metKey,
  pairUp,
} from '../../../src/features/pairing/matching.js';
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

/** The test's clock runs from noon of a fixed UTC day, so that no race of a test crosses midnight. */
const NOON = Date.parse('2026-12-01T12:00:00Z');
const DAY_MS = 86_400_000;

describe('pairing and arenas avoid repeat opponents while others wait (pure)', () => {
  const p = (id: string, rating = 1500, enteredAt = NOON): WaitingPlayer => ({
    playerId: id,
    preset: 'classic-draw1',
    bot: false,
    rating,
    enteredAt,
  });

  it('quick pairing: two who met today are not paired while a third waits; alone, they are', () => {
    const met = new Set([metKey('classic-draw1', 'b', 'a')]);
    // a and b have the same rating; c is far, not yet acceptable: nobody is paired.
    expect(pairUp([p('a'), p('b'), p('c', 1900)], NOON, met)).toEqual([]);
    // Once c is acceptable, the longest waiter takes c, not b.
    const later = NOON + ANYONE_AFTER_MS;
    const pairs = pairUp([p('a', 1500, NOON - 1), p('b'), p('c', 1900)], later, met);
    expect(pairs.map((x) => x.map((y) => y.playerId))).toEqual([['a', 'c']]);
    // The only two waiting in their pool and kind meet again (their result does not count).
    expect(pairUp([p('a'), p('b')], NOON, met)).toHaveLength(1);
    // Meeting in another pool does not count in this one.
    expect(
      pairUp([p('a'), p('b'), p('c', 1900)], NOON, new Set([metKey('classic-draw3', 'a', 'b')])),
    ).toHaveLength(1);
  });

  it('arenas: last opponents wait while anyone else of the arena is racing, even after waiting', () => {
    const w = (id: string, last: string): ArenaWaiting => ({
      playerId: id,
      points: 0,
      rating: 1500,
      lastOpponent: last,
      waitingSince: NOON - REMATCH_AFTER_MS,
    });
    expect(pairArena([w('a', 'b'), w('b', 'a')], NOON, 2)).toEqual([]);
    expect(pairArena([w('a', 'b'), w('b', 'a')], NOON, 0)).toHaveLength(1);
  });
});

describeEachDatabase('no farming: a pair counts once per pool per day', (db) => {
  let app: FastifyInstance;
  const clients: WsClient[] = [];
  const started = Date.now();
  /** Added to the clock: the pairing windows widen with the time waited. */
  let skew = 0;

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => NOON + (Date.now() - started) + skew,
      config: {
        raceCountdownMs: 30,
        raceCertifyMs: 2000,
        raceAwayForfeitMs: 100,
        // Eligibility has its own tests below: here both accounts are as old and played as a booster's.
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

  async function rating(player: TestPlayer) {
    return app.prisma.rating.findUnique({
      where: { playerId_pool: { playerId: player.id, pool: 'race-classic-draw1' } },
    });
  }

  /**
   * Plays rated race `code` between `booster` (host) and `thrower`: both take their seats, connect and are
   * ready; the thrower then walks away (forfeits) and the booster resigns, so the booster places first.
   */
  async function throwRace(code: string, booster: TestPlayer, thrower: TestPlayer): Promise<RaceFrame> {
    raceOf(await call(app, 'POST', `/api/races/${code}/join`, { as: thrower }));
    const boosterSock = await raceSocket(app, code, booster, clients);
    const throwerSock = await raceSocket(app, code, thrower, clients);
    for (const p of [booster, thrower])
      raceOf(await call(app, 'POST', `/api/races/${code}/ready`, { as: p, payload: { ready: true } }));
    await boosterSock.waitFor(
      isRace((r) => r.code === code && r.status === 'running'),
      0,
      20_000,
    );
    const game = raceOf(await call(app, 'GET', `/api/races/${code}`, { as: booster })).yourGameId;
    expect(game).toBeTruthy();
    throwerSock.close();
    const r = await call(app, 'POST', `/api/games/${game}/resign`, { as: booster, payload: {} });
    expect(r.statusCode, r.body).toBe(200);
    const end = (await boosterSock.waitFor(
      isRace((x) => x.code === code && x.status === 'finished'),
      0,
      10_000,
    )) as RaceFrame;
    boosterSock.close();
    expect(end.race.racers.find((x) => x.playerId === booster.id)?.placement).toBe(1);
    return end;
  }

  it('eight rematches between two accounts move their ratings no more than one race does', async () => {
    const booster = await newPlayer(app, 'boost');
    const thrower = await newPlayer(app, 'throw');
    let code = raceOf(
      await call(app, 'POST', '/api/races', { as: booster, payload: { rated: true, maxPlayers: 2 } }),
      201,
    ).code;
    await throwRace(code, booster, thrower);
    const once = { booster: await rating(booster), thrower: await rating(thrower) };
    expect(once.booster?.rating ?? 0).toBeGreaterThan(1500);
    expect(once.thrower?.rating ?? 2000).toBeLessThan(1500);
    for (let i = 2; i <= 8; i++) {
      const r = await call(app, 'POST', `/api/races/${code}/rematch`, { as: booster });
      code = raceOf(r, 201).code;
      expect(raceOf(await call(app, 'GET', `/api/races/${code}`, { as: booster })).rated).toBe(true);
      await throwRace(code, booster, thrower);
    }
    const after = { booster: await rating(booster), thrower: await rating(thrower) };
    for (const who of ['booster', 'thrower'] as const) {
      expect(after[who]?.rating).toBeCloseTo(once[who]?.rating ?? 0, 9);
      expect(after[who]?.deviation).toBeCloseTo(once[who]?.deviation ?? 0, 9);
      expect(after[who]?.games).toBe(1);
    }
    // The last race's results say it rated nobody.
    const results = RaceResultsSchema.parse(
      (await call(app, 'GET', `/api/races/${code}/results`, { as: booster })).json(),
    ).results;
    for (const x of results) expect(x.rating ?? null).toBeNull();
  });

  async function pairing(method: 'GET' | 'POST', as: TestPlayer, preset?: string): Promise<PairingStatus> {
    const r = await app.inject({
      method,
      url: '/api/pairing',
      headers: { authorization: `Bearer ${as.token}` },
      ...(preset !== undefined ? { payload: { preset } } : {}),
    });
    expect(r.statusCode, r.body).toBe(200);
    return PairingStatusSchema.parse(r.json());
  }

  it('quick pairing does not pair the same two accounts again while someone else waits', async () => {
    const booster = await newPlayer(app, 'qboost');
    const thrower = await newPlayer(app, 'qthrow');
    const stranger = await newPlayer(app, 'qstrange');
    expect((await pairing('POST', booster, 'classic-draw1')).status).toBe('waiting');
    const first = await pairing('POST', thrower, 'classic-draw1');
    if (first.status !== 'paired') throw new Error(`not paired: ${JSON.stringify(first)}`);
    // The paired race: the thrower walks away, the booster resigns and places first; it counts.
    const boosterSock = await raceSocket(app, first.code, booster, clients);
    const throwerSock = await raceSocket(app, first.code, thrower, clients);
    // The race starts once its deal is certified (up to raceCertifyMs) and counted down: give a busy
    // machine time.
    await boosterSock.waitFor(
      isRace((r) => r.code === first.code && r.status === 'running'),
      0,
      20_000,
    );
    const game = raceOf(await call(app, 'GET', `/api/races/${first.code}`, { as: booster })).yourGameId;
    throwerSock.close();
    await call(app, 'POST', `/api/games/${game}/resign`, { as: booster, payload: {} });
    await boosterSock.waitFor(
      isRace((x) => x.code === first.code && x.status === 'finished'),
      0,
      10_000,
    );
    boosterSock.close();
    // A stranger far above them waits; the two enter again.
    await app.prisma.rating.create({
      data: {
        playerId: stranger.id,
        pool: 'race-classic-draw1',
        rating: 2600,
        deviation: 60,
        volatility: 0.06,
        games: 30,
        period: '2026-11-30',
      },
    });
    expect((await pairing('POST', stranger, 'classic-draw1')).status).toBe('waiting');
    expect((await pairing('POST', booster, 'classic-draw1')).status).toBe('waiting');
    expect((await pairing('POST', thrower, 'classic-draw1')).status).toBe('waiting');
    // Their ratings are within each other's window after 20 s: still not paired with each other.
    skew += 20_000;
    expect((await pairing('GET', booster)).status).toBe('waiting');
    expect((await pairing('GET', thrower)).status).toBe('waiting');
    // Once the stranger is acceptable, the stranger is paired with one of them; the other waits alone.
    skew += ANYONE_AFTER_MS;
    const s = await pairing('GET', stranger);
    if (s.status !== 'paired') throw new Error(`not paired: ${JSON.stringify(s)}`);
    const them = [await pairing('GET', booster), await pairing('GET', thrower)];
    expect(them.filter((x) => x.status === 'paired' && x.code === s.code)).toHaveLength(1);
    expect(them.filter((x) => x.status === 'waiting')).toHaveLength(1);
    const race = await app.prisma.race.findUniqueOrThrow({
      where: { code: s.code },
      include: { racers: true },
    });
    expect(race.racers.map((r) => r.playerId)).toContain(stranger.id);
  });

  it('a race of three rates each pair that has not counted today, and only those', async () => {
    const [a, b, c] = [await newPlayer(app, 'a'), await newPlayer(app, 'b'), await newPlayer(app, 'c')];
    const pool = 'race-classic-draw1';
    const day = new Date(app.now()).toISOString().slice(0, 10);
    const rate = (code: string, order: TestPlayer[], on = day) =>
      app.prisma.$transaction((tx) =>
        app.ratings.raceRater.rateRaceIn(
          tx,
          pool,
          on,
          code,
          order.map((p, i) => ({ playerId: p.id, placement: i + 1 })),
        ),
      );
    // a beats b: the pair a–b has counted today.
    expect((await rate('FARM000001', [a, b])).map((m) => m.playerId).sort()).toEqual([a.id, b.id].sort());
    const aAfterOne = (await rating(a))?.rating;
    // a, b, c: a and b play c only; c plays both.
    const three = await rate('FARM000002', [a, b, c]);
    expect(three.map((m) => m.playerId).sort()).toEqual([a.id, b.id, c.id].sort());
    const byId = new Map(three.map((m) => [m.playerId, m]));
    expect(byId.get(a.id)?.before).toBeCloseTo(aAfterOne ?? 0, 9);
    // b placed second: it lost to a before, and this time it only beat c (a win, not a loss and a win).
    expect(byId.get(b.id)?.after ?? 0).toBeGreaterThan(byId.get(b.id)?.before ?? 0);
    // The same three again: every pair has counted, nobody moves.
    const before = await Promise.all([a, b, c].map((p) => rating(p)));
    expect(await rate('FARM000003', [c, b, a])).toEqual([]);
    expect(await Promise.all([a, b, c].map((p) => rating(p)))).toEqual(before);
    // The other pool counts on its own, and the next day counts again.
    const next = new Date(app.now() + DAY_MS).toISOString().slice(0, 10);
    expect(await rate('FARM000004', [b, a], next)).toHaveLength(2);
    const draw3 = await app.prisma.$transaction((tx) =>
      app.ratings.raceRater.rateRaceIn(tx, 'race-classic-draw3', day, 'FARM000005', [
        { playerId: a.id, placement: 1 },
        { playerId: b.id, placement: 2 },
      ]),
    );
    expect(draw3).toHaveLength(2);
  });
});

describeEachDatabase('no farming: who may sit in a custom rated room', (db) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    // The defaults: an account a day old with 3 finished games.
    app = await testApp(db, { config: { raceCountdownMs: 30, raceCertifyMs: 2000 } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function age(player: TestPlayer, ms: number): Promise<void> {
    await app.prisma.player.update({
      where: { id: player.id },
      data: { createdAt: new Date(Date.now() - ms) },
    });
  }
  /** Plays `n` games to their end on `player`'s account: one move, then resign. */
  async function finishGames(player: TestPlayer, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const g = await call(app, 'POST', '/api/games', { as: player, payload: {} });
      expect(g.statusCode, g.body).toBe(201);
      const id = g.json<{ id: string }>().id;
      const m = await call(app, 'POST', `/api/games/${id}/moves`, {
        as: player,
        payload: { move: { type: 'draw' }, version: 0 },
      });
      expect(m.statusCode, m.body).toBe(200);
      expect(
        (await call(app, 'POST', `/api/games/${id}/resign`, { as: player, payload: {} })).statusCode,
      ).toBe(200);
    }
  }
  async function veteran(prefix: string): Promise<TestPlayer> {
    const p = await newPlayer(app, prefix);
    await age(p, 2 * DAY_MS);
    await finishGames(p, 3);
    return p;
  }

  it('a fresh second account cannot create a rated room (403) but may race unrated', async () => {
    const fresh = await newPlayer(app, 'fresh');
    expectError(
      await call(app, 'POST', '/api/races', { as: fresh, payload: { rated: true } }),
      403,
      'forbidden',
    );
    expect(await app.prisma.race.count({ where: { hostId: fresh.id } })).toBe(0);
    raceOf(await call(app, 'POST', '/api/races', { as: fresh, payload: {} }), 201);
    // A day old but no finished games: still refused; games resigned without a move do not count.
    await age(fresh, 2 * DAY_MS);
    for (let i = 0; i < 3; i++) {
      const g = await call(app, 'POST', '/api/games', { as: fresh, payload: {} });
      const id = g.json<{ id: string }>().id;
      await call(app, 'POST', `/api/games/${id}/resign`, { as: fresh, payload: {} });
    }
    expectError(
      await call(app, 'POST', '/api/races', { as: fresh, payload: { rated: true } }),
      403,
      'forbidden',
    );
    await finishGames(fresh, 2);
    expectError(
      await call(app, 'POST', '/api/races', { as: fresh, payload: { rated: true } }),
      403,
      'forbidden',
    );
    await finishGames(fresh, 1);
    raceOf(await call(app, 'POST', '/api/races', { as: fresh, payload: { rated: true } }), 201);
  });

  it('games played, but the account is younger than a day: refused (403)', async () => {
    const young = await newPlayer(app, 'young');
    await finishGames(young, 3);
    await age(young, DAY_MS - 60_000);
    expectError(
      await call(app, 'POST', '/api/races', { as: young, payload: { rated: true } }),
      403,
      'forbidden',
    );
  });

  it("a fresh account cannot take a seat in a veteran's rated room, nor ask for a rated rematch (403)", async () => {
    const host = await veteran('vet');
    const fresh = await newPlayer(app, 'fresh');
    const rated = raceOf(
      await call(app, 'POST', '/api/races', { as: host, payload: { rated: true, maxPlayers: 2 } }),
      201,
    );
    expectError(await call(app, 'POST', `/api/races/${rated.code}/join`, { as: fresh }), 403, 'forbidden');
    expect(raceOf(await call(app, 'GET', `/api/races/${rated.code}`, { as: host })).racers).toHaveLength(1);
    // An unrated room takes anyone.
    const open = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: { maxPlayers: 2 } }), 201);
    raceOf(await call(app, 'POST', `/api/races/${open.code}/join`, { as: fresh }));
    // A rated room whose second racer was eligible when it joined and is fresh again (its account replaced):
    // once finished, its rematch is refused to that racer.
    const guest = await veteran('guest');
    raceOf(await call(app, 'POST', `/api/races/${rated.code}/join`, { as: guest }));
    await age(guest, 0);
    expect(await app.races.closeStaleLobbies(0)).toBeGreaterThan(0);
    expectError(await call(app, 'POST', `/api/races/${rated.code}/rematch`, { as: guest }), 403, 'forbidden');
    expect((await app.prisma.race.findUnique({ where: { code: rated.code } }))?.rematchCode).toBeNull();
  });
});

describeEachDatabase('no farming: an arena does not re-pair last opponents while others race', (db) => {
  let app: FastifyInstance;
  let offset = 0;

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => Date.now() + offset,
      config: { raceCountdownMs: 50, raceCertifyMs: 3000 },
    });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function arena(id: string, as: TestPlayer): Promise<Arena> {
    const r = await call(app, 'GET', `/api/arenas/${id}`, { as });
    expect(r.statusCode, r.body).toBe(200);
    return ArenaSchema.parse(r.json());
  }
  /** The race `player` is paired into, after ticks (a race takes a moment to be made). */
  async function pairedRace(id: string, player: TestPlayer): Promise<string> {
    for (let i = 0; i < 100; i++) {
      await app.arenas.tick();
      const code = (await arena(id, player)).me?.pairedRace;
      if (code != null) return code;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${player.id} was not paired`);
  }
  /** Both racers of `code` resign (the race ends), and the arena scores it. */
  async function finish(code: string, racers: readonly TestPlayer[]): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const rows = await app.prisma.raceRacer.findMany({ where: { raceCode: code } });
      if (rows.every((r) => r.gameId !== null)) {
        for (const r of rows) {
          const as = racers.find((p) => p.id === r.playerId) as TestPlayer;
          const res = await call(app, 'POST', `/api/games/${r.gameId}/resign`, { as, payload: {} });
          expect([200, 422], res.body).toContain(res.statusCode);
        }
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    for (let i = 0; i < 100; i++) {
      if ((await app.prisma.race.findUniqueOrThrow({ where: { code } })).status === 'finished') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await app.arenas.tick();
  }

  it('two who just raced wait, even past the rematch delay, while the other pair races', async () => {
    const players = [
      await newPlayer(app, 'arA'),
      await newPlayer(app, 'arB'),
      await newPlayer(app, 'arC'),
      await newPlayer(app, 'arD'),
    ];
    const made = await call(app, 'POST', '/api/arenas', {
      as: players[0],
      payload: { preset: 'classic-draw1', durationMs: 10 * 60_000, inviteOnly: true },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = ArenaSchema.parse(made.json());
    const inviteCode = (await arena(id, players[0] as TestPlayer)).me?.inviteCode ?? undefined;
    for (const p of players) {
      const r = await call(app, 'POST', `/api/arenas/${id}/join`, { as: p, payload: { inviteCode } });
      expect(r.statusCode, r.body).toBe(200);
    }
    const codes = await Promise.all(players.map((p) => pairedRace(id, p)));
    const first = codes[0] as string;
    const pair = players.filter((_, i) => codes[i] === first);
    const others = players.filter((_, i) => codes[i] !== first);
    expect(pair).toHaveLength(2);
    await finish(first, pair);
    // The pair has waited past the rematch delay; the other race is still on.
    offset += REMATCH_AFTER_MS + 1000;
    for (let i = 0; i < 5; i++) await app.arenas.tick();
    for (const p of pair) expect((await arena(id, p)).me?.pairedRace ?? null).toBeNull();
    // Once the others are back, everyone meets someone new.
    await finish(codes[players.indexOf(others[0] as TestPlayer)] as string, others);
    const next = await Promise.all(players.map((p) => pairedRace(id, p)));
    const [x, y] = pair as [TestPlayer, TestPlayer];
    expect(next[players.indexOf(x)]).not.toBe(next[players.indexOf(y)]);
  });
});
