/**
 * Arenas (docs/arenas.md): the pure rules (scoring with streaks and berserk, pairing by standing without an
 * immediate rematch, the schedule's slots), then the routes and the arena tick on both databases with an
 * injected clock that runs with real time plus an offset (so race countdowns run while the arena's end can be
 * reached at once): pairing over several rounds, scoring, berserk, the end (no pairing after it, a race under
 * way counted once), and a schedule made once by two nodes on one Postgres.
 */
import {
  ArenaListSchema,
  ArenaSchema,
  ErrorBodySchema,
  RaceResultsSchema,
  RaceSchema,
  type Arena,
} from '@klondike/protocol';
import { PRESETS } from '@klondike/rules';
import { solve } from '@klondike/solver';
import type { FastifyInstance } from 'fastify';
import { dealOfKey } from '../../../src/core/rooms/keyed-deals.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMATCH_AFTER_MS, pairArena, type ArenaWaiting } from '../../../src/features/arenas/pairing.js';
import { DEFAULT_SCHEDULE, slotsAhead } from '../../../src/features/arenas/schedule.js';
import { NO_SCORE, addRace, onFire, racePoints } from '../../../src/features/arenas/scoring.js';
import {
  TEST_DATABASE_URL,
  WsClient,
  describeEachDatabase,
  testApp,
  testSchemaName,
  withSchema,
  wsUrl,
} from '../../support/helpers.js';
import { type TestPlayer, newPlayer, scorePoints } from '../../support/race-helpers.js';

const T0 = Date.parse('2026-12-01T12:00:00Z');

describe('arenas/scoring.ts', () => {
  it('a win scores 2, doubled after two wins in a row until a race that is not a win; berserk adds 1', () => {
    let s = NO_SCORE;
    const seq: [boolean, boolean][] = [
      [true, false], // 2
      [true, false], // 2 → on fire
      [true, false], // 4
      [true, true], // 4 + 1
      [false, false], // 0: the fire goes out
      [true, true], // 2 + 1
    ];
    const got: number[] = [];
    for (const [won, berserk] of seq) {
      got.push(racePoints(s, won, berserk));
      s = addRace(s, won, berserk);
    }
    expect(got).toEqual([2, 2, 4, 5, 0, 3]);
    expect(s).toEqual({ points: 16, games: 6, wins: 5, streak: 1 });
    expect(onFire(s)).toBe(false);
    expect(onFire(addRace(s, true, false))).toBe(true);
  });
});

