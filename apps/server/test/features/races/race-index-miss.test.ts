/**
 * Issue 53 item 9(b): a race read whose room the node's index misses looks the race up in the database
 * instead of allowing. The attacker reads a racer's game, or its deal, on a node that has not heard of the
 * race (its announcement lost: here two nodes on one Postgres without Redis, so the second node's index
 * never hears of a room made on the first, until it reloads): every read is refused as on the node that knows.
 * The index itself is checked on both databases: a fresh index that never loaded the room refuses too.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RaceRepository } from '../../../src/features/races/repository.js';
import { RaceIndex } from '../../../src/features/races/room-index.js';
import {
  TEST_DATABASE_URL,
  WsClient,
  describeEachDatabase,
  dropSchema,
  testApp,
  testSchemaName,
  withSchema,
  wsUrl,
} from '../../support/helpers.js';
import { type TestPlayer, call, expectError, newPlayer, raceOf } from '../../support/race-helpers.js';

/** Makes a 2-seat race on `app` (both racers ready) and waits until it runs; returns its code and games. */
async function runningRace(app: FastifyInstance, host: TestPlayer, guest: TestPlayer) {
  const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
  raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest }));
  for (const p of [host, guest])
    raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: p, payload: { ready: true } }));
  for (let i = 0; i < 200; i++) {
    const row = await app.prisma.race.findUniqueOrThrow({
      where: { code: r.code },
      include: { racers: true },
    });
    const games = row.racers.map((x) => x.gameId);
    if (row.status === 'running' && games.every((g) => g !== null)) {
      const seat = (p: TestPlayer) => row.racers.find((x) => x.playerId === p.id)?.gameId ?? '';
      return { code: r.code, hostGame: seat(host), guestGame: seat(guest) };
    }
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`race ${r.code} did not start`);
}

describeEachDatabase('race index: a room it never heard of', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db, { config: { raceCountdownMs: 30 } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  it('a fresh index refuses a read of a running race game by another player, and any reveal', async () => {
    const [host, guest, stranger] = [
      await newPlayer(app, 'h'),
      await newPlayer(app, 'g'),
      await newPlayer(app, 's'),
    ];
    const { code, hostGame } = await runningRace(app, host, guest);
    const index = new RaceIndex(() => {});
    expect(index.get(code)).toBeUndefined();
    await expect(
      index.guard(new RaceRepository(app.prisma), hostGame, code, stranger.id, 'read'),
    ).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(
      index.guard(new RaceRepository(app.prisma), hostGame, code, null, 'read'),
    ).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await expect(
      index.guard(new RaceRepository(app.prisma), hostGame, code, host.id, 'reveal'),
    ).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(
      index.guard(new RaceRepository(app.prisma), hostGame, code, host.id, 'read'),
    ).resolves.toBeUndefined();
  });

  it('once the race has finished, a fresh index allows the read (and remembers it)', async () => {
    const [host, guest, stranger] = [
      await newPlayer(app, 'h'),
      await newPlayer(app, 'g'),
      await newPlayer(app, 's'),
    ];
    const { code, hostGame, guestGame } = await runningRace(app, host, guest);
    await call(app, 'POST', `/api/games/${guestGame}/resign`, { as: guest, payload: {} });
    await call(app, 'POST', `/api/games/${hostGame}/resign`, { as: host, payload: {} });
    for (let i = 0; i < 200; i++) {
      if ((await app.prisma.race.findUniqueOrThrow({ where: { code } })).status === 'finished') break;
      await new Promise((res) => setTimeout(res, 25));
    }
    const index = new RaceIndex(() => {});
    await expect(
      index.guard(new RaceRepository(app.prisma), hostGame, code, stranger.id, 'read'),
    ).resolves.toBeUndefined();
    await app.prisma.race.update({ where: { code }, data: { status: 'running' } });
    // Remembered as finished (a finished race never runs again): no second look-up.
    await expect(
      index.guard(new RaceRepository(app.prisma), hostGame, code, stranger.id, 'read'),
    ).resolves.toBeUndefined();
    await app.prisma.race.update({ where: { code }, data: { status: 'finished' } });
  });
});

// Two nodes on one database need a Postgres server (PGlite is in-process).
describe.skipIf(TEST_DATABASE_URL === undefined)(
  'a node that missed the race refuses its reads [Postgres]',
  () => {
    let url = '';
    let a: FastifyInstance;
    let b: FastifyInstance;
    const sockets: WsClient[] = [];

    beforeAll(async () => {
      url = withSchema(TEST_DATABASE_URL ?? '', testSchemaName());
      const db = {
        kind: 'postgres' as const,
        config: () => ({ databaseUrl: url, dataDir: 'memory://' }),
        cleanup: async () => {},
      };
      a = await testApp(db, { config: { raceCountdownMs: 30 } });
      b = await testApp(db, { config: { raceCountdownMs: 30 } });
      await b.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      for (const s of sockets) s.close();
      await a.close();
      await b.close();
      await dropSchema(url);
    });

    it("another player, an anonymous caller and a socket cannot read a racer's game on node b; nobody its deal", async () => {
      const [host, guest, stranger] = [
        await newPlayer(a, 'h'),
        await newPlayer(a, 'g'),
        await newPlayer(a, 's'),
      ];
      const { hostGame } = await runningRace(a, host, guest);
      expectError(await call(b, 'GET', `/api/games/${hostGame}`, { as: stranger }), 403, 'forbidden');
      expectError(
        await call(b, 'GET', `/api/games/${hostGame}/legal-moves`, { as: stranger }),
        403,
        'forbidden',
      );
      expectError(await call(b, 'GET', `/api/games/${hostGame}`), 401, 'unauthorized');
      expectError(await call(b, 'GET', `/api/games/${hostGame}/deal`, { as: host }), 403, 'forbidden');
      const c = await WsClient.connect(wsUrl(b));
      sockets.push(c);
      await c.request({ type: 'auth', token: stranger.token }, (f) => f.type === 'authed');
      const refused = await c.request(
        { type: 'subscribe', gameId: hostGame },
        (f) => f.type === 'error' || f.type === 'state',
      );
      expect(refused).toMatchObject({ type: 'error', code: 'forbidden' });
      // The racer still reads their own game there.
      expect((await call(b, 'GET', `/api/games/${hostGame}`, { as: host })).statusCode).toBe(200);
    });
  },
);
