/**
 * Daily ratings (docs/ratings.md), on both databases with an injected clock: a closed day's results move the
 * daily pool's ratings once by placement (a second settlement changes nothing, also two nodes settling at
 * once on one Postgres), accounts created on the day are not rated, the deal gets a difficulty rating, and
 * the players' ratings, history and the rating leaderboard answer (with their bad paths).
 */
import {
  GameResponseSchema,
  MoveSchema,
  PlayerCreatedSchema,
  DailyTodaySchema,
  PlayerPageSchema,
  PlayerRatingHistorySchema,
  RatingLeaderboardSchema,
} from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_DATABASE_URL,
  describeEachDatabase,
  testApp,
  testSchemaName,
  withSchema,
  dropSchema,
} from '../../support/helpers.js';

const SECRET = 'test-rating-secret-0123456789abcdef';
const DAY = '2025-04-10';
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);

/** Plays a day on `app`: Alice wins along the stored line, Bob resigns, Carol leaves hers unfinished. */
async function playDay(app: FastifyInstance, setClock: (ms: number) => void) {
  const tokens: Record<string, { id: string; token: string }> = {};
  setClock(at('2025-04-09'));
  for (const name of ['Alice', 'Bob', 'Carol']) {
    const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
    expect(r.statusCode, r.body).toBe(201);
    tokens[name] = PlayerCreatedSchema.parse(r.json());
  }
  setClock(at(DAY));
  // Dave's account is created on the day: provisional on its board, so not rated.
  const dave = PlayerCreatedSchema.parse(
    (await app.inject({ method: 'POST', url: '/api/players', payload: { name: 'Dave' } })).json(),
  );
  tokens.Dave = dave;
  const auth = (name: string) => ({ authorization: `Bearer ${tokens[name]?.token}` });
  const attempt = async (name: string) =>
    GameResponseSchema.parse(
      (
        await app.inject({
          method: 'POST',
          url: `/api/daily/${DAY}/classic-draw1/attempt`,
          headers: auth(name),
        })
      ).json(),
    );
  const alice = await attempt('Alice');
  const row = await app.prisma.dailyDeal.findUniqueOrThrow({
    where: { date_preset: { date: DAY, preset: 'classic-draw1' } },
  });
  let version = 0;
  for (const move of MoveSchema.array().parse(row.line)) {
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${alice.id}/moves`,
      headers: auth('Alice'),
      payload: { move, version },
    });
    expect(r.statusCode, r.body).toBe(200);
    version = r.json<{ version: number }>().version;
  }
  const bob = await attempt('Bob');
  expect(
    (
      await app.inject({
        method: 'POST',
        url: `/api/games/${bob.id}/resign`,
        headers: auth('Bob'),
        payload: {},
      })
    ).statusCode,
  ).toBe(200);
  await attempt('Carol');
  const daveGame = await attempt('Dave');
  await app.inject({
    method: 'POST',
    url: `/api/games/${daveGame.id}/resign`,
    headers: auth('Dave'),
    payload: {},
  });
  return tokens;
}

describeEachDatabase('daily ratings', (db) => {
  let clock = at(DAY);
  let app: FastifyInstance;
  let players: Record<string, { id: string; token: string }> = {};

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock, config: { dailySecret: SECRET } });
    players = await playDay(app, (ms) => (clock = ms));
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  it('rates nothing while the day is open', async () => {
    expect(await app.ratings.rateClosedDays()).toBe(0);
    expect(await app.prisma.rating.count()).toBe(0);
  });

  it('rates a closed day once, by placement; a second settlement changes nothing', async () => {
    clock = at('2025-04-11', '00:10:00.000');
    await app.daily.finaliseClosed(); // settles Carol's attempt as unfinished
    // Both presets' dailies closed; classic-draw3 had no results.
    expect(await app.ratings.rateClosedDays()).toBe(2);
    const ratings = await app.prisma.rating.findMany({ where: { pool: 'daily-classic-draw1' } });
    const of = (name: string) => ratings.find((r) => r.playerId === players[name]?.id);
    expect(ratings).toHaveLength(3);
    expect(of('Dave')).toBeUndefined();
    // Alice won (first), then Bob and Carol by the board's order: the winner gains, the last loses.
    expect(of('Alice')?.rating ?? 0).toBeGreaterThan(1500);
    expect(of('Alice')?.rating ?? 0).toBeGreaterThan(of('Bob')?.rating ?? 0);
    expect(Math.min(of('Bob')?.rating ?? 0, of('Carol')?.rating ?? 0)).toBeLessThan(1500);
    for (const r of ratings) {
      expect(r.deviation).toBeLessThan(350);
      expect(r.games).toBe(1);
      expect(r.period).toBe(DAY);
    }
    const rated = await app.prisma.ratedDaily.findFirstOrThrow({ where: { players: { gt: 0 } } });
    expect(rated.players).toBe(3);
    expect(rated.difficulty).not.toBeNull();

    const before = JSON.stringify(await app.prisma.rating.findMany({ orderBy: { playerId: 'asc' } }));
    expect(await app.ratings.rateClosedDays()).toBe(0);
    await app.daily.finaliseClosed();
    expect(await app.ratings.rateClosedDays()).toBe(0);
    expect(JSON.stringify(await app.prisma.rating.findMany({ orderBy: { playerId: 'asc' } }))).toBe(before);
    expect(await app.prisma.ratingHistory.count()).toBe(3);
  });

  it('shows ratings on the player page, a history route, and the rating leaderboard', async () => {
    const page = PlayerPageSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/players/${players.Alice?.id}` })).json(),
    );
    const mine = page.ratings?.['daily-classic-draw1'];
    expect(mine).toMatchObject({ games: 1, provisional: true });
    expect(mine?.rating ?? 0).toBeGreaterThan(1500);

    const history = PlayerRatingHistorySchema.parse(
      (await app.inject({ method: 'GET', url: `/api/players/${players.Alice?.id}/ratings` })).json(),
    );
    expect(history.history['daily-classic-draw1']?.map((p) => p.period)).toEqual([DAY]);
    expect(history.ratings['daily-classic-draw1']?.rating).toBe(mine?.rating);

    // Every rating is provisional after one day: the default board is empty, include=provisional shows all.
    const empty = RatingLeaderboardSchema.parse(
      (await app.inject({ method: 'GET', url: '/api/ratings/daily-classic-draw1' })).json(),
    );
    expect(empty).toMatchObject({ total: 0, entries: [], board: 'humans' });
    const all = RatingLeaderboardSchema.parse(
      (
        await app.inject({
          method: 'GET',
          url: '/api/ratings/daily-classic-draw1?include=provisional&limit=2',
        })
      ).json(),
    );
    expect(all.total).toBe(3);
    expect(all.entries.map((e) => e.name)).toEqual(['Alice', expect.any(String)]);
    expect(all.entries.map((e) => e.rank)).toEqual([1, 2]);
    const bots = RatingLeaderboardSchema.parse(
      (
        await app.inject({
          method: 'GET',
          url: '/api/ratings/daily-classic-draw1?include=provisional&board=bots',
        })
      ).json(),
    );
    expect(bots.total).toBe(0);
  });

  it("a closed, rated daily shows its difficulty and the viewer's rating change; an open one shows neither", async () => {
    const [alice, other] = await app.ratings.annotateDailies(
      [
        { date: DAY, preset: 'classic-draw1' },
        { date: DAY, preset: 'classic-draw3' },
      ],
      players.Alice?.id ?? null,
    );
    const stored = await app.prisma.rating.findFirstOrThrow({
      where: { playerId: players.Alice?.id, pool: 'daily-classic-draw1' },
    });
    expect(alice?.yourRating).toEqual({ before: 1500, after: Math.round(stored.rating) });
    expect(alice?.difficulty).toEqual(expect.any(Number));
    // Nobody played Draw 3 that day: rated, but no difficulty and no change for Alice.
    expect(other).toMatchObject({ difficulty: null, yourRating: null });
    const [anonymous] = await app.ratings.annotateDailies([{ date: DAY, preset: 'classic-draw1' }], null);
    expect(anonymous?.yourRating).toBeNull();
    // Today's challenges (open) through the route: the fields are there, empty.
    const today = DailyTodaySchema.parse(
      (
        await app.inject({
          method: 'GET',
          url: '/api/daily',
          headers: { authorization: `Bearer ${players.Alice?.token}` },
        })
      ).json(),
    );
    for (const c of today.challenges) expect(c).toMatchObject({ difficulty: null, yourRating: null });
  });

  it('refuses bad input: an unknown pool, a bad page, an unknown player', async () => {
    const bad = await app.inject({ method: 'GET', url: '/api/ratings/daily-spider' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'bad-request' } });
    expect(
      (await app.inject({ method: 'GET', url: '/api/ratings/daily-classic-draw1?limit=0' })).statusCode,
    ).toBe(400);
    const missing = await app.inject({ method: 'GET', url: '/api/players/nobody-here-00000000/ratings' });
    expect([400, 404]).toContain(missing.statusCode);
  });
});

// Two nodes settling at once need one database both can reach: a Postgres server (PGlite is in-process).
describe.skipIf(TEST_DATABASE_URL === undefined)('daily ratings: two nodes settle at once [Postgres]', () => {
  let url = '';
  let clock = at(DAY);
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    url = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
    const db = {
      kind: 'postgres' as const,
      config: () => ({ databaseUrl: url, dataDir: 'memory://' }),
      cleanup: async () => {},
    };
    a = await testApp(db, { now: () => clock, config: { dailySecret: SECRET } });
    b = await testApp(db, { now: () => clock, config: { dailySecret: SECRET } });
    await playDay(a, (ms) => (clock = ms));
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await dropSchema(url);
  });

  it('rates the day exactly once', async () => {
    clock = at('2025-04-11', '00:10:00.000');
    await a.daily.finaliseClosed();
    const [ra, rb] = await Promise.all([a.ratings.rateClosedDays(), b.ratings.rateClosedDays()]);
    // Both presets' dailies of the day closed (classic-draw3 without results): each rated once.
    expect(ra + rb).toBe(2);
    const rows = await a.prisma.rating.findMany();
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r.games).toBe(1);
    expect(await a.prisma.ratingHistory.count()).toBe(3);
  });
});