describe('arenas/pairing.ts', () => {
  const w = (id: string, points: number, last: string | null = null, since = T0): ArenaWaiting => ({
    playerId: id,
    points,
    rating: 1500,
    lastOpponent: last,
    waitingSince: since,
  });

  it('pairs by standing, each player at most once, never with themself', () => {
    for (let n = 2; n <= 10; n++) {
      const list = Array.from({ length: n }, (_, i) => w(`p${i}`, 10 - i));
      const pairs = pairArena([...list, list[0] as ArenaWaiting], T0);
      const ids = pairs.flat().map((p) => p.playerId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(pairs).toHaveLength(Math.floor(n / 2));
      for (const [a, b] of pairs) expect(a.playerId).not.toBe(b.playerId);
    }
    expect(
      pairArena([w('a', 9), w('b', 1), w('c', 8), w('d', 2)], T0).map((p) => p.map((x) => x.playerId)),
    ).toEqual([
      ['a', 'c'],
      ['d', 'b'],
    ]);
  });

  it('no immediate rematch while others wait; the last two meet again only after waiting', () => {
    const pairs = pairArena([w('a', 4, 'b'), w('b', 4, 'a'), w('c', 2, 'd'), w('d', 2, 'c')], T0);
    for (const [x, y] of pairs) expect([x.lastOpponent, y.lastOpponent]).not.toContain(y.playerId);
    expect(pairs).toHaveLength(2);
    expect(pairArena([w('a', 4, 'b'), w('b', 2, 'a')], T0)).toEqual([]);
    expect(
      pairArena([w('a', 4, 'b', T0 - REMATCH_AFTER_MS), w('b', 2, 'a', T0 - REMATCH_AFTER_MS)], T0),
    ).toHaveLength(1);
  });
});

describe('arenas/schedule.ts', () => {
  it('lists the slots not yet ended within the window, each with its own key', () => {
    const slots = slotsAhead(DEFAULT_SCHEDULE, T0 + 5 * 60_000, 3 * 60 * 60_000);
    const keys = slots.map((s) => s.scheduleKey);
    expect(new Set(keys).size).toBe(keys.length);
    // The 12:00 hourly arena runs until 12:20 and is listed; so are 13:00, 14:00 and 15:00.
    expect(
      slots.filter((s) => s.preset === 'classic-draw1').map((s) => new Date(s.startsAt).toISOString()),
    ).toEqual([
      '2026-12-01T12:00:00.000Z',
      '2026-12-01T13:00:00.000Z',
      '2026-12-01T14:00:00.000Z',
      '2026-12-01T15:00:00.000Z',
    ]);
    for (const s of slots) expect(s.endsAt).toBeGreaterThan(T0 + 5 * 60_000);
    expect(slotsAhead(DEFAULT_SCHEDULE, T0 + 5 * 60_000, 3 * 60 * 60_000)).toEqual(slots);
  });
});

describeEachDatabase('arena routes and tick', (db) => {
  let app: FastifyInstance;
  let offset = 0;
  const sockets: WsClient[] = [];
  const players: TestPlayer[] = [];

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => Date.now() + offset,
      config: { raceCountdownMs: 100, raceCertifyMs: 3000 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    for (let i = 0; i < 4; i++) players.push(await newPlayer(app, `ar${i}`));
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await app.close();
    await db.cleanup();
  });

  async function call(method: 'GET' | 'POST', url: string, as?: TestPlayer, payload?: object) {
    return app.inject({
      method,
      url,
      ...(as ? { headers: { authorization: `Bearer ${as.token}` } } : {}),
      ...(payload !== undefined ? { payload } : {}),
    });
  }
  async function arena(id: string, as?: TestPlayer): Promise<Arena> {
    const r = await call('GET', `/api/arenas/${id}`, as);
    expect(r.statusCode, r.body).toBe(200);
    return ArenaSchema.parse(r.json());
  }
  /** Runs ticks until `done` holds (races take a moment to be made). */
  async function until(id: string, done: (a: Arena) => boolean, as?: TestPlayer): Promise<Arena> {
    for (let i = 0; i < 100; i++) {
      await app.arenas.tick();
      const a = await arena(id, as);
      if (done(a)) return a;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`arena ${id}: condition not reached: ${JSON.stringify(await arena(id, as))}`);
  }
  /**
   * Ends race `code`: its racers resign in seat order, the first scoring points before when `decisive` (equal
   * non-winners tie, so someone must be ahead for the race to have a winner). Returns a racer placed first.
   */
  async function finishRace(code: string, decisive: boolean): Promise<string> {
    const race = await app.prisma.race.findUniqueOrThrow({ where: { code }, include: { racers: true } });
    for (let i = 0; i < 100 && race.racers.some((r) => r.gameId === null); i++) {
      await new Promise((r) => setTimeout(r, 50));
      race.racers = await app.prisma.raceRacer.findMany({ where: { raceCode: code } });
    }
    const first = race.racers[0];
    if (decisive && first?.gameId)
      await scorePoints(app, players.find((x) => x.id === first.playerId) as TestPlayer, first.gameId);
    for (const r of race.racers) {
      // A racer left alone may already have been ended by the race (422 game-over).
      const p = players.find((x) => x.id === r.playerId) as TestPlayer;
      const res = await call('POST', `/api/games/${r.gameId}/resign`, p, {});
      expect([200, 422], res.body).toContain(res.statusCode);
      offset += 1000;
    }
    for (let i = 0; i < 100; i++) {
      const row = await app.prisma.race.findUniqueOrThrow({ where: { code } });
      if (row.status === 'finished') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const results = RaceResultsSchema.parse((await call('GET', `/api/races/${code}/results`)).json());
    return results.results.find((x) => x.placement === 1)?.playerId as string;
  }

  it('bad input: 401 without a token, 400 for a bad body, 404 for an unknown arena; nothing is made', async () => {
    expect(
      (await call('POST', '/api/arenas', undefined, { preset: 'classic-draw1', durationMs: 600_000 }))
        .statusCode,
    ).toBe(401);
    for (const body of [
      { preset: 'vegas-draw1', durationMs: 600_000 },
      { preset: 'classic-draw1', durationMs: 1000 },
      { preset: 'classic-draw1', durationMs: 600_000, startsAt: '2000-01-01T00:00:00.000Z' },
      { preset: 'classic-draw1', durationMs: 600_000, extra: true },
    ]) {
      const r = await call('POST', '/api/arenas', players[0], body);
      expect(r.statusCode, r.body).toBe(400);
      expect(ErrorBodySchema.parse(r.json()).error.code).toBe('bad-request');
    }
    expect(await app.prisma.arena.count()).toBe(0);
    expect((await call('GET', '/api/arenas/ABCDEFGHJK')).statusCode).toBe(404);
    expect((await call('POST', '/api/arenas/ABCDEFGHJK/join', players[0], {})).statusCode).toBe(404);
  });

  it('four players over two rounds: one race each at a time, no immediate rematch, points as scored; live frames', async () => {
    const made = await call('POST', '/api/arenas', players[0], {
      preset: 'classic-draw1',
      durationMs: 10 * 60_000,
      name: 'Test arena',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, status } = ArenaSchema.parse(made.json());
    expect(status).toBe('running');
    const list = ArenaListSchema.parse((await call('GET', '/api/arenas')).json());
    expect(list.running.map((a) => a.id)).toContain(id);

    const watcher = await WsClient.connect(wsUrl(app));
    sockets.push(watcher);
    await watcher.request({ type: 'arena-subscribe', id }, (f) => f.type === 'arena');
    const authed = await WsClient.connect(wsUrl(app));
    sockets.push(authed);
    await authed.request({ type: 'auth', token: players[1]?.token }, (f) => f.type === 'authed');

    for (const p of players)
      expect((await call('POST', `/api/arenas/${id}/join`, p, {})).statusCode).toBe(200);
    const paired = await until(
      id,
      (a) => players.every((p) => a.standings.some((s) => s.playerId === p.id)) && true,
    );
    expect(paired.standings).toHaveLength(4);
    const round1 = await Promise.all(
      players.map(
        async (p) => (await until(id, (a) => a.me?.pairedRace != null, p)).me?.pairedRace as string,
      ),
    );
    expect(new Set(round1).size).toBe(2);
    expect((await authed.waitFor((f) => f.type === 'paired', 0, 10_000)).type).toBe('paired');
    const opponent = new Map<string, string>();
    for (const code of new Set(round1)) {
      const race = RaceSchema.parse((await call('GET', `/api/races/${code}`)).json());
      expect(race).toMatchObject({ arenaId: id, rated: true, maxPlayers: 2 });
      const [a, b] = race.racers.map((r) => r.playerId) as [string, string];
      opponent.set(a, b);
      opponent.set(b, a);
    }

    // Berserk before the countdown ends is refused once the race runs.
    const late = await call('POST', `/api/arenas/${id}/berserk`, players[0]);
    expect([200, 409]).toContain(late.statusCode);
    // In time (still in its countdown), a won race scores one more for players[0].
    const berserker = late.statusCode === 200 ? players[0]?.id : undefined;

    const winners = new Set<string>();
    for (const code of new Set(round1)) winners.add(await finishRace(code, true));
    const scored = await until(id, (a) => a.standings.reduce((n, s) => n + s.games, 0) === 4);
    for (const s of scored.standings) {
      expect(s.games).toBe(1);
      expect(s.points).toBe(winners.has(s.playerId) ? (s.playerId === berserker ? 3 : 2) : 0);
      expect(s.streak).toBe(winners.has(s.playerId) ? 1 : 0);
    }
    await watcher.waitFor(
      (f) => f.type === 'arena' && f.arena.standings.some((s) => s.points === 2),
      0,
      10_000,
    );

    // Round 2: paired again, never with the last opponent (others wait).
    const round2 = await Promise.all(
      players.map(
        async (p) =>
          (await until(id, (a) => a.me?.pairedRace != null && !round1.includes(a.me.pairedRace), p)).me
            ?.pairedRace as string,
      ),
    );
    for (const code of new Set(round2)) {
      const race = RaceSchema.parse((await call('GET', `/api/races/${code}`)).json());
      const [a, b] = race.racers.map((r) => r.playerId) as [string, string];
      expect(opponent.get(a)).not.toBe(b);
    }

    // The end: no pairing after it; the races under way count once when they finish; then the podium.
    offset += 11 * 60_000;
    await app.arenas.tick();
    const ended = await arena(id);
    expect(ended.status).toBe('finished');
    expect(ended.podium).toBeNull();
    for (const code of new Set(round2)) await finishRace(code, false);
    const final = await until(id, (a) => a.podium !== null);
    expect(final.standings.reduce((n, s) => n + s.games, 0)).toBe(8);
    expect(final.podium?.map((s) => s.rank)).toEqual([1, 2, 3]);
    await app.arenas.tick();
    expect((await arena(id)).standings.reduce((n, s) => n + s.games, 0)).toBe(8);
    expect(await app.prisma.arenaRace.count({ where: { arenaId: id } })).toBe(4);
    expect((await call('POST', `/api/arenas/${id}/join`, players[0], {})).statusCode).toBe(409);
  }, 120_000);

  it('a paused player is not paired; a bot cannot join people\u2019s arena; invite-only needs its code', async () => {
    const a = ArenaSchema.parse(
      (
        await call('POST', '/api/arenas', players[0], {
          preset: 'classic-draw3',
          durationMs: 10 * 60_000,
          inviteOnly: true,
        })
      ).json(),
    );
    expect(a.inviteOnly).toBe(true);
    expect(a.me?.inviteCode).toEqual(expect.any(String));
    // Without the code the arena is answered as a missing one (arena-invite-only.test.ts).
    expect((await call('POST', `/api/arenas/${a.id}/join`, players[1], {})).statusCode).toBe(404);
    expect(
      (await call('POST', `/api/arenas/${a.id}/join`, players[1], { inviteCode: a.me?.inviteCode ?? '' }))
        .statusCode,
    ).toBe(200);
    expect((await call('POST', `/api/arenas/${a.id}/leave`, players[1])).statusCode).toBe(200);
    expect(
      (await call('POST', `/api/arenas/${a.id}/join`, players[0], { inviteCode: a.me?.inviteCode ?? '' }))
        .statusCode,
    ).toBe(200);
    await app.arenas.tick();
    await new Promise((r) => setTimeout(r, 200));
    const now = await arena(a.id, players[0]);
    expect(now.me?.pairedRace).toBeNull();
    expect(now.standings.find((s) => s.playerId === players[1]?.id)?.paused).toBe(true);
    const bot = await app.inject({
      method: 'POST',
      url: '/api/players',
      payload: { name: `arbot${offset % 97}`, bot: true },
    });
    const botPlayer = bot.json<TestPlayer>();
    expect(
      (await call('POST', `/api/arenas/${a.id}/join`, botPlayer, { inviteCode: a.me?.inviteCode ?? '' }))
        .statusCode,
    ).toBe(403);
    await call('POST', `/api/arenas/${a.id}/leave`, players[0]);
  });
});

// Two nodes making the schedule at once need one database both reach: a Postgres server.
describe.skipIf(TEST_DATABASE_URL === undefined)('arena schedule: two nodes make it once [Postgres]', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    const url = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
    const db = {
      kind: 'postgres' as const,
      config: () => ({ databaseUrl: url, dataDir: 'memory://' }),
      cleanup: async () => {},
    };
    a = await testApp(db, { now: () => T0 });
    b = await testApp(db, { now: () => T0 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('both nodes make the schedule at the same moment: one arena per slot', async () => {
    await Promise.all([a.arenas.makeSchedule(), b.arenas.makeSchedule(), a.arenas.makeSchedule()]);
    const slots = slotsAhead(DEFAULT_SCHEDULE, T0);
    expect(await a.prisma.arena.count()).toBe(slots.length);
    const keys = (await a.prisma.arena.findMany({ select: { scheduleKey: true } })).map((r) => r.scheduleKey);
    expect(keys.sort()).toEqual(slots.map((s) => s.scheduleKey).sort());
  });
});

describeEachDatabase('arena berserk', (db) => {
  let app: FastifyInstance;
  let offset = 0;
  const ps: TestPlayer[] = [];

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => Date.now() + offset,
      // Racers without a race socket are away from the start: here they forfeit long after half time.
      config: { raceCountdownMs: 2500, raceCertifyMs: 3000, raceAwayForfeitMs: 60 * 60_000 },
    });
    for (let i = 0; i < 2; i++) ps.push(await newPlayer(app, `bz${i}`));
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const as = (p: TestPlayer) => ({ authorization: `Bearer ${p.token}` });

  it('berserk before the countdown ends: no undo, stopped at half time, a won berserk race adds 1; 409 later', async () => {
    const [a, b] = ps as [TestPlayer, TestPlayer];
    const made = await app.inject({
      method: 'POST',
      url: '/api/arenas',
      headers: as(a),
      payload: { preset: 'classic-draw1', durationMs: 30 * 60_000 },
    });
    const { id } = ArenaSchema.parse(made.json());
    for (const p of ps)
      await app.inject({ method: 'POST', url: `/api/arenas/${id}/join`, headers: as(p), payload: {} });
    let code: string | null = null;
    for (let i = 0; i < 100 && code === null; i++) {
      await app.arenas.tick();
      code = await app.arenas.currentRace(id, a.id);
      if (code === null) await new Promise((r) => setTimeout(r, 50));
    }
    expect(code).not.toBeNull();
    const berserk = await app.inject({ method: 'POST', url: `/api/arenas/${id}/berserk`, headers: as(a) });
    expect(berserk.statusCode, berserk.body).toBe(200);
    expect(RaceSchema.parse(berserk.json()).racers.find((r) => r.playerId === a.id)?.berserk).toBe(true);

    // The race starts: the berserker's game has no undo, the other's keeps it.
    let race = RaceSchema.parse(berserk.json());
    for (let i = 0; i < 200 && race.status !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      race = RaceSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/races/${code}`, headers: as(a) })).json(),
      );
    }
    expect(race.status).toBe('running');
    const late = await app.inject({ method: 'POST', url: `/api/arenas/${id}/berserk`, headers: as(b) });
    expect(late.statusCode).toBe(409);
    const rows = await app.prisma.raceRacer.findMany({
      where: { raceCode: code as string },
      include: { game: true },
    });
    const gameOf = (p: TestPlayer) => rows.find((r) => r.playerId === p.id)?.gameId as string;
    const view = async (p: TestPlayer) =>
      (await app.inject({ method: 'GET', url: `/api/games/${gameOf(p)}`, headers: as(p) })).json<{
        view: { options: { undo: boolean }; status: string };
      }>().view;
    expect((await view(a)).options.undo).toBe(false);
    expect((await view(b)).options.undo).toBe(true);

    // A, berserk, puts a card on a foundation (the solver's line on the certified deal, to its first
    // foundation move), and is stopped by the server once half the time limit has passed; B plays on, then
    // resigns.
    const deal = (await app.prisma.race.findUniqueOrThrow({ where: { code: code as string } })).dealKey;
    const solved = solve(dealOfKey(deal ?? ''), PRESETS['classic-draw1'], { timeLimitMs: 10_000 });
    expect(solved.verdict).toBe('won');
    let version = 0;
    for (const move of solved.line ?? []) {
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${gameOf(a)}/moves`,
        headers: as(a),
        payload: { move, version },
      });
      expect(r.statusCode, r.body).toBe(200);
      version = r.json<{ version: number }>().version;
      if (move.type === 'move' && move.to.startsWith('f')) break;
    }
    offset += (race.timeLimitMs ?? 0) / 2 + 1000;
    await app.arenas.tick();
    for (let i = 0; i < 100 && (await view(a)).status === 'playing'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await app.arenas.tick();
    }
    expect((await view(a)).status).toBe('resigned');
    expect((await view(b)).status).toBe('playing');
    offset += 5000;
    await app.inject({ method: 'POST', url: `/api/games/${gameOf(b)}/resign`, headers: as(b), payload: {} });

    // A is ahead (a card on the foundations, B none): A places first, and a won berserk race scores 2 + 1.
    let standings = (await app.arenas.get(id, null)).standings;
    for (let i = 0; i < 100 && standings.reduce((n, s) => n + s.games, 0) < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await app.arenas.tick();
      standings = (await app.arenas.get(id, null)).standings;
    }
    const results = RaceResultsSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/races/${code}/results` })).json(),
    ).results;
    const winner = results.find((r) => r.placement === 1)?.playerId;
    expect(winner).toBe(a.id);
    expect(standings.find((s) => s.playerId === a.id)?.points).toBe(racePoints(NO_SCORE, true, true));
    expect(racePoints(NO_SCORE, true, true)).toBe(3);
    expect(standings.find((s) => s.playerId === b.id)?.points).toBe(0);
  }, 60_000);
});
