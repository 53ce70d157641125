/**
 * The daily challenge end to end, with an injected server clock, on PGlite and on Postgres: two players get
 * the same deal; ranked rules and ownership; WS auth and live leaderboard frames; one ranked attempt and one
 * leaderboard row per player even under 50 concurrent requests; nothing reveals an open day's deal, deal
 * number or line; day rollover (reveal, replays, unfinished attempts, late moves); streaks over several days;
 * every stored daily's line replays to a win with par = its length.
 */
import {
  AllTimeLeaderboardSchema,
  DailyArchiveSchema,
  DailyRevealSchema,
  DailyTodaySchema,
  ErrorBodySchema,
  GameResponseSchema,
  LeaderboardSchema,
  LegalMovesResponseSchema,
  MeSchema,
  MoveSchema,
  PlayerCreatedSchema,
  PlayerPageSchema,
  ReplaySchema,
  StateResponseSchema,
  type ServerFrame,
} from '@klondike/protocol';
import {
  CARD_CODES,
  PRESETS,
  applyMove,
  formatDeal,
  isWon,
  newGame,
  parseDeal,
  type Move,
} from '@klondike/rules';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MINIMAL_NODES_PER_MS,
  PAR_MAX_NODES,
  candidateDeal,
  parNodes,
} from '../../../src/features/daily/generate.js';
import { WsClient, describeEachDatabase, leakedCards, testApp, wsUrl } from '../../support/helpers.js';

const SECRET = 'test-daily-secret-0123456789abcdef';
const DAY1 = '2025-03-10';
const DAY2 = '2025-03-11';
const DAY3 = '2025-03-12';
const DAY4 = '2025-03-13';
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);

type Game = ReturnType<typeof GameResponseSchema.parse>;
type Player = ReturnType<typeof PlayerCreatedSchema.parse>;
type ErrorFrame = Extract<ServerFrame, { type: 'error' }>;
const isError = (f: ServerFrame): f is ErrorFrame => f.type === 'error';

function replaysToWin(
  dealText: string,
  preset: 'classic-draw1' | 'classic-draw3',
  line: readonly Move[],
): boolean {
  const deal = parseDeal(dealText);
  if (!deal.ok) return false;
  let s = newGame(deal.value, PRESETS[preset]);
  for (const m of line) {
    const r = applyMove(s, m);
    if (!r.ok) return false;
    s = r.value;
  }
  return isWon(s);
}

