/**
 * Fair play (docs/features.md "Fair play", "Ranked rules"): competitive deals come from 256-bit keys (deal algorithm
 * v2) and nothing that identifies a hidden deal leaves the server.
 *
 * - v2 deals of dailies and races are none of the v1 deals 1…10^6 (a cheap sanity check, not a proof);
 *   days and presets differ; the same secret reproduces a day, another does not.
 * - A leak scan over every REST response, WebSocket frame and error of a random casual game, a random race
 *   (both racers and a spectator, lobby to results) and a daily attempt (start to end, day open) finds no
 *   deal key, keyed hash, deal number, candidate index or seed, and no card hidden from its receiver.
 * - The deal embargo: POST /api/games, POST /api/solve, sameDealAs and hints refuse an open daily's or a
 *   live race's deal with 403 `deal-embargoed`, and allow it once the day closed / the race finished.
 * - A ranked attempt's clock starts at its creation; practice of today's daily opens at close; fair-play
 *   signals are owner-only after close; accounts created on the daily's date are provisional.
 */
import {
  ErrorBodySchema,
  FairPlaySignalsSchema,
  GameResponseSchema,
  LeaderboardSchema,
  LegalMovesResponseSchema,
  MoveSchema,
  RaceResultsSchema,
  type ServerFrame,
  SolveResponseSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import { type Deal, dealFromNumber, formatDeal, hiddenCards, type Move } from '@klondike/rules';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DailyPreset, candidateDeal } from '../../../src/features/daily/generate.js';
import { randomKeyedDeal } from '../../../src/core/rooms/keyed-deals.js';
import { WsClient, describeEachDatabase, leakedCards, testApp, wsUrl } from '../../support/helpers.js';
import {
  type RaceFrame,
  type TestPlayer,
  isRace,
  newPlayer,
  raceOf,
  raceSocket,
  subscribeGame,
} from '../../support/race-helpers.js';

const SECRET = 'fair-play-test-secret-0123456789';
const DAY = '2025-06-10';
const NEXT_DAY = '2025-06-11';
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);

/** A deal as a compact key (one character per card) for set look-ups. */
const compact = (deal: Deal): string => String.fromCharCode(...deal.map((c) => 48 + c));

describe('deal algorithm v2 for dailies and races', () => {
  it('daily and race deals are none of the v1 deals of the numbers 1…10^6 (sanity check)', () => {
    const v2 = new Set<string>();
    for (const date of [DAY, NEXT_DAY])
      for (const preset of ['classic-draw1', 'classic-draw3'] as const)
        for (let k = 0; k < 3; k++) v2.add(compact(candidateDeal(SECRET, date, preset, k).deal));
    for (let i = 0; i < 8; i++) v2.add(compact(randomKeyedDeal().deal));
    expect(v2.size).toBe(20);
    let checked = 0;
    for (let n = 1; n <= 1_000_000; n++) {
      const d = dealFromNumber(n);
      if (!d.ok) throw new Error(`deal ${n}`);
      if (v2.has(compact(d.value))) throw new Error(`v1 deal ${n} equals a v2 deal`);
      checked++;
    }
    expect(checked).toBe(1_000_000);
  }, 120_000);

  it('two days and two presets differ; the same secret reproduces a day; another secret does not', () => {
    const deal = (secret: string, date: string, preset: DailyPreset): string =>
      formatDeal(candidateDeal(secret, date, preset, 0).deal);
    const a = deal(SECRET, DAY, 'classic-draw1');
    expect(deal(SECRET, DAY, 'classic-draw1')).toBe(a);
    expect(candidateDeal(SECRET, DAY, 'classic-draw1', 0).key).toMatch(/^[0-9a-f]{64}$/);
    expect(deal(SECRET, NEXT_DAY, 'classic-draw1')).not.toBe(a);
    expect(deal(SECRET, DAY, 'classic-draw3')).not.toBe(a);
    expect(formatDeal(candidateDeal(SECRET, DAY, 'classic-draw1', 1).deal)).not.toBe(a);
    expect(deal(`${SECRET}x`, DAY, 'classic-draw1')).not.toBe(a);
  });
});

