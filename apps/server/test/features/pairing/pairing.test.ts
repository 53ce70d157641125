/**
 * Quick pairing (docs/ratings.md "Quick race"): the matcher's rules (pairing/matching.ts, with fast-check),
 * then POST/GET/DELETE /api/pairing and the `paired` frame on both databases with an injected clock.
 */
import { ErrorBodySchema, PairingStatusSchema, RaceSchema, type PairingStatus } from '@klondike/protocol';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANYONE_AFTER_MS,
  WINDOW_START_POINTS,
  type WaitingPlayer,
  acceptable,
  pairUp,
  windowPoints,
} from '../../../src/features/pairing/matching.js';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';
import { type TestPlayer, newPlayer } from '../../support/race-helpers.js';

const T0 = Date.parse('2026-12-01T12:00:00Z');

function waiting(
  id: string,
  rating: number,
  enteredAt = T0,
  extra: Partial<WaitingPlayer> = {},
): WaitingPlayer {
  return { playerId: id, preset: 'classic-draw1', bot: false, rating, enteredAt, ...extra };
}

describe('pairing/matching.ts: who is paired with whom', () => {
  it('the window starts narrow, widens with the time waited, and opens to anyone', () => {
    expect(windowPoints(0)).toBe(WINDOW_START_POINTS);
    expect(windowPoints(10_000)).toBeGreaterThan(windowPoints(1_000) as number);
    expect(windowPoints(ANYONE_AFTER_MS)).toBeNull();
    const a = waiting('a', 1500);
    const far = waiting('b', 1500 + WINDOW_START_POINTS + 150);
    expect(acceptable(a, far, T0)).toBe(false);
    expect(acceptable(a, far, T0 + 10_000)).toBe(true);
    expect(acceptable(a, waiting('c', 3000), T0 + ANYONE_AFTER_MS)).toBe(true);
  });

  it('never pairs a player with themself, across presets, or a bot with a person', () => {
    expect(pairUp([waiting('a', 1500), waiting('a', 1500)], T0)).toEqual([]);
    expect(pairUp([waiting('a', 1500), waiting('b', 1500, T0, { preset: 'classic-draw3' })], T0)).toEqual([]);
    expect(pairUp([waiting('a', 1500), waiting('b', 1500, T0, { bot: true })], T0 + 60_000)).toEqual([]);
  });

  it('serves the longest waiter first, with the closest rating', () => {
    const old = waiting('old', 1500, T0 - 5_000);
    const pairs = pairUp([waiting('x', 1530), waiting('y', 1510), old, waiting('z', 1450)], T0);
    expect(pairs[0]?.map((p) => p.playerId)).toEqual(['old', 'y']);
    expect(pairs[1]?.map((p) => p.playerId).sort()).toEqual(['x', 'z']);
  });

  it('property: each player is in at most one pair, never with themself, and every pair is acceptable', () => {
    const player = fc.record({
      playerId: fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'),
      preset: fc.constantFrom('classic-draw1', 'classic-draw3'),
      bot: fc.boolean(),
      rating: fc.integer({ min: 800, max: 2400 }),
      enteredAt: fc.integer({ min: T0 - 60_000, max: T0 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(player, { maxLength: 8, selector: (p) => p.playerId }), (list) => {
        const pairs = pairUp(list, T0);
        const ids = pairs.flat().map((p) => p.playerId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const [a, b] of pairs) expect(acceptable(a, b, T0)).toBe(true);
        // Nobody left over could have been paired with another leftover.
        const left = list.filter((p) => !ids.includes(p.playerId));
        for (const a of left) for (const b of left) expect(acceptable(a, b, T0)).toBe(false);
      }),
    );
  });
});

describeEachDatabase('pairing routes', (db) => {
  let app: FastifyInstance;
  let clock = T0;
  const sockets: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock, config: { raceCountdownMs: 60_000, raceCertifyMs: 3000 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await app.close();
    await db.cleanup();
  });

  async function pairing(method: 'GET' | 'POST' | 'DELETE', as: TestPlayer | null, payload?: object) {
    const r = await app.inject({
      method,
      url: '/api/pairing',
      ...(as ? { headers: { authorization: `Bearer ${as.token}` } } : {}),
      ...(payload !== undefined ? { payload } : {}),
    });
    return r;
  }
  async function status(
    method: 'GET' | 'POST' | 'DELETE',
    as: TestPlayer,
    payload?: object,
  ): Promise<PairingStatus> {
    const r = await pairing(method, as, payload);
    expect(r.statusCode, r.body).toBe(200);
    return PairingStatusSchema.parse(r.json());
  }
  async function setRating(player: TestPlayer, rating: number): Promise<void> {
    await app.prisma.rating.create({
      data: {
        playerId: player.id,
        pool: 'race-classic-draw1',
        rating,
        deviation: 60,
        volatility: 0.06,
        games: 20,
        period: '2026-11-30',
      },
    });
  }

  it('bad input: 401 without a token, 400 for a preset without a pool; nothing changes', async () => {
    const p = await newPlayer(app, 'pbad');
    for (const m of ['GET', 'POST', 'DELETE'] as const) {
      const r = await pairing(m, null, m === 'POST' ? { preset: 'classic-draw1' } : undefined);
      expect(r.statusCode).toBe(401);
      expect(ErrorBodySchema.parse(r.json()).error.code).toBe('unauthorized');
    }
    for (const payload of [{ preset: 'vegas-draw1' }, {}, { preset: 'classic-draw1', extra: 1 }]) {
      const r = await pairing('POST', p, payload);
      expect(r.statusCode, r.body).toBe(400);
      expect(ErrorBodySchema.parse(r.json()).error.code).toBe('bad-request');
    }
    expect(await status('GET', p)).toEqual({ status: 'idle' });
    expect(await app.prisma.pairingEntry.count({ where: { playerId: p.id } })).toBe(0);
  });

  it('two waiting players are paired into one rated 2-seat room whose countdown has begun; sockets hear `paired`', async () => {
    const a = await newPlayer(app, 'pa');
    const b = await newPlayer(app, 'pb');
    const sock = await WsClient.connect(wsUrl(app));
    sockets.push(sock);
    await sock.request({ type: 'auth', token: a.token }, (f) => f.type === 'authed');

    const first = await status('POST', a, { preset: 'classic-draw1' });
    expect(first).toMatchObject({ status: 'waiting', preset: 'classic-draw1', waitedMs: 0 });
    // Entering again changes nothing, and nobody is paired with themself.
    expect(await status('POST', a, { preset: 'classic-draw1' })).toMatchObject({ status: 'waiting' });

    const second = await status('POST', b, { preset: 'classic-draw1' });
    expect(second.status).toBe('paired');
    if (second.status !== 'paired') return;
    expect(await status('GET', a)).toEqual({ status: 'paired', preset: 'classic-draw1', code: second.code });
    const frame = await sock.waitFor((f) => f.type === 'paired');
    expect(frame).toEqual({ type: 'paired', code: second.code });

    const room = await app.inject({
      method: 'GET',
      url: `/api/races/${second.code}`,
      headers: { authorization: `Bearer ${a.token}` },
    });
    const race = RaceSchema.parse(room.json());
    expect(race).toMatchObject({ status: 'countdown', rated: true, maxPlayers: 2, knownDeal: false });
    expect(race.racers.map((r) => r.playerId).sort()).toEqual([a.id, b.id].sort());
    expect(race.options.hints).toBe(false);
    expect((await app.prisma.race.findUniqueOrThrow({ where: { code: second.code } })).dealKind).toBe(
      'certified',
    );
    // Paired: leaving answers the pairing (the race stands), entering again too.
    expect(await status('DELETE', b)).toEqual({
      status: 'paired',
      preset: 'classic-draw1',
      code: second.code,
    });
    expect(await status('POST', b, { preset: 'classic-draw3' })).toMatchObject({ code: second.code });

    // Once the race has finished the pairing is over.
    await app.prisma.race.update({ where: { code: second.code }, data: { status: 'finished' } });
    expect(await status('GET', a)).toEqual({ status: 'idle' });
  });

  it('pairs by rating: far apart they wait until the window has widened; leaving takes a player out', async () => {
    const low = await newPlayer(app, 'plow');
    const high = await newPlayer(app, 'phigh');
    const gone = await newPlayer(app, 'pgone');
    await setRating(low, 1200);
    await setRating(high, 1200 + WINDOW_START_POINTS + 200);
    await setRating(gone, 2600);

    expect(await status('POST', gone, { preset: 'classic-draw1' })).toMatchObject({ status: 'waiting' });
    expect(await status('DELETE', gone)).toEqual({ status: 'idle' });
    expect(await status('DELETE', gone)).toEqual({ status: 'idle' });

    expect((await status('POST', low, { preset: 'classic-draw1' })).status).toBe('waiting');
    expect((await status('POST', high, { preset: 'classic-draw1' })).status).toBe('waiting');
    clock += 5_000;
    const still = await status('GET', low);
    expect(still).toMatchObject({ status: 'waiting', waitedMs: 5_000 });
    clock += 10_000;
    const now = await status('GET', high);
    expect(now.status).toBe('paired');
    const other = await status('GET', low);
    expect(other).toEqual(now);
    expect(await app.prisma.pairingEntry.count({ where: { playerId: gone.id } })).toBe(0);
  });

  it('bots are paired only with bots', async () => {
    const person = await newPlayer(app, 'pperson');
    const r = await app.inject({
      method: 'POST',
      url: '/api/players',
      payload: { name: `pbot${T0 % 997}x`, bot: true },
    });
    expect(r.statusCode, r.body).toBe(201);
    const bot = r.json<TestPlayer>();
    expect((await status('POST', person, { preset: 'classic-draw3' })).status).toBe('waiting');
    clock += ANYONE_AFTER_MS + 1000;
    expect((await status('POST', bot, { preset: 'classic-draw3' })).status).toBe('waiting');
    expect((await status('GET', person)).status).toBe('waiting');
    await status('DELETE', person);
    await status('DELETE', bot);
  });
});