describeEachDatabase('daily challenge', (db) => {
  let clock = at(DAY1);
  let app: FastifyInstance;
  const clients: WsClient[] = [];
  /** Every response body and frame while DAY1 is open (the secrecy audit). */
  const texts: string[] = [];
  /** Response bodies seen by carol, who never plays DAY1 (she must see no card at all). */
  const carolTexts: string[] = [];
  let recording = true;
  const players: Record<string, Player> = {};
  const games: Record<string, Game> = {};

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock, config: { dailyArchiveDays: 2, dailySecret: SECRET } });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  async function call(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    opts: { as?: string; token?: string; payload?: object } = {},
  ): Promise<LightMyRequestResponse> {
    const token = opts.token ?? (opts.as !== undefined ? players[opts.as]?.token : undefined);
    const r = await app.inject({
      method,
      url,
      ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
    if (recording) {
      texts.push(r.body);
      if (opts.as === 'carol') carolTexts.push(r.body);
    }
    return r;
  }
  function expectError(r: LightMyRequestResponse, status: number, code: string): string {
    expect(r.statusCode, r.body).toBe(status);
    const body = ErrorBodySchema.parse(r.json());
    expect(body.error.code).toBe(code);
    return body.error.message;
  }
  async function client(as?: string): Promise<WsClient> {
    const c = await WsClient.connect(wsUrl(app));
    clients.push(c);
    if (as !== undefined) {
      const f = await c.request({ type: 'auth', token: players[as]?.token }, (x) => x.type !== 'pong');
      expect(f).toMatchObject({ type: 'authed', playerId: players[as]?.id, name: players[as]?.name });
    }
    return c;
  }
  async function daily(date: string, preset: string) {
    return app.prisma.dailyDeal.findUniqueOrThrow({ where: { date_preset: { date, preset } } });
  }
  async function line(date: string, preset: string): Promise<Move[]> {
    return MoveSchema.array().parse((await daily(date, preset)).line);
  }
  /** Plays moves over REST as `as`, one server second apart; returns the last state. */
  async function play(gameId: string, as: string, moves: readonly Move[], version: number) {
    let v = version;
    let last: ReturnType<typeof StateResponseSchema.parse> | undefined;
    for (const move of moves) {
      clock += 1000;
      const r = await call('POST', `/api/games/${gameId}/moves`, { as, payload: { move, version: v } });
      expect(r.statusCode, r.body).toBe(200);
      last = StateResponseSchema.parse(r.json());
      v = last.version;
    }
    return last;
  }

  it('players are created (201, token once) for the scenario', async () => {
    // The day before: accounts created on a daily's own date are provisional on its leaderboard.
    const today = clock;
    clock = at('2025-03-09');
    for (const name of ['Alice', 'Bob', 'Carol', 'Dave', 'Erin']) {
      const r = await call('POST', '/api/players', { payload: { name } });
      expect(r.statusCode, r.body).toBe(201);
      players[name.toLowerCase()] = PlayerCreatedSchema.parse(r.json());
    }
    clock = today;
  });

  it("GET /api/daily: today's two challenges with public fields only; tomorrow stored but 404; bad dates 400/404", async () => {
    const first = await call('GET', '/api/daily', { as: 'carol' });
    expect(first.statusCode, first.body).toBe(200);
    // Today is served as soon as it is certified; tomorrow and the pars' refinement follow in the background.
    await app.daily.tick();
    const r = await call('GET', '/api/daily', { as: 'carol' });
    expect(r.statusCode, r.body).toBe(200);
    const today = DailyTodaySchema.parse(r.json());
    expect(today.date).toBe(DAY1);
    expect(today.nextAt).toBe(`${DAY2}T00:00:00.000Z`);
    expect(today.now).toBe(new Date(clock).toISOString());
    expect(today.challenges.map((c) => c.preset).sort()).toEqual(['classic-draw1', 'classic-draw3']);
    for (const c of today.challenges) {
      expect(c).toMatchObject({ date: DAY1, closed: false, players: 0, you: null });
      expect(c.closesAt).toBe(`${DAY2}T00:00:00.000Z`);
      expect(c.par).toBe((await line(DAY1, c.preset)).length);
      // Par from the minimal search: proven exactly when the stored lower bound meets it, never above it.
      const row = await daily(DAY1, c.preset);
      expect(c.parProven).toBe(row.parProven);
      expect(row.parLowerBound).not.toBeNull();
      expect(row.parLowerBound ?? Infinity).toBeLessThanOrEqual(row.par);
      expect(row.parLowerBound ?? 0).toBeGreaterThanOrEqual(52); // every card needs its foundation move
      expect(row.parProven).toBe(row.parLowerBound === row.par);
    }
    // Tomorrow is stored before it opens, and invisible.
    for (const preset of ['classic-draw1', 'classic-draw3'])
      expect((await daily(DAY2, preset)).par).toBeGreaterThan(0);
    expectError(await call('GET', `/api/daily/${DAY2}/classic-draw1`), 404, 'not-found');
    expectError(await call('GET', `/api/daily/${DAY2}/classic-draw1/leaderboard`), 404, 'not-found');
    expectError(
      await call('POST', `/api/daily/${DAY2}/classic-draw1/attempt`, { as: 'carol' }),
      404,
      'not-found',
    );
    expectError(
      await call('POST', `/api/daily/${DAY2}/classic-draw1/practice`, { as: 'carol' }),
      404,
      'not-found',
    );
    expectError(await call('GET', '/api/daily/2020-01-01/classic-draw1'), 404, 'not-found');
    expectError(await call('GET', '/api/daily/2025-02-30/classic-draw1'), 404, 'not-found');
    expectError(await call('GET', `/api/daily/${DAY1}/bicycle`), 400, 'bad-request');
    expectError(await call('GET', '/api/daily/10-03-2025/classic-draw1'), 400, 'bad-request');
    // The open day's reveal is refused.
    expectError(await call('GET', `/api/daily/${DAY1}/classic-draw1`, { as: 'carol' }), 403, 'forbidden');
  });

  it('two players get the same deal; ranked rules (undo and hints off); one attempt each (409); 401 without token', async () => {
    const a = await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`, { as: 'alice' });
    expect(a.statusCode, a.body).toBe(201);
    const b = await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`, { as: 'bob' });
    expect(b.statusCode, b.body).toBe(201);
    games.alice = GameResponseSchema.parse(a.json());
    games.bob = GameResponseSchema.parse(b.json());
    expect(games.alice.id).not.toBe(games.bob.id);
    expect(games.alice.view.tableau).toEqual(games.bob.view.tableau);
    expect(games.alice.view.options).toEqual({ ...PRESETS['classic-draw1'], undo: false, hints: false });
    expect(games.alice).toMatchObject({ version: 0, dealNumber: null, preset: null });
    const again = expectError(
      await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`, { as: 'alice' }),
      409,
      'conflict',
    );
    expect(again).toMatch(/already started your ranked attempt/);
    expectError(await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`), 401, 'unauthorized');
    expectError(
      await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`, { token: 'not-a-real-token' }),
      401,
      'unknown-token',
    );
    const mine = DailyTodaySchema.parse((await call('GET', '/api/daily', { as: 'alice' })).json());
    const c = mine.challenges.find((x) => x.preset === 'classic-draw1');
    expect(c?.players).toBe(2);
    expect(c?.you).toMatchObject({
      gameId: games.alice.id,
      status: 'playing',
      rank: null,
      moves: 0,
      timeMs: 0,
    });
    expect(mine.challenges.find((x) => x.preset === 'classic-draw3')?.you).toBeNull();
  });

  it('a ranked game of an open day: only its owner reads (401/403 others) and plays it; undo 422, hint 403', async () => {
    const id = games.alice?.id ?? '';
    expectError(await call('GET', `/api/games/${id}`), 401, 'unauthorized');
    expectError(await call('GET', `/api/games/${id}`, { as: 'bob' }), 403, 'forbidden');
    expect((await call('GET', `/api/games/${id}`, { as: 'alice' })).statusCode).toBe(200);
    expectError(await call('GET', `/api/games/${id}/legal-moves`, { as: 'bob' }), 403, 'forbidden');
    expectError(await call('GET', `/api/games/${id}/legal-moves`), 401, 'unauthorized');
    const legal = LegalMovesResponseSchema.parse(
      (await call('GET', `/api/games/${id}/legal-moves`, { as: 'alice' })).json(),
    );
    expect(legal.moves.length).toBeGreaterThan(0);
    expectError(await call('GET', `/api/games/${id}/hint`, { as: 'bob' }), 403, 'forbidden');
    expect(
      expectError(await call('GET', `/api/games/${id}/hint`, { as: 'alice' }), 403, 'forbidden'),
    ).toMatch(/hints are turned off/);
    const draw = { move: { type: 'draw' }, version: 0 };
    expectError(await call('POST', `/api/games/${id}/moves`, { payload: draw }), 401, 'unauthorized');
    expectError(await call('POST', `/api/games/${id}/moves`, { as: 'bob', payload: draw }), 403, 'forbidden');
    expectError(await call('POST', `/api/games/${id}/resign`, { as: 'bob', payload: {} }), 403, 'forbidden');
    expectError(await call('POST', `/api/games/${id}/undo`, { payload: {} }), 401, 'unauthorized');
    const undo = await call('POST', `/api/games/${id}/undo`, { as: 'alice', payload: {} });
    expectError(undo, 422, 'illegal-move');
    expect(ErrorBodySchema.parse(undo.json()).error.reason).toBe('undo-off');
    expectError(await call('GET', `/api/games/${id}/deal`, { as: 'alice' }), 403, 'forbidden');
    expectError(await call('GET', `/api/games/${id}/replay`, { as: 'alice' }), 403, 'forbidden');
    // Practice on the open day: refused to everyone until the day has closed.
    expectError(
      await call('POST', `/api/daily/${DAY1}/classic-draw1/practice`, { as: 'alice' }),
      403,
      'forbidden',
    );
    expectError(await call('POST', `/api/daily/${DAY1}/classic-draw1/practice`), 403, 'forbidden');
    expect((await app.prisma.game.findUniqueOrThrow({ where: { id } })).version).toBe(0);
  });

  it('WS: auth → authed; owner-only subscribe; live leaderboard frames; the winning move writes the row', async () => {
    const carol = await client('carol');
    const watch = await carol.request(
      { type: 'watch-leaderboard', date: DAY1, preset: 'classic-draw1' },
      (f) => f.type === 'leaderboard' || isError(f),
    );
    expect(watch).toEqual({ type: 'leaderboard', date: DAY1, preset: 'classic-draw1', total: 0 });
    const future = await carol.request(
      { type: 'watch-leaderboard', date: DAY2, preset: 'classic-draw1' },
      isError,
    );
    expect(future).toMatchObject({ code: 'not-found' });

    const id = games.alice?.id ?? '';
    const anon = await client();
    expect(await anon.request({ type: 'subscribe', gameId: id }, isError)).toMatchObject({
      code: 'unauthorized',
      gameId: id,
    });
    expect(await anon.request({ type: 'auth', token: 'wrong' }, isError)).toMatchObject({
      code: 'unknown-token',
    });
    const bob = await client('bob');
    expect(await bob.request({ type: 'subscribe', gameId: id }, isError)).toMatchObject({
      code: 'forbidden',
    });
    const moveFrame = { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 };
    expect(await bob.request(moveFrame, isError)).toMatchObject({ code: 'not-subscribed' });

    const alice = await client('alice');
    const sub = await alice.request(
      { type: 'subscribe', gameId: id },
      (f) => f.type === 'state' || isError(f),
    );
    expect(sub).toMatchObject({ type: 'state', gameId: id, version: 0 });
    const moves = await line(DAY1, 'classic-draw1');
    // The first ten moves over the socket, the rest over REST.
    for (let i = 0; i < 10; i++) {
      clock += 1000;
      const f = await alice.request(
        { type: 'move', gameId: id, move: moves[i], version: i, requestId: `m${i}` },
        (x) => (x.type === 'state' && x.requestId === `m${i}`) || isError(x),
      );
      expect(f).toMatchObject({ type: 'state', version: i + 1 });
    }
    const end = await play(id, 'alice', moves.slice(10), 10);
    expect(end?.view.status).toBe('won');
    const frame = await carol.waitFor((f) => f.type === 'leaderboard' && f.total === 1);
    expect(frame).toEqual({ type: 'leaderboard', date: DAY1, preset: 'classic-draw1', total: 1 });
    const row = await app.prisma.dailyResult.findUniqueOrThrow({ where: { gameId: id } });
    expect(row).toMatchObject({ status: 'won', won: true, moves: moves.length, score: end?.view.score });
    // The clock started when the attempt was created (the cards were shown), one second before move 1.
    expect(row.timeMs).toBe(moves.length * 1000);
    expect(end?.view.elapsedMs).toBe(row.timeMs);
    // The attempt is over: no more actions.
    expectError(await call('POST', `/api/games/${id}/resign`, { as: 'alice', payload: {} }), 409, 'conflict');
    for (const c of [carol, anon, bob, alice]) texts.push(...c.texts);
    carolTexts.push(...carol.texts);
  });

  it('leaderboard order and pages, around=me, me; no practice while open; player pages and all-time', async () => {
    const bobGame = games.bob?.id ?? '';
    clock += 5000;
    expect((await call('POST', `/api/games/${bobGame}/resign`, { as: 'bob', payload: {} })).statusCode).toBe(
      200,
    );
    const url = `/api/daily/${DAY1}/classic-draw1/leaderboard`;
    const lb = LeaderboardSchema.parse((await call('GET', url, { as: 'carol' })).json());
    expect(lb).toMatchObject({
      date: DAY1,
      preset: 'classic-draw1',
      total: 2,
      offset: 0,
      limit: 20,
      me: null,
    });
    // Rows can show their moves against par: the board carries the daily's par.
    const stored1 = await daily(DAY1, 'classic-draw1');
    expect(lb).toMatchObject({ par: stored1.par, parProven: stored1.parProven });
    expect(lb.entries.map((e) => [e.rank, e.name, e.status])).toEqual([
      [1, 'Alice', 'won'],
      [2, 'Bob', 'resigned'],
    ]);
    expect(lb.entries[0]?.gameId).toBe(games.alice?.id);
    const page2 = LeaderboardSchema.parse((await call('GET', `${url}?offset=1&limit=1`)).json());
    expect(page2.entries.map((e) => e.name)).toEqual(['Bob']);
    expect(page2.entries[0]?.rank).toBe(2);
    const around = LeaderboardSchema.parse(
      (await call('GET', `${url}?around=me&limit=1`, { as: 'bob' })).json(),
    );
    expect(around.offset).toBe(1);
    expect(around.entries.map((e) => e.name)).toEqual(['Bob']);
    expect(around.me).toMatchObject({ rank: 2, playerId: players.bob?.id, status: 'resigned' });
    expectError(await call('GET', `${url}?around=me`), 401, 'unauthorized');
    expectError(await call('GET', `${url}?limit=0`), 400, 'bad-request');
    expectError(await call('GET', `${url}?limit=101`), 400, 'bad-request');
    expectError(await call('GET', `${url}?around=you`), 400, 'bad-request');

    // No practice on the open day, even after the ranked attempt has ended (a second account would preview it).
    expectError(
      await call('POST', `/api/daily/${DAY1}/classic-draw1/practice`, { as: 'alice' }),
      403,
      'forbidden',
    );
    expect(await app.prisma.dailyResult.count({ where: { playerId: players.alice?.id } })).toBe(1);

    const page = PlayerPageSchema.parse(
      (await call('GET', `/api/players/${players.alice?.id}`, { as: 'carol' })).json(),
    );
    expect(page.stats).toMatchObject({ played: 1, wins: 1, winRate: 1, currentStreak: 1, bestStreak: 1 });
    expect(page.stats.bestTimeMs['classic-draw1']).toBe(lb.entries[0]?.timeMs);
    expect(page.stats.bestTimeMs['classic-draw3']).toBeNull();
    expect(page.recent).toEqual([
      expect.objectContaining({
        date: DAY1,
        preset: 'classic-draw1',
        status: 'won',
        rank: 1,
        gameId: games.alice?.id,
      }),
    ]);
    const me = MeSchema.parse((await call('GET', '/api/me', { as: 'bob' })).json());
    expect(me.stats).toMatchObject({ played: 1, wins: 0, winRate: 0, currentStreak: 0 });
    const all = AllTimeLeaderboardSchema.parse(
      (await call('GET', '/api/leaderboard', { as: 'carol' })).json(),
    );
    expect(all.entries.map((e) => [e.rank, e.name, e.wins])).toEqual([
      [1, 'Alice', 1],
      [2, 'Bob', 0],
    ]);
    const today = DailyTodaySchema.parse((await call('GET', '/api/daily', { as: 'alice' })).json());
    expect(today.challenges.find((c) => c.preset === 'classic-draw1')?.you).toMatchObject({
      status: 'won',
      rank: 1,
    });
  });

  it('50 concurrent attempts by one player: one 201, 49 × 409; ending it concurrently: exactly one row', async () => {
    const url = `/api/daily/${DAY1}/classic-draw3/attempt`;
    const rs = await Promise.all(Array.from({ length: 50 }, () => call('POST', url, { as: 'dave' })));
    const codes = rs.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const r of rs)
      if (r.statusCode === 409) expect(ErrorBodySchema.parse(r.json()).error.code).toBe('conflict');
    const dave = players.dave?.id ?? '';
    expect(await app.prisma.game.count({ where: { playerId: dave, ranked: true } })).toBe(1);
    expect(await app.prisma.dailyAttempt.count({ where: { playerId: dave } })).toBe(1);
    const created = rs.find((r) => r.statusCode === 201);
    const id = GameResponseSchema.parse(created?.json()).id;
    clock += 1000;
    await play(id, 'dave', [{ type: 'draw' }], 0);
    clock += 1000;
    const ends = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', `/api/games/${id}/${i % 2 === 0 ? 'resign' : 'moves'}`, {
          as: 'dave',
          payload: i % 2 === 0 ? {} : { move: { type: 'draw' }, version: 1 },
        }),
      ),
    );
    const ok = ends.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(
      ends.filter(
        (r) => r.statusCode === 200 && r.json<{ view: { status: string } }>().view.status === 'resigned',
      ),
    ).toHaveLength(1);
    for (const r of ends) if (r.statusCode !== 200) expect([409, 422]).toContain(r.statusCode);
    expect(await app.prisma.dailyResult.count({ where: { playerId: dave } })).toBe(1);
    const row = await app.prisma.dailyResult.findFirstOrThrow({ where: { playerId: dave } });
    expect(row.status).toBe('resigned');
  });

  it("no response and no frame while the day is open holds the day's deal, deal number or line", async () => {
    // Every remaining read a client could make, as the players and anonymously.
    for (const as of ['alice', 'bob', 'carol', undefined]) {
      const opts = as !== undefined ? { as } : {};
      await call('GET', '/api/daily', opts);
      await call('GET', '/api/daily/archive', opts);
      await call('GET', '/api/leaderboard', opts);
      for (const preset of ['classic-draw1', 'classic-draw3']) {
        await call('GET', `/api/daily/${DAY1}/${preset}`, opts);
        await call('GET', `/api/daily/${DAY1}/${preset}/leaderboard`, opts);
        await call('GET', `/api/daily/${DAY1}/${preset}/leaderboard?around=me`, opts);
      }
      for (const p of Object.values(players)) await call('GET', `/api/players/${p.id}`, opts);
      if (as !== undefined) await call('GET', '/api/me', opts);
      for (const g of Object.values(games)) {
        await call('GET', `/api/games/${g.id}`, opts);
        await call('GET', `/api/games/${g.id}/replay`, opts);
        await call('GET', `/api/games/${g.id}/deal`, opts);
      }
    }
    const carolWs = await client('carol');
    await carolWs.request(
      { type: 'watch-leaderboard', date: DAY1, preset: 'classic-draw3' },
      (f) => f.type === 'leaderboard',
    );
    texts.push(...carolWs.texts);
    carolTexts.push(...carolWs.texts);
    expect(texts.length).toBeGreaterThan(200);
    for (const preset of ['classic-draw1', 'classic-draw3']) {
      const d = await daily(DAY1, preset);
      const key = d.dealKey ?? '';
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      const keyB64 = Buffer.from(key, 'hex').toString('base64');
      const lineText = JSON.stringify(d.line);
      for (const t of texts) {
        expect(t.includes(d.deal)).toBe(false);
        expect(t.includes(key) || t.includes(keyB64), `deal key in ${t.slice(0, 200)}`).toBe(false);
        expect(/"dealNumber":\s*[0-9]/.test(t), `a deal number in ${t.slice(0, 200)}`).toBe(false);
        expect(/candidate|seed|dealKey|dealHash/i.test(t), `a deal identifier in ${t.slice(0, 200)}`).toBe(
          false,
        );
        expect(t.includes(lineText)).toBe(false);
        expect(t.includes(SECRET)).toBe(false);
      }
    }
    // Carol never played DAY1: not one card of it reached her.
    for (const t of carolTexts) expect(leakedCards(t, CARD_CODES)).toEqual([]);
    recording = false;
  });

  it('day rollover: the old deal becomes public (reveal, replays, deal), unfinished attempts are settled, late moves 409', async () => {
    const erin = GameResponseSchema.parse(
      (await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`, { as: 'erin' })).json(),
    );
    clock += 1000;
    await play(erin.id, 'erin', [{ type: 'draw' }], 0);
    const carol = await client('carol');
    await carol.request(
      { type: 'watch-leaderboard', date: DAY1, preset: 'classic-draw1' },
      (f) => f.type === 'leaderboard',
    );

    clock = at(DAY2, '00:00:05.000');
    const late = expectError(
      await call('POST', `/api/games/${erin.id}/moves`, {
        as: 'erin',
        payload: { move: { type: 'draw' }, version: 1 },
      }),
      409,
      'conflict',
    );
    expect(late).toMatch(/day has closed/);
    const today = DailyTodaySchema.parse((await call('GET', '/api/daily')).json());
    expect(today.date).toBe(DAY2);
    expect(today.challenges.every((c) => !c.closed && c.players === 0)).toBe(true);
    await app.daily.tick(); // the new day's schedule: tomorrow stored, closed days settled, pars refined
    expect(await app.prisma.dailyDeal.count({ where: { date: DAY3 } })).toBe(2);
    const row = await app.prisma.dailyResult.findUniqueOrThrow({ where: { gameId: erin.id } });
    const started =
      (await app.prisma.game.findUniqueOrThrow({ where: { id: erin.id } })).startedAt?.getTime() ?? 0;
    expect(row).toMatchObject({ status: 'unfinished', won: false, moves: 1 });
    expect(row.timeMs).toBe(at(DAY2, '00:00:00.000') - started);
    expect(await carol.waitFor((f) => f.type === 'leaderboard' && f.total === 3)).toMatchObject({ total: 3 });
    const erinView = GameResponseSchema.parse((await call('GET', `/api/games/${erin.id}`)).json());
    expect(erinView.view.elapsedMs).toBe(row.timeMs);
    expect((await call('GET', `/api/games/${erin.id}/legal-moves`)).json()).toMatchObject({ moves: [] });

    const reveal = DailyRevealSchema.parse((await call('GET', `/api/daily/${DAY1}/classic-draw1`)).json());
    const stored = await daily(DAY1, 'classic-draw1');
    expect(reveal).toMatchObject({
      date: DAY1,
      preset: 'classic-draw1',
      deal: stored.deal,
      par: stored.par,
      parProven: stored.parProven,
      parLowerBound: stored.parLowerBound,
    });
    expect(reveal.line).toHaveLength(reveal.par);
    expect(replaysToWin(reveal.deal, 'classic-draw1', reveal.line)).toBe(true);

    const aliceId = games.alice?.id ?? '';
    const replay = ReplaySchema.parse((await call('GET', `/api/games/${aliceId}/replay`)).json());
    expect(replay).toMatchObject({
      id: aliceId,
      deal: stored.deal,
      player: { id: players.alice?.id, name: 'Alice' },
    });
    expect(replay.options).toMatchObject({ undo: false, hints: false });
    expect(replay.steps.map((s) => s.move)).toEqual(reveal.line);
    expect(replay.steps.map((s) => s.atMs)).toEqual(reveal.line.map((_, i) => i * 1000));
    // Practice opens once the day has closed: the same deal, the preset's own options, owned by the player.
    const p = await call('POST', `/api/daily/${DAY1}/classic-draw1/practice`, { as: 'alice' });
    expect(p.statusCode, p.body).toBe(201);
    games.practice = GameResponseSchema.parse(p.json());
    expect(games.practice).toMatchObject({ preset: 'classic-draw1', dealNumber: null, version: 0 });
    expect(games.practice.view.options).toEqual(PRESETS['classic-draw1']);
    expect(games.practice.view.tableau).toEqual(games.bob?.view.tableau);
    expectError(
      await call('POST', `/api/games/${games.practice.id}/moves`, {
        as: 'bob',
        payload: { move: { type: 'draw' }, version: 0 },
      }),
      403,
      'forbidden',
    );
    const pr = await call('POST', `/api/games/${games.practice.id}/resign`, { as: 'alice', payload: {} });
    expect(pr.statusCode).toBe(200);
    const practice = ReplaySchema.parse((await call('GET', `/api/games/${games.practice.id}/replay`)).json());
    expect(practice.steps.map((s) => s.type)).toEqual(['resign']);
    expect((await call('GET', `/api/games/${aliceId}`, { as: 'bob' })).statusCode).toBe(200);
    expect((await call('GET', `/api/games/${aliceId}/deal`)).json()).toMatchObject({ deal: stored.deal });

    const lb = LeaderboardSchema.parse(
      (await call('GET', `/api/daily/${DAY1}/classic-draw1/leaderboard`)).json(),
    );
    expect(lb.entries.map((e) => [e.name, e.status])).toEqual([
      ['Alice', 'won'],
      ['Bob', 'resigned'],
      ['Erin', 'unfinished'],
    ]);
    expectError(
      await call('POST', `/api/daily/${DAY1}/classic-draw1/attempt`, { as: 'carol' }),
      409,
      'conflict',
    );
    const anonPractice = await call('POST', `/api/daily/${DAY1}/classic-draw3/practice`);
    expect(anonPractice.statusCode).toBe(201);
    const anonGame = GameResponseSchema.parse(anonPractice.json());
    expect(
      (
        await call('POST', `/api/games/${anonGame.id}/moves`, {
          payload: { move: { type: 'draw' }, version: 0 },
        })
      ).statusCode,
    ).toBe(200);

    // The archive lists what is stored and fills the rest in the background (never awaited): it says how
    // many days are still pending until they are all there.
    let archive = DailyArchiveSchema.parse((await call('GET', '/api/daily/archive', { as: 'alice' })).json());
    for (let i = 0; archive.pending > 0 && i < 600; i++) {
      expect(archive.days.length + archive.pending).toBe(4);
      await new Promise((r) => setTimeout(r, 50));
      archive = DailyArchiveSchema.parse((await call('GET', '/api/daily/archive', { as: 'alice' })).json());
    }
    expect(archive.pending).toBe(0);
    expect(archive.days.map((d) => `${d.date} ${d.preset}`)).toEqual([
      `${DAY1} classic-draw1`,
      `${DAY1} classic-draw3`,
      '2025-03-09 classic-draw1',
      '2025-03-09 classic-draw3',
    ]);
    expect(archive.days[0]).toMatchObject({ closed: true, players: 3, you: { status: 'won', rank: 1 } });
  });

  it('streaks: won, won, missed day → reset; best times per preset; all-time leaderboard', async () => {
    const win = async (date: string, preset: 'classic-draw1' | 'classic-draw3') => {
      const g = GameResponseSchema.parse(
        (await call('POST', `/api/daily/${date}/${preset}/attempt`, { as: 'alice' })).json(),
      );
      const end = await play(g.id, 'alice', await line(date, preset), 0);
      expect(end?.view.status).toBe('won');
    };
    const stats = async () =>
      PlayerPageSchema.parse((await call('GET', `/api/players/${players.alice?.id}`)).json()).stats;
    await win(DAY2, 'classic-draw1');
    expect(await stats()).toMatchObject({ wins: 2, currentStreak: 2, bestStreak: 2 });
    clock = at(DAY3, '08:00:00.000');
    expect(await stats()).toMatchObject({ currentStreak: 2, bestStreak: 2 }); // today not played yet
    clock = at(DAY4, '08:00:00.000');
    expect(await stats()).toMatchObject({ currentStreak: 0, bestStreak: 2 }); // DAY3 missed
    await win(DAY4, 'classic-draw3');
    const s = await stats();
    expect(s).toMatchObject({ played: 3, wins: 3, winRate: 1, currentStreak: 1, bestStreak: 2 });
    expect(s.bestTimeMs['classic-draw3']).toBe((await line(DAY4, 'classic-draw3')).length * 1000);
    const all = AllTimeLeaderboardSchema.parse((await call('GET', '/api/leaderboard')).json());
    expect(all.entries[0]).toMatchObject({
      rank: 1,
      name: 'Alice',
      wins: 3,
      currentStreak: 1,
      bestStreak: 2,
    });
    // Ties (one attempt, no win) keep a stable order by player id.
    expect(
      all.entries
        .slice(1)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['Bob', 'Dave', 'Erin']);
    expect(all.entries.map((e) => e.rank)).toEqual([1, 2, 3, 4]);
  });

  it("every stored daily's line replays to a win, par = its length, deal = its HMAC candidate's deal", async () => {
    await app.daily.tick();
    const rows = await app.prisma.dailyDeal.findMany({ orderBy: [{ date: 'asc' }, { preset: 'asc' }] });
    const dates = [...new Set(rows.map((r) => r.date))];
    // Archive (2 days before DAY1 … DAY4), every day played, and tomorrow.
    expect(dates).toEqual(['2025-03-08', '2025-03-09', DAY1, DAY2, DAY3, DAY4, '2025-03-14']);
    expect(rows).toHaveLength(dates.length * 2);
    for (const r of rows) {
      const preset = r.preset as 'classic-draw1' | 'classic-draw3';
      const moves = MoveSchema.array().parse(r.line);
      expect(r.par).toBe(moves.length);
      expect(replaysToWin(r.deal, preset, moves), `${r.date} ${r.preset}`).toBe(true);
      const candidate = candidateDeal(SECRET, r.date, preset, r.candidate);
      expect(r.dealNumber).toBeNull();
      expect(r.dealKey).toBe(candidate.key);
      expect(formatDeal(candidate.deal)).toBe(r.deal);
    }
  });
});

describe("the par proof's node budget (parNodes)", () => {
  it('stays per ms up to 300 ms (tests), grows with the cube above it, up to its cap', () => {
    expect(parNodes(300)).toBe(300 * MINIMAL_NODES_PER_MS);
    expect(parNodes(100)).toBe(100 * MINIMAL_NODES_PER_MS);
    expect(parNodes(600)).toBe(4 * 600 * MINIMAL_NODES_PER_MS);
    expect(parNodes(3000)).toBe(PAR_MAX_NODES); // the default DAILY_SOLVE_MS
    expect(parNodes(20_000)).toBe(PAR_MAX_NODES);
  });
});