describeEachDatabase('fair play', (db) => {
  /** Server clock = real time + offset: starts at DAY 12:00 UTC; tests move it forward. */
  let offset = 0;
  let app: FastifyInstance;
  const clients: WsClient[] = [];
  let alice: TestPlayer;
  let bob: TestPlayer;
  /** Every log line the server wrote (level info and up). */
  const logs: string[] = [];
  /** Race codes of the suite (their deals must never be logged). */
  const raceCodes: string[] = [];

  beforeAll(async () => {
    offset = at(DAY) - Date.now();
    app = await testApp(db, {
      now: () => Date.now() + offset,
      logStream: { write: (line) => void logs.push(line) },
      config: { dailySecret: SECRET, raceCountdownMs: 50, logLevel: 'info' },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    offset -= 86_400_000; // accounts made the day before: established, not provisional
    alice = await newPlayer(app, 'alice');
    bob = await newPlayer(app, 'bob');
    offset += 86_400_000;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  async function call(
    method: 'GET' | 'POST',
    url: string,
    opts: { as?: TestPlayer; payload?: object; record?: string[] } = {},
  ): Promise<LightMyRequestResponse> {
    const r = await app.inject({
      method,
      url,
      ...(opts.as ? { headers: { authorization: `Bearer ${opts.as.token}` } } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
    opts.record?.push(r.body);
    return r;
  }
  function expectError(r: LightMyRequestResponse, status: number, code: string): void {
    expect(r.statusCode, r.body).toBe(status);
    expect(ErrorBodySchema.parse(r.json()).error.code).toBe(code);
  }
  async function socket(as?: TestPlayer): Promise<WsClient> {
    const c = await WsClient.connect(wsUrl(app));
    clients.push(c);
    if (as) await c.request({ type: 'auth', token: as.token }, (f) => f.type === 'authed');
    return c;
  }
  /** What identifies a deal, as it could appear in a text: key (hex, base64), keyed hash. */
  async function identifiers(table: 'game' | 'race', id: string): Promise<string[]> {
    const key =
      table === 'game'
        ? (await app.prisma.game.findUniqueOrThrow({ where: { id } })).dealKey
        : (await app.prisma.race.findUniqueOrThrow({ where: { code: id } })).dealKey;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const deal =
      table === 'game'
        ? (await app.prisma.game.findUniqueOrThrow({ where: { id } })).deal
        : (await app.prisma.race.findUniqueOrThrow({ where: { code: id } })).deal;
    return [key ?? '', Buffer.from(key ?? '', 'hex').toString('base64'), await app.embargo.hash(deal)];
  }
  /**
   * The scan: no identifier, no deal number, no candidate/seed/key/hash field in any text. A finished race's
   * results reveal its key on purpose, in `dealReveal` only (docs/fairness.md "Races"): that object is the
   * one place left out.
   */
  function scan(texts: readonly string[], ids: readonly string[]): void {
    expect(texts.length).toBeGreaterThan(0);
    for (const raw of texts) {
      const t = raw.replace(/"dealReveal":\{[^}]*\}/g, '');
      for (const id of ids) expect(t.includes(id), `identifier in ${t.slice(0, 200)}`).toBe(false);
      expect(/"dealNumber":\s*[0-9]/.test(t), `a deal number in ${t.slice(0, 200)}`).toBe(false);
      expect(/candidate|seed|dealKey|dealHash/i.test(t), `a deal identifier in ${t.slice(0, 200)}`).toBe(
        false,
      );
    }
  }
  /** Texts checked against the cards hidden in `gameId` at this moment. */
  function noHiddenCard(texts: readonly string[], gameIds: readonly string[]): void {
    const hidden = gameIds.flatMap((g) => {
      const s = app.rooms.peekState(g);
      if (!s) throw new Error(`game ${g} not in memory`);
      return hiddenCards(s);
    });
    for (const t of texts) expect(leakedCards(t, hidden), t).toEqual([]);
  }

  it('leak scan: a random casual game over REST and WS, start to resignation', async () => {
    const texts: string[] = [];
    const created = await call('POST', '/api/games', { record: texts });
    expect(created.statusCode).toBe(201);
    const game = GameResponseSchema.parse(created.json());
    expect(game.dealNumber).toBeNull();
    const ws = await socket();
    await subscribeGame(ws, game.id);
    let version = 0;
    for (let i = 0; i < 12; i++) {
      const before = texts.length;
      const legal = LegalMovesResponseSchema.parse(
        (await call('GET', `/api/games/${game.id}/legal-moves`, { record: texts })).json(),
      );
      const move = legal.moves.find((m) => m.type === 'move') ?? legal.moves[0];
      if (i % 3 === 0) {
        const f = await ws.request(
          { type: 'move', gameId: game.id, move, version },
          (x) => x.type === 'state' && x.version === version + 1,
        );
        if (f.type === 'state') version = f.version;
      } else {
        const r = await call('POST', `/api/games/${game.id}/moves`, {
          payload: { move, version },
          record: texts,
        });
        version = StateResponseSchema.parse(r.json()).version;
      }
      // Errors too: stale version, illegal move, the deal before the end.
      await call('POST', `/api/games/${game.id}/moves`, {
        payload: { move: { type: 'draw' }, version: version + 5 },
        record: texts,
      });
      await call('POST', `/api/games/${game.id}/moves`, {
        payload: { move: { type: 'move', from: 't1', to: 'fS', count: 13 }, version },
        record: texts,
      });
      await call('GET', `/api/games/${game.id}/deal`, { record: texts });
      await call('GET', `/api/games/${game.id}`, { record: texts });
      noHiddenCard(texts.slice(before), [game.id]);
    }
    await call('GET', `/api/games/${game.id}/hint`, { record: texts });
    noHiddenCard([...texts, ...ws.texts], [game.id]);
    await call('POST', `/api/games/${game.id}/resign`, { payload: {}, record: texts });
    const deal = await call('GET', `/api/games/${game.id}/deal`, { record: texts });
    expect(deal.json()).toMatchObject({ dealNumber: null }); // revealed once ended, never identified
    scan([...texts, ...ws.texts], await identifiers('game', game.id));
  });

  it('sameDealAs: a new game of the same hidden deal; its number only when one was chosen; 404/400', async () => {
    const a = GameResponseSchema.parse((await call('POST', '/api/games')).json());
    const r = await call('POST', '/api/games', { payload: { sameDealAs: a.id } });
    expect(r.statusCode, r.body).toBe(201);
    const b = GameResponseSchema.parse(r.json());
    expect(b.id).not.toBe(a.id);
    expect(b.dealNumber).toBeNull();
    expect(b.view).toEqual(a.view);
    const rows = await app.prisma.game.findMany({ where: { id: { in: [a.id, b.id] } } });
    expect(rows[0]?.deal).toBe(rows[1]?.deal);
    const numbered = GameResponseSchema.parse(
      (await call('POST', '/api/games', { payload: { dealNumber: 617, preset: 'classic-draw3' } })).json(),
    );
    const same = GameResponseSchema.parse(
      (await call('POST', '/api/games', { payload: { sameDealAs: numbered.id } })).json(),
    );
    expect(same).toMatchObject({ dealNumber: 617, preset: 'classic-draw3' });
    expectError(await call('POST', '/api/games', { payload: { sameDealAs: 'nope123' } }), 404, 'not-found');
    expectError(
      await call('POST', '/api/games', { payload: { sameDealAs: a.id, dealNumber: 3 } }),
      400,
      'bad-request',
    );
  });

  it('leak scan: a daily attempt from start to end while the day is open; the clock runs from creation; embargo 403s', async () => {
    const texts: string[] = [];
    const r = await call('POST', `/api/daily/${DAY}/classic-draw1/attempt`, { as: alice, record: texts });
    expect(r.statusCode, r.body).toBe(201);
    const game = GameResponseSchema.parse(r.json());
    const row = await app.prisma.dailyDeal.findUniqueOrThrow({
      where: { date_preset: { date: DAY, preset: 'classic-draw1' } },
    });
    const line = MoveSchema.array().parse(row.line);
    const ws = await socket(alice);
    await subscribeGame(ws, game.id);
    noHiddenCard([...texts, ...ws.texts], [game.id]);

    // The embargo: today's deal cannot be played, solved or hinted elsewhere.
    const embargoed = [
      await call('POST', '/api/games', { payload: { deal: row.deal }, record: texts }),
      await call('POST', '/api/games', { payload: { deal: row.deal }, as: bob, record: texts }),
      await call('POST', '/api/solve', { payload: { deal: row.deal }, record: texts }),
      await call('POST', '/api/solve', {
        payload: { deal: row.deal, preset: 'classic-draw3' },
        record: texts,
      }),
      await call('POST', '/api/games', { payload: { sameDealAs: game.id }, record: texts }),
    ];
    for (const e of embargoed) expectError(e, 403, 'deal-embargoed');
    // Practice: not while the day is open.
    expectError(
      await call('POST', `/api/daily/${DAY}/classic-draw1/practice`, { as: bob, record: texts }),
      403,
      'forbidden',
    );

    // Two moves of the solver's line and one more, then resign.
    offset += 2000;
    let version = 0;
    for (const move of line.slice(0, 2)) {
      const f = await ws.request(
        { type: 'move', gameId: game.id, move, version },
        (x) => x.type === 'state' && x.version === version + 1,
      );
      if (f.type === 'state') version = f.version;
      offset += 500;
    }
    noHiddenCard([...texts, ...ws.texts], [game.id]);
    await call('GET', `/api/games/${game.id}/hint`, { as: alice, record: texts });
    await call('GET', `/api/games/${game.id}/deal`, { as: alice, record: texts });
    await call('GET', `/api/games/${game.id}/replay`, { as: alice, record: texts });
    await call('POST', `/api/games/${game.id}/resign`, { as: alice, payload: {}, record: texts });
    await call('GET', '/api/daily', { as: alice, record: texts });
    await call('GET', `/api/daily/${DAY}/classic-draw1/leaderboard`, { as: alice, record: texts });
    await call('GET', `/api/daily/${DAY}/classic-draw1/fair-play`, { as: alice, record: texts });
    await call('GET', `/api/me`, { as: alice, record: texts });
    await call('GET', `/api/daily/${DAY}/classic-draw1`, { as: alice, record: texts });
    // Still hidden from the player: every card the resigned game never showed.
    noHiddenCard([...texts, ...ws.texts], [game.id]);
    expect([...texts, ...ws.texts].some((t) => t.includes(row.deal))).toBe(false);
    scan(
      [...texts, ...ws.texts],
      [
        row.dealKey ?? 'no-key',
        Buffer.from(row.dealKey ?? '', 'hex').toString('base64'),
        await app.embargo.hash(row.deal),
      ],
    );
    // The attempt's time counts from its creation, not from the first move.
    const result = await app.prisma.dailyResult.findUniqueOrThrow({ where: { gameId: game.id } });
    expect(result.timeMs).toBeGreaterThanOrEqual(3000);
    expect(result.timeMs).toBeLessThan(3000 + 10_000);
  });

  it('a ranked attempt created, idle 3 s, then resigned records at least 3000 ms', async () => {
    const g = GameResponseSchema.parse(
      (await call('POST', `/api/daily/${DAY}/classic-draw3/attempt`, { as: bob })).json(),
    );
    expect(g.view.elapsedMs).toBe(0);
    offset += 3000;
    const seen = GameResponseSchema.parse((await call('GET', `/api/games/${g.id}`, { as: bob })).json());
    expect(seen.view.elapsedMs).toBeGreaterThanOrEqual(3000);
    const end = await call('POST', `/api/games/${g.id}/resign`, { as: bob, payload: {} });
    expect(end.statusCode, end.body).toBe(200);
    const row = await app.prisma.dailyResult.findUniqueOrThrow({ where: { gameId: g.id } });
    expect(row.status).toBe('resigned');
    expect(row.timeMs).toBeGreaterThanOrEqual(3000);
  });

  it('accounts created on the daily date are provisional: left out of the default leaderboard view', async () => {
    const carol = await newPlayer(app, 'carol'); // created today
    const g = GameResponseSchema.parse(
      (await call('POST', `/api/daily/${DAY}/classic-draw3/attempt`, { as: carol })).json(),
    );
    await call('POST', `/api/games/${g.id}/resign`, { as: carol, payload: {} });
    const url = `/api/daily/${DAY}/classic-draw3/leaderboard`;
    const normal = LeaderboardSchema.parse((await call('GET', url, { as: carol })).json());
    expect(normal.total).toBe(1);
    expect(normal.entries.map((e) => [e.playerId, e.provisional])).toEqual([[bob.id, false]]);
    expect(normal.me).toMatchObject({ playerId: carol.id, provisional: true });
    const all = LeaderboardSchema.parse((await call('GET', `${url}?include=provisional`)).json());
    expect(all.total).toBe(2);
    expect(all.entries.map((e) => e.provisional).sort()).toEqual([false, true]);
    expectError(await call('GET', `${url}?include=everyone`), 400, 'bad-request');
  });

  it('fair-play signals: owner-only, after the day closed; practice 403 until close, 201 after', async () => {
    const url = `/api/daily/${DAY}/classic-draw1/fair-play`;
    expectError(await call('GET', url, { as: alice }), 403, 'forbidden');
    expectError(await call('GET', url), 401, 'unauthorized');
    const practice = `/api/daily/${DAY}/classic-draw1/practice`;
    expectError(await call('POST', practice, { as: alice }), 403, 'forbidden');

    offset = at(NEXT_DAY, '00:00:01.000') - Date.now();
    const signals = FairPlaySignalsSchema.parse((await call('GET', url, { as: alice })).json());
    // Created at t, first move at t + 2000 (plus the real time the test took); both moves on the solver's line.
    expect(signals).toMatchObject({ date: DAY, preset: 'classic-draw1', lineShare: 1, moves: 2 });
    expect(signals.firstMoveMs).toBeGreaterThanOrEqual(2000);
    expect(signals.firstMoveMs).toBeLessThan(2000 + 10_000);
    expectError(await call('GET', url, { as: bob }), 404, 'not-found');
    const p = await call('POST', practice, { as: bob });
    expect(p.statusCode, p.body).toBe(201);
    // The day has closed: its deal is no longer embargoed.
    const row = await app.prisma.dailyDeal.findUniqueOrThrow({
      where: { date_preset: { date: DAY, preset: 'classic-draw1' } },
    });
    expect((await call('POST', '/api/games', { payload: { deal: row.deal } })).statusCode).toBe(201);
  });

  it('leak scan: a random race, both racers and a spectator, lobby to results; its deal is embargoed while on', async () => {
    const host = await newPlayer(app, 'host');
    const guest = await newPlayer(app, 'guest');
    const texts = new Map<string, string[]>([
      ['host', []],
      ['guest', []],
      ['spectator', []],
    ]);
    const created = raceOf(
      await call('POST', '/api/races', { as: host, payload: {}, record: texts.get('host') }),
      201,
    );
    expect(created).toMatchObject({ knownDeal: false, options: { hints: false, undo: true } });
    const code = created.code;
    raceCodes.push(code);
    const hSock = await raceSocket(app, code, host, clients);
    const spec = await raceSocket(app, code, undefined, clients);
    raceOf(await call('POST', `/api/races/${code}/join`, { as: guest, record: texts.get('guest') }));
    const gSock = await raceSocket(app, code, guest, clients);
    await call('GET', `/api/races/${code}`, { record: texts.get('spectator') });
    const race = await app.prisma.race.findUniqueOrThrow({ where: { code } });
    expect(race).toMatchObject({ dealKind: 'random', dealNumber: null, knownDeal: false });
    // Embargoed from the lobby on.
    expectError(await call('POST', '/api/games', { payload: { deal: race.deal } }), 403, 'deal-embargoed');
    expectError(await call('POST', '/api/solve', { payload: { deal: race.deal } }), 403, 'deal-embargoed');

    raceOf(await call('POST', `/api/races/${code}/start`, { as: host, record: texts.get('host') }));
    const hRun = (await hSock.waitFor(isRace((r) => r.status === 'running'))) as RaceFrame;
    const gRun = (await gSock.waitFor(isRace((r) => r.status === 'running'))) as RaceFrame;
    const games = new Map([
      ['host', { player: host, sock: hSock, id: hRun.race.yourGameId as string }],
      ['guest', { player: guest, sock: gSock, id: gRun.race.yourGameId as string }],
    ]);
    for (const [who, g] of games) {
      await subscribeGame(g.sock, g.id);
      const own = texts.get(who) ?? [];
      const r = GameResponseSchema.parse(
        (await call('GET', `/api/games/${g.id}`, { as: g.player, record: own })).json(),
      );
      expect(r.dealNumber).toBeNull();
      expectError(
        await call('GET', `/api/games/${g.id}/hint`, { as: g.player, record: own }),
        403,
        'forbidden',
      );
      expectError(
        await call('POST', '/api/games', { payload: { sameDealAs: g.id }, record: own }),
        403,
        'deal-embargoed',
      );
      await call('GET', `/api/games/${g.id}/deal`, { as: g.player, record: own });
      await call('GET', `/api/races/${code}/results`, { as: g.player, record: own });
      let version = 0;
      for (let i = 0; i < 4; i++) {
        const legal = LegalMovesResponseSchema.parse(
          (await call('GET', `/api/games/${g.id}/legal-moves`, { as: g.player, record: own })).json(),
        );
        const move: Move = legal.moves.find((m) => m.type === 'move') ?? (legal.moves[0] as Move);
        const f = await g.sock.request(
          { type: 'move', gameId: g.id, move, version },
          (x: ServerFrame) => (x.type === 'state' && x.version === version + 1) || x.type === 'error',
        );
        expect(f.type).toBe('state');
        version += 1;
        noHiddenCard([...own, ...g.sock.texts], [g.id]);
      }
      noHiddenCard(
        [...spec.texts, ...(texts.get('spectator') ?? [])],
        [...games.values()].map((x) => x.id),
      );
    }
    for (const [who, g] of games)
      await call('POST', `/api/games/${g.id}/resign`, { as: g.player, payload: {}, record: texts.get(who) });
    await spec.waitFor(isRace((r) => r.status === 'finished'));
    const results = RaceResultsSchema.parse(
      (await call('GET', `/api/races/${code}/results`, { record: texts.get('spectator') })).json(),
    );
    expect(results.knownDeal).toBe(false);
    // The reveal, once finished: the key that deals the race's deal, hashing to the room's commitment.
    expect(results.dealReveal?.key).toBe(
      (await app.prisma.race.findUniqueOrThrow({ where: { code } })).dealKey,
    );
    const rematch = await call('POST', `/api/races/${code}/rematch`, {
      as: guest,
      record: texts.get('guest'),
    });
    expect(rematch.statusCode, rematch.body).toBe(201);

    const ids = await identifiers('race', code);
    scan([...(texts.get('host') ?? []), ...hSock.texts], ids);
    scan([...(texts.get('guest') ?? []), ...gSock.texts], ids);
    scan([...(texts.get('spectator') ?? []), ...spec.texts], ids);
    // Finished: the deal is free to play and solve.
    expect((await call('POST', '/api/games', { payload: { deal: race.deal } })).statusCode).toBe(201);
    const solved = await call('POST', '/api/solve', { payload: { deal: race.deal, timeLimitMs: 50 } });
    expect(SolveResponseSchema.parse(solved.json()).nodes).toBeGreaterThanOrEqual(0);
  });

  it('a host who chooses the deal number makes a known-deal race; hints only when the host turns them on; a casual game of a live race deal gets no hint', async () => {
    const casual = GameResponseSchema.parse(
      (await call('POST', '/api/games', { payload: { dealNumber: 4242 } })).json(),
    );
    const known = raceOf(
      await call('POST', '/api/races', {
        as: alice,
        payload: { deal: { dealNumber: 4242 }, options: { hints: true } },
      }),
      201,
    );
    expect(known).toMatchObject({ knownDeal: true, options: { hints: true } });
    expectError(await call('GET', `/api/games/${casual.id}/hint`), 403, 'deal-embargoed');
    expectError(await call('POST', '/api/games', { payload: { dealNumber: 4242 } }), 403, 'deal-embargoed');
    expectError(await call('POST', '/api/solve', { payload: { dealNumber: 4242 } }), 403, 'deal-embargoed');
  });

  it('a day not yet open that was stored with a v1 deal number is dealt again from a key; open and past days stay', async () => {
    const v1 = dealFromNumber(617);
    if (!v1.ok) throw new Error('deal 617');
    const old = {
      preset: 'classic-draw1',
      deal: formatDeal(v1.value),
      dealNumber: 617n,
      candidate: 0,
      par: 0,
      line: [],
    };
    for (const date of ['2025-06-20', '2025-06-01'])
      await app.prisma.dailyDeal.create({ data: { date, ...old } });
    const future = await app.daily.ensure('2025-06-20', 'classic-draw1');
    expect(future.dealKey).toMatch(/^[0-9a-f]{64}$/);
    expect(future.dealNumber).toBeNull();
    expect(future.deal).not.toBe(old.deal);
    expect(future.deal).toBe(
      formatDeal(candidateDeal(SECRET, '2025-06-20', 'classic-draw1', future.candidate).deal),
    );
    const past = await app.daily.ensure('2025-06-01', 'classic-draw1');
    expect(past).toMatchObject({ dealNumber: 617n, dealKey: null, deal: old.deal });
  });

  it('no log line names a deal key, keyed hash, candidate index or hidden deal', async () => {
    expect(logs.length).toBeGreaterThan(50); // requests were logged
    const ids: string[] = [];
    for (const d of await app.prisma.dailyDeal.findMany()) {
      ids.push(d.deal, await app.embargo.hash(d.deal));
      if (d.dealKey !== null) ids.push(d.dealKey, Buffer.from(d.dealKey, 'hex').toString('base64'));
    }
    for (const code of raceCodes) ids.push(...(await identifiers('race', code)));
    expect(ids.every((id) => id.length >= 32)).toBe(true);
    for (const line of logs) {
      for (const id of ids) expect(line.includes(id), `identifier in log: ${line.slice(0, 200)}`).toBe(false);
      expect(/candidate|seed|dealKey|dealHash/i.test(line), `a deal identifier in log: ${line}`).toBe(false);
    }
  });
});
