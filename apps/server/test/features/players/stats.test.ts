/**
 * Statistics and history (docs/features.md "Statistics"): games created with a player's token belong to that player
 * and count, casual ones included; GET /api/players/:id/stats numbers on games played through the API;
 * GET /api/players/:id/games filters, pages and its replay flags (docs/features.md "Fair play"); the daily
 * leaderboard's distribution; bad ids and queries.
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  HistoryPageSchema,
  LeaderboardSchema,
  MoveSchema,
  PlayerCreatedSchema,
  PlayerStatisticsSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import { type Move, resolveOptions } from '@klondike/rules';
import { winnableDeal, winningLine } from '@klondike/rules/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BUCKETS, timeHistogram, winStreaks } from '../../../src/features/players/stats.js';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

const DAY0 = '2026-03-09';
const DAY1 = '2026-03-10';
const DAY2 = '2026-03-11';
const at = (date: string, time = '12:00:00.000') => Date.parse(`${date}T${time}Z`);

describe('histogram and streaks (pure)', () => {
  it('no time → no bucket; one time → one bucket holding it', () => {
    expect(timeHistogram([]).buckets).toEqual([]);
    expect(timeHistogram([61_000])).toEqual({
      bucketMs: 5_000,
      buckets: [{ fromMs: 60_000, toMs: 65_000, count: 1 }],
    });
  });
  it('the narrowest width that fits in MAX_BUCKETS; every time counted once, in its [from, to) bucket', () => {
    const times = [30_000, 95_000, 119_999, 120_000, 400_000];
    const h = timeHistogram(times);
    expect(h.bucketMs).toBe(60_000); // 30 s buckets would need 13 (0:30 … 6:40)
    expect(h.buckets.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(h.buckets[0]).toEqual({ fromMs: 0, toMs: 60_000, count: 1 });
    expect(h.buckets.find((b) => b.fromMs === 60_000)?.count).toBe(2);
    expect(h.buckets.find((b) => b.fromMs === 120_000)?.count).toBe(1);
    expect(h.buckets.reduce((n, b) => n + b.count, 0)).toBe(times.length);
    for (const b of h.buckets) expect(b.toMs - b.fromMs).toBe(h.bucketMs);
  });
  it('win streaks: the run ending with the last game, and the longest', () => {
    expect(winStreaks([])).toEqual({ current: 0, best: 0 });
    expect(winStreaks([true, true, false, true])).toEqual({ current: 1, best: 2 });
    expect(winStreaks([false, true, true, true])).toEqual({ current: 3, best: 3 });
  });
});

describeEachDatabase('statistics and history', (db) => {
  let clock = at(DAY0);
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function call(
    method: 'GET' | 'POST',
    url: string,
    opts: { as?: string; payload?: object } = {},
  ): Promise<LightMyRequestResponse> {
    const token = opts.as !== undefined ? tokens[opts.as] : undefined;
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
  /** Creates a game as `as` (or anonymously). */
  async function create(as: string | undefined, payload: object): Promise<string> {
    const r = await call('POST', '/api/games', { ...(as ? { as } : {}), payload });
    expect(r.statusCode, r.body).toBe(201);
    return GameResponseSchema.parse(r.json()).id;
  }
  /** Plays moves one server second apart; returns the last state. */
  async function play(id: string, as: string | undefined, moves: readonly Move[], from = 0) {
    let version = from;
    let last: ReturnType<typeof StateResponseSchema.parse> | undefined;
    for (const move of moves) {
      clock += 1000;
      const r = await call('POST', `/api/games/${id}/moves`, {
        ...(as ? { as } : {}),
        payload: { move, version },
      });
      expect(r.statusCode, r.body).toBe(200);
      last = StateResponseSchema.parse(r.json());
      version = last.version;
    }
    if (!last) throw new Error('no move');
    return last;
  }
  async function resign(id: string, as: string, version: number) {
    clock += 1000;
    const r = await call('POST', `/api/games/${id}/resign`, { as, payload: { version } });
    expect(r.statusCode, r.body).toBe(200);
    return StateResponseSchema.parse(r.json());
  }
  const stats = async (name: string) => {
    const r = await call('GET', `/api/players/${ids[name]}/stats`);
    expect(r.statusCode, r.body).toBe(200);
    return PlayerStatisticsSchema.parse(r.json());
  };
  const history = async (name: string, query = '', as = name) => {
    const r = await call('GET', `/api/players/${ids[name]}/games${query}`, { as });
    expect(r.statusCode, r.body).toBe(200);
    return HistoryPageSchema.parse(r.json());
  };

  const line1 = winningLine(resolveOptions('classic-draw1'));
  const line3 = winningLine(resolveOptions('classic-draw3'));
  /** Casual games of Alice: [id, status] in the order played. */
  const played: { id: string; status: string; preset: string }[] = [];

  it('players are created the day before (their daily rows are then not provisional)', async () => {
    for (const name of ['Alice', 'Bob']) {
      const r = await call('POST', '/api/players', { payload: { name } });
      expect(r.statusCode, r.body).toBe(201);
      const p = PlayerCreatedSchema.parse(r.json());
      tokens[name.toLowerCase()] = p.token;
      ids[name.toLowerCase()] = p.id;
    }
  });

  it("a casual game created with a token is the player's: moves without it → 401, with another → 403", async () => {
    const id = await create('alice', { preset: 'classic-draw1', deal: winnableDeal(1) });
    const move = { move: line1[0], version: 0 };
    expectError(await call('POST', `/api/games/${id}/moves`, { payload: move }), 401, 'unauthorized');
    expectError(await call('POST', `/api/games/${id}/moves`, { as: 'bob', payload: move }), 403, 'forbidden');
    expect((await play(id, 'alice', line1)).view.status).toBe('won');
    played.push({ id, status: 'won', preset: 'classic-draw1' });
  });

  it('Alice plays: won, won (draw 3), resigned, two resigned Vegas games; an anonymous win is nobody’s', async () => {
    const w1 = await create('alice', { preset: 'classic-draw1', deal: winnableDeal(1) });
    await play(w1, 'alice', line1);
    played.push({ id: w1, status: 'won', preset: 'classic-draw1' });
    clock = at(DAY1, '09:00:00.000');
    const w3 = await create('alice', { preset: 'classic-draw3', deal: winnableDeal(3) });
    await play(w3, 'alice', line3);
    played.push({ id: w3, status: 'won', preset: 'classic-draw3' });
    const lost = await create('alice', { preset: 'classic-draw1', dealNumber: 7 });
    const drawn = await play(lost, 'alice', [{ type: 'draw' }, { type: 'draw' }]);
    await resign(lost, 'alice', drawn.version);
    played.push({ id: lost, status: 'resigned', preset: 'classic-draw1' });
    const anon = await create(undefined, { preset: 'classic-draw1', deal: winnableDeal(1) });
    await play(anon, undefined, line1);
    const unfinished = await create('alice', { preset: 'classic-draw1', dealNumber: 8 });
    await play(unfinished, 'alice', [{ type: 'draw' }]);
  });

  let vegasSum = 0;
  it('Vegas games: resigned twice', async () => {
    for (const n of [11, 12]) {
      const id = await create('alice', { preset: 'vegas-draw1', dealNumber: n });
      const end = await resign(id, 'alice', 0);
      vegasSum += end.view.score;
      played.push({ id, status: 'resigned', preset: 'vegas-draw1' });
      // Its preset names its options: the row stores none, and the Vegas balance reads them from the preset.
      const row = await app.prisma.game.findUniqueOrThrow({ where: { id }, select: { options: true } });
      expect(row.options).toBeNull();
    }
    expect(vegasSum).toBe(-104); // docs/rules.md S2: each game starts at −52 and nothing went up
  });

  it('GET /api/players/:id/stats: per preset, totals, series, histogram with the best time', async () => {
    const s = await stats('alice');
    expect(s.total).toEqual({ games: 6, wins: 3, winRate: 0.5 });
    const d1 = s.presets.find((p) => p.preset === 'classic-draw1');
    // Wins took (line − 1) s each (the clock starts at the first move); order: won, won, resigned.
    const t1 = (line1.length - 1) * 1000;
    expect(d1).toEqual({
      preset: 'classic-draw1',
      games: 3,
      wins: 2,
      winRate: 2 / 3,
      currentStreak: 0,
      bestStreak: 2,
      bestTimeMs: t1,
      averageTimeMs: t1,
      bestMoves: line1.length,
      averageMoves: line1.length,
      vegasBalance: null,
    });
    expect(s.presets.find((p) => p.preset === 'classic-draw3')).toMatchObject({
      games: 1,
      wins: 1,
      currentStreak: 1,
      bestTimeMs: (line3.length - 1) * 1000,
    });
    expect(s.presets.find((p) => p.preset === 'vegas-draw1')).toMatchObject({
      games: 2,
      wins: 0,
      winRate: 0,
      bestTimeMs: null,
      vegasBalance: vegasSum,
    });
    expect(s.presets[0]?.preset).toBe('classic-draw1'); // most played first
    expect(s.winRate).toEqual([
      { date: DAY0, games: 2, wins: 2, cumulativeWinRate: 1 },
      { date: DAY1, games: 4, wins: 1, cumulativeWinRate: 0.5 },
    ]);
    expect(s.winTimes.buckets.reduce((n, b) => n + b.count, 0)).toBe(3);
    expect(s.bestTimeMs).toBe(Math.min(t1, (line3.length - 1) * 1000));
    const best = s.winTimes.buckets.find((b) => b.fromMs <= t1 && t1 < b.toMs);
    expect(best?.count).toBe(2);
    expect(s.winTimes.buckets.length).toBeLessThanOrEqual(12);
    expect(s.dailyRanks).toEqual([]);
    // Bob has played nothing: zeros, not errors.
    const b = await stats('bob');
    expect(b).toMatchObject({ total: { games: 0, wins: 0, winRate: 0 }, presets: [], winRate: [] });
    expect(b.winTimes.buckets).toEqual([]);
    expect(b.bestTimeMs).toBeNull();
  });

  it('GET /api/players/:id/games: newest first, filters, cursor pages, replay links that open', async () => {
    const all = await history('alice');
    expect(all.games.map((g) => g.gameId)).toEqual(played.map((p) => p.id).reverse());
    expect(all.nextCursor).toBeNull();
    expect(all.games.every((g) => g.kind === 'casual' && g.replay)).toBe(true);
    for (const g of all.games) {
      const r = await call('GET', `/api/games/${g.gameId}/replay`);
      expect(r.statusCode, r.body).toBe(200);
    }
    const won = await history('alice', '?result=won');
    expect(won.games.map((g) => g.status)).toEqual(['won', 'won', 'won']);
    const lostDraw1 = await history('alice', '?result=lost&preset=classic-draw1');
    expect(lostDraw1.games).toHaveLength(1);
    expect(lostDraw1.games[0]).toMatchObject({ status: 'resigned', preset: 'classic-draw1', moves: 2 });
    const vegas = await history('alice', '?preset=vegas-draw1');
    expect(vegas.games.map((g) => g.score)).toEqual([-52, -52]);
    // Pages of two, following the cursor, give every game once in the same order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof history>> = await history(
        'alice',
        `?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.games.length).toBeLessThanOrEqual(2);
      seen.push(...page.games.map((g) => g.gameId));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.games.map((g) => g.gameId));
  });

  it('history is the player’s own: 401 without a token, 403 with another; bad ids and queries are typed', async () => {
    expectError(await call('GET', `/api/players/${ids.alice}/games`), 401, 'unauthorized');
    expectError(await call('GET', `/api/players/${ids.alice}/games`, { as: 'bob' }), 403, 'forbidden');
    expectError(await call('GET', '/api/players/nobody-here/stats'), 404, 'not-found');
    expectError(await call('GET', '/api/players/nobody-here/games', { as: 'alice' }), 404, 'not-found');
    expectError(await call('GET', '/api/players/bad%20id!/stats'), 400, 'bad-request');
    for (const q of [
      'result=draw',
      'preset=klondike',
      'limit=0',
      'limit=101',
      'cursor=abc',
      'cursor=1_%24',
    ]) {
      expectError(
        await call('GET', `/api/players/${ids.alice}/games?${q}`, { as: 'alice' }),
        400,
        'bad-request',
      );
    }
  });

  it('ranked dailies: ranks of the last 30 days, replay closed until the day ends, the leaderboard distribution', async () => {
    const attempt = async (name: string) => {
      const r = await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`, { as: name });
      expect(r.statusCode, r.body).toBe(201);
      return GameResponseSchema.parse(r.json()).id;
    };
    const a = await attempt('alice'); // the daily is made on first use
    const daily = await app.prisma.dailyDeal.findUniqueOrThrow({
      where: { date_preset: { date: DAY1, preset: 'classic-draw1' } },
    });
    const line = MoveSchema.array().parse(daily.line);
    const started = clock;
    await play(a, 'alice', line);
    const aliceTime = clock - started;
    const b = await attempt('bob');
    await resign(b, 'bob', 0);

    const s = await stats('alice');
    expect(s.dailyRanks).toEqual([{ date: DAY1, preset: 'classic-draw1', status: 'won', rank: 1, of: 2 }]);
    expect(s.presets.find((p) => p.preset === 'classic-draw1')).toMatchObject({ games: 4, wins: 3 });
    expect((await stats('bob')).dailyRanks).toEqual([
      { date: DAY1, preset: 'classic-draw1', status: 'resigned', rank: 2, of: 2 },
    ]);

    const top = (await history('alice', '?limit=1')).games[0];
    expect(top).toMatchObject({ gameId: a, kind: 'daily-ranked', preset: 'classic-draw1', replay: false });
    expectError(await call('GET', `/api/games/${a}/replay`), 403, 'forbidden');

    const board = async (as?: string) => {
      const r = await call('GET', `/api/daily/${DAY1}/classic-draw1/leaderboard`, as ? { as } : {});
      expect(r.statusCode, r.body).toBe(200);
      return LeaderboardSchema.parse(r.json()).distribution;
    };
    const forAlice = await board('alice');
    expect(forAlice).toMatchObject({ finished: 2, wins: 1, yourTimeMs: aliceTime, youBeat: 1 });
    expect(forAlice.winTimes.buckets.reduce((n, x) => n + x.count, 0)).toBe(1);
    expect(await board('bob')).toMatchObject({ yourTimeMs: null, youBeat: 0 });
    expect(await board()).toMatchObject({ finished: 2, yourTimeMs: null, youBeat: null });

    clock = at(DAY2, '00:00:01.000'); // the day has closed: the ranked game's replay opens
    expect((await history('alice', '?limit=1')).games[0]).toMatchObject({ gameId: a, replay: true });
    expect((await call('GET', `/api/games/${a}/replay`)).statusCode).toBe(200);
  });
});
