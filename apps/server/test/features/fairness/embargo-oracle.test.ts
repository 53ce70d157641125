/**
 * No oracle (issue 53, item 3; docs/fairness.md "The deal embargo"): a request about a deal that a live
 * competition uses gets the same answer whatever the cards the requester cannot see.
 *
 * Written as the attack of the issue: a racer (or a player of an open daily) knows the seven cards face up at
 * the deal and, having drawn through it, the stock; they type the deal with every arrangement of the face-down
 * cards they can think of, hoping that the true one answers differently. Every path that takes a typed or
 * referenced deal to a new game or to the solver is tried with several arrangements, the true one among
 * them: `POST /api/games {deal}`, `POST /api/solve` (two presets), `sameDealAs` and the hint and badge of a
 * casual game of that deal. Each must answer the same status, code and message. A deal with other face-up
 * cards is not the competition's and still works. Typed-deal games draw on the solver's allowance, so the
 * probes are also counted.
 */
import { createHmac } from 'node:crypto';
import { ErrorBodySchema, GameResponseSchema } from '@klondike/protocol';
import { dealFromNumber, formatDeal } from '@klondike/rules';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAL_HASH_KEY } from '../../../src/features/fairness/embargo.js';
import {
  FACE_DOWN,
  FACE_UP,
  STOCK,
  faceDownArrangements,
  rearranged,
  reverse,
  stockArrangements,
  swap,
} from '../../support/embargo-helpers.js';
import { describeEachDatabase, testApp } from '../../support/helpers.js';
import { type TestPlayer, call, newPlayer, raceOf } from '../../support/race-helpers.js';

const SECRET = 'embargo-oracle-test-secret-0123456789';
const DAY = '2025-06-10';
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);

/** An answer as the attacker sees it: status, error code and message. */
function answer(r: LightMyRequestResponse): string {
  const parsed = ErrorBodySchema.safeParse(r.json());
  return parsed.success
    ? `${r.statusCode} ${parsed.data.error.code}: ${parsed.data.error.message}`
    : `${r.statusCode}`;
}

describeEachDatabase('no oracle: the deal embargo answers alike whatever the hidden cards', (db) => {
  /** Server clock = real time + offset: DAY 12:00 UTC, so DAY's dailies are open. */
  let offset = 0;
  let app: FastifyInstance;
  let host: TestPlayer;
  let guest: TestPlayer;

  beforeAll(async () => {
    offset = at(DAY) - Date.now();
    app = await testApp(db, {
      now: () => Date.now() + offset,
      config: { dailySecret: SECRET, raceCountdownMs: 50 },
    });
    host = await newPlayer(app, 'host');
    guest = await newPlayer(app, 'guest');
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  /**
   * Casual games of `deals` made before the competition began (a game can no longer be made of them now, which
   * is the point): `sameDealAs` and the hints can only be asked about games that exist. Made through the rooms
   * directly, as POST /api/games made them before the embargo started.
   */
  async function gamesBefore(deals: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const deal of deals) ids.push((await app.rooms.create({ deal })).id);
    return ids;
  }

  /**
   * Every path, every guess: the answers per path (one per guess, in order). `own`: games the attacker holds of
   * the true deal (their race game), referenced by `sameDealAs` too.
   */
  async function probe(guesses: string[], own: string[] = []): Promise<Record<string, string[]>> {
    const games = await gamesBefore(guesses);
    const out: Record<string, string[]> = {
      'POST /api/games {deal}': [],
      'POST /api/games {deal} with a token': [],
      'POST /api/solve': [],
      'POST /api/solve classic-draw3': [],
      'POST /api/games {sameDealAs}': [],
      'GET /api/games/:id/hint': [],
      'GET /api/games/:id/winnable': [],
    };
    const push = (path: string, r: LightMyRequestResponse): void => void out[path]?.push(answer(r));
    for (const deal of guesses) {
      push('POST /api/games {deal}', await call(app, 'POST', '/api/games', { payload: { deal } }));
      push(
        'POST /api/games {deal} with a token',
        await call(app, 'POST', '/api/games', { as: guest, payload: { deal, preset: 'classic-draw3' } }),
      );
      push('POST /api/solve', await call(app, 'POST', '/api/solve', { payload: { deal, timeLimitMs: 50 } }));
      push(
        'POST /api/solve classic-draw3',
        await call(app, 'POST', '/api/solve', {
          payload: { deal, preset: 'classic-draw3', timeLimitMs: 50 },
        }),
      );
    }
    for (const id of [...games, ...own])
      push(
        'POST /api/games {sameDealAs}',
        await call(app, 'POST', '/api/games', { payload: { sameDealAs: id } }),
      );
    for (const id of games) {
      push('GET /api/games/:id/hint', await call(app, 'GET', `/api/games/${id}/hint`));
      push('GET /api/games/:id/winnable', await call(app, 'GET', `/api/games/${id}/winnable`));
    }
    return out;
  }

  /** Every answer of every path is the same refusal: 403 `deal-embargoed` with one message. */
  function expectOneRefusal(answers: Record<string, string[]>): void {
    const all = Object.values(answers).flat();
    const first = all[0] ?? '';
    expect(first).toMatch(/^403 deal-embargoed: /);
    const same = Object.fromEntries(
      Object.entries(answers).map(([path, list]) => [path, list.map(() => first)]),
    );
    expect(answers).toEqual(same);
  }

  /** An unrelated deal, and the competition's deal with one face-up card changed, are answered as usual. */
  async function expectOthersFree(deal: string): Promise<void> {
    const unrelated = dealFromNumber(90_210);
    if (!unrelated.ok) throw new Error('deal 90210');
    // The true deal with the first pile's face-up card and a face-down card swapped: not the deal anyone sees.
    const otherFaceUp = rearranged(deal, [0, 1], swap(0, 1));
    for (const d of [formatDeal(unrelated.value), otherFaceUp]) {
      const created = await call(app, 'POST', '/api/games', { payload: { deal: d } });
      expect(created.statusCode, created.body).toBe(201);
      const id = GameResponseSchema.parse(created.json()).id;
      const solved = await call(app, 'POST', '/api/solve', { payload: { deal: d, timeLimitMs: 50 } });
      expect(solved.statusCode, solved.body).toBe(200);
      const same = await call(app, 'POST', '/api/games', { payload: { sameDealAs: id } });
      expect(same.statusCode, same.body).toBe(201);
      const hint = await call(app, 'GET', `/api/games/${id}/hint`);
      expect(hint.statusCode, hint.body).toBe(200);
    }
  }

  it('during a race: every arrangement of the face-down cards gets the same answer on every path', async () => {
    const created = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    const code = created.code;
    raceOf(await call(app, 'POST', `/api/races/${code}/join`, { as: guest }));
    raceOf(await call(app, 'POST', `/api/races/${code}/start`, { as: host }));
    for (let i = 0; i < 100; i++) {
      const r = await app.prisma.race.findUniqueOrThrow({ where: { code } });
      if (r.status === 'running') break;
      await new Promise((res) => setTimeout(res, 20));
    }
    const race = await app.prisma.race.findUniqueOrThrow({ where: { code }, include: { racers: true } });
    expect(race.status).toBe('running');
    const own = race.racers.map((r) => r.gameId).filter((id): id is string => id !== null);
    expect(own).toHaveLength(2);

    expectOneRefusal(await probe(faceDownArrangements(race.deal), own));
    await expectOthersFree(race.deal);
  });

  it('during an open daily: every arrangement of the face-down cards gets the same answer on every path', async () => {
    expect((await call(app, 'GET', '/api/daily')).statusCode).toBe(200);
    for (const preset of ['classic-draw1', 'classic-draw3']) {
      const daily = await app.prisma.dailyDeal.findUniqueOrThrow({
        where: { date_preset: { date: DAY, preset } },
      });
      expectOneRefusal(await probe(faceDownArrangements(daily.deal)));
      await expectOthersFree(daily.deal);
    }
  });

  it('what is matched is the seven face-up cards: every arrangement of the stock gets the same answer too', async () => {
    const daily = await app.prisma.dailyDeal.findUniqueOrThrow({
      where: { date_preset: { date: DAY, preset: 'classic-draw3' } },
    });
    const guesses = [daily.deal, ...stockArrangements(daily.deal)];
    guesses.push(rearranged(daily.deal, [...FACE_DOWN, ...STOCK], reverse));
    expectOneRefusal(await probe(guesses));
  });

  it('a live race stored by a server that hashed whole deals is embargoed by its face-up cards after the start-up rehash', async () => {
    const created = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    const race = await app.prisma.race.findUniqueOrThrow({ where: { code: created.code } });
    // What the older server stored: HMAC(hash key, the whole deal's text).
    const key = await app.prisma.setting.findUniqueOrThrow({ where: { key: DEAL_HASH_KEY } });
    const old = createHmac('sha256', key.value).update(race.deal, 'utf8').digest('hex');
    await app.prisma.race.update({ where: { code: race.code }, data: { dealHash: old } });
    const guess = faceDownArrangements(race.deal)[1] as string;
    const before = await call(app, 'POST', '/api/solve', { payload: { deal: guess, timeLimitMs: 50 } });
    expect(before.statusCode).toBe(200);

    expect(await app.embargo.rehashLiveRaces()).toBe(1);
    expect(await app.embargo.rehashLiveRaces()).toBe(0);
    expectOneRefusal(await probe(faceDownArrangements(race.deal)));
  });
});

describeEachDatabase('typed deals draw on the solver allowance', (db) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await testApp(db, { config: { rateLimitMax: 1000, solveRateMax: 4 } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const deal = (n: number): string => {
    const d = dealFromNumber(n);
    if (!d.ok) throw new Error(`deal ${n}`);
    return formatDeal(d.value);
  };
  const post = (url: string, payload: object, remoteAddress: string) =>
    app.inject({ method: 'POST', url, payload, remoteAddress });

  it('typed-deal games and solves share SOLVE_RATE_MAX per client; other games do not count', async () => {
    const ip = '10.53.0.1';
    const statuses: number[] = [];
    statuses.push((await post('/api/games', { deal: deal(1) }, ip)).statusCode);
    statuses.push((await post('/api/solve', { deal: deal(2), timeLimitMs: 50 }, ip)).statusCode);
    statuses.push((await post('/api/games', { deal: deal(3) }, ip)).statusCode);
    statuses.push((await post('/api/games', { deal: deal(4) }, ip)).statusCode);
    expect(statuses).toEqual([201, 200, 201, 201]);
    const typed = await post('/api/games', { deal: deal(5) }, ip);
    expect(typed.statusCode, typed.body).toBe(429);
    expect(ErrorBodySchema.parse(typed.json()).error.code).toBe('rate-limited');
    expect(Number(typed.headers['retry-after'])).toBeGreaterThan(0);
    const solve = await post('/api/solve', { deal: deal(6), timeLimitMs: 50 }, ip);
    expect(solve.statusCode, solve.body).toBe(429);
    expect(ErrorBodySchema.parse(solve.json()).error.code).toBe('rate-limited');
    // A random deal and a deal number are not typed deals: the global limit only.
    expect((await post('/api/games', {}, ip)).statusCode).toBe(201);
    expect((await post('/api/games', { dealNumber: 7 }, ip)).statusCode).toBe(201);
    // Another client has its own allowance.
    expect((await post('/api/games', { deal: deal(8) }, '10.53.0.2')).statusCode).toBe(201);
  });

  it('typed-deal games alone use up the allowance (the probes of the attack are counted)', async () => {
    const ip = '10.53.0.3';
    const statuses: number[] = [];
    for (let n = 10; n < 16; n++) statuses.push((await post('/api/games', { deal: deal(n) }, ip)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
  });
});

describe('the arrangement helpers of this file', () => {
  it('move only the cards they name', () => {
    const d = dealFromNumber(1);
    if (!d.ok) throw new Error('deal 1');
    const deal = formatDeal(d.value);
    for (const g of faceDownArrangements(deal).slice(1)) {
      const a = deal.split(' ');
      const b = g.split(' ');
      for (const i of [...FACE_UP, ...STOCK]) expect(b[i]).toBe(a[i]);
      expect([...b].sort()).toEqual([...a].sort());
    }
    for (const g of stockArrangements(deal)) {
      const a = deal.split(' ');
      const b = g.split(' ');
      for (let i = 0; i < 28; i++) expect(b[i]).toBe(a[i]);
    }
  });
});
