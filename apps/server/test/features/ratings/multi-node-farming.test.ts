/**
 * No farming across nodes (docs/ratings.md "No farming"): the pair rule lives in Postgres (`RatedPair`), so
 * - two accounts racing a rated race hosted on node A and then its rematch hosted on node B (each racer on a
 *   different node each time) have the second race count for nothing;
 * - two nodes rating races of the same pair at the same moment count the pair once.
 * The first needs TEST_DATABASE_URL and TEST_REDIS_URL (CI sets both); the second TEST_DATABASE_URL.
 */
import {
  PlayerCreatedSchema,
  PlayerPageSchema,
  type Race,
  RaceResultsSchema,
  RaceSchema,
  type ServerFrame,
} from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_DATABASE_URL,
  WsClient,
  dropSchema,
  testApp,
  testSchemaName,
  withSchema,
} from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';
import { newPlayer as newTestPlayer } from '../../support/race-helpers.js';

const SKIP = MULTI_NODE_SKIP;

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;
type RaceFrame = Extract<ServerFrame, { type: 'race' }>;

const isRace =
  (pred: (r: Race) => boolean) =>
  (f: ServerFrame): f is RaceFrame =>
    f.type === 'race' && pred(f.race);

/** Every node's settings on top of the harness's quiet defaults. */
const ENV = {
  RATE_LIMIT_MAX: '100000',
  RACE_RATE_MAX: '0',
  NODE_HEARTBEAT_MS: '500',
  RACE_COUNTDOWN_MS: '300',
  RACE_AWAY_FORFEIT_MS: '500',
  // The booster's accounts are as old and played as needed (farming.test.ts tests the thresholds).
  RATED_MIN_ACCOUNT_AGE_MS: '0',
  RATED_MIN_FINISHED_GAMES: '0',
};

describe.skipIf(SKIP !== null)(
  `no farming across nodes on Postgres + Redis${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    let pair: NodePair;
    const sockets: WsClient[] = [];
    let a: ServerProcess;
    let b: ServerProcess;
    let n = 0;

    async function api(node: ServerProcess, method: string, path: string, player?: Player, body?: unknown) {
      return nodeApi(node, method, path, player?.token, body);
    }
    async function newPlayer(node: ServerProcess, name: string): Promise<Player> {
      const r = await api(node, 'POST', '/api/players', undefined, {
        name: `${name}${++n}${pair.redisPrefix.slice(5, 9)}`,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return PlayerCreatedSchema.parse(r.json);
    }
    async function raceSocket(node: ServerProcess, code: string, player: Player): Promise<WsClient> {
      const c = await WsClient.connect(node.ws);
      sockets.push(c);
      await c.request({ type: 'auth', token: player.token }, (f) => f.type === 'authed');
      await c.request(
        { type: 'race-subscribe', code },
        isRace((r) => r.code === code),
      );
      return c;
    }
    /** The thrower (on `guestNode`) walks away, the booster (on `hostNode`) resigns and places first. */
    async function throwRace(
      code: string,
      booster: Player,
      hostNode: ServerProcess,
      thrower: Player,
      guestNode: ServerProcess,
    ) {
      const joined = await api(guestNode, 'POST', `/api/races/${code}/join`, thrower);
      expect(joined.status, JSON.stringify(joined.json)).toBe(200);
      const boosterSock = await raceSocket(hostNode, code, booster);
      const throwerSock = await raceSocket(guestNode, code, thrower);
      for (const [node, p] of [
        [hostNode, booster],
        [guestNode, thrower],
      ] as const) {
        const r = await api(node, 'POST', `/api/races/${code}/ready`, p, { ready: true });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
      }
      await boosterSock.waitFor(
        isRace((r) => r.code === code && r.status === 'running'),
        0,
        15_000,
      );
      const game = RaceSchema.parse(
        (await api(hostNode, 'GET', `/api/races/${code}`, booster)).json,
      ).yourGameId;
      throwerSock.close();
      const resigned = await api(hostNode, 'POST', `/api/games/${game}/resign`, booster, {});
      expect(resigned.status, JSON.stringify(resigned.json)).toBe(200);
      await boosterSock.waitFor(
        isRace((r) => r.code === code && r.status === 'finished'),
        0,
        15_000,
      );
      boosterSock.close();
      return RaceResultsSchema.parse((await api(guestNode, 'GET', `/api/races/${code}/results`)).json);
    }

    beforeAll(async () => {
      pair = await startPair({ env: ENV });
      ({ a, b } = pair);
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await pair?.stop();
    });

    it('a rated race hosted on A counts; its rematch hosted on B, between the same two, does not', async () => {
      const booster = await newPlayer(a, 'Fb');
      const thrower = await newPlayer(b, 'Ft');
      const made = await api(a, 'POST', '/api/races', booster, { rated: true, maxPlayers: 2 });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
      const first = RaceSchema.parse(made.json).code;
      const one = await throwRace(first, booster, a, thrower, b);
      for (const r of one.results) expect(r.rating).not.toBeNull();
      const again = await api(b, 'POST', `/api/races/${first}/rematch`, booster);
      expect(again.status, JSON.stringify(again.json)).toBe(201);
      const second = RaceSchema.parse(again.json).code;
      const two = await throwRace(second, booster, b, thrower, a);
      expect(two.results.find((r) => r.playerId === booster.id)?.placement).toBe(1);
      for (const r of two.results) expect(r.rating).toBeNull();
      for (const [node, p] of [
        [a, booster],
        [b, thrower],
      ] as const) {
        const profile = PlayerPageSchema.parse((await api(node, 'GET', `/api/players/${p.id}`)).json);
        expect(profile.ratings?.['race-classic-draw1']?.games).toBe(1);
        expect(profile.ratings?.['race-classic-draw1']?.rating).toBe(
          one.results.find((r) => r.playerId === p.id)?.rating?.after,
        );
      }
    }, 90_000);
  },
);

// Two app instances on one Postgres schema are two nodes of one database (ratings.test.ts does the same).
describe.skipIf(TEST_DATABASE_URL === undefined)(
  'no farming: two nodes rate the same pair at once [Postgres]',
  () => {
    let url = '';
    let a: FastifyInstance;
    let b: FastifyInstance;

    beforeAll(async () => {
      url = withSchema(TEST_DATABASE_URL ?? '', testSchemaName());
      const db = {
        kind: 'postgres' as const,
        config: () => ({ databaseUrl: url, dataDir: 'memory://' }),
        cleanup: async () => {},
      };
      a = await testApp(db);
      b = await testApp(db);
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await dropSchema(url);
    });

    it('counts the pair once', async () => {
      const p = await newTestPlayer(a, 'np');
      const q = await newTestPlayer(a, 'nq');
      const day = new Date().toISOString().slice(0, 10);
      const rate = (app: FastifyInstance, code: string) =>
        app.prisma.$transaction((tx) =>
          app.ratings.raceRater.rateRaceIn(tx, 'race-classic-draw1', day, code, [
            { playerId: p.id, placement: 1 },
            { playerId: q.id, placement: 2 },
          ]),
        );
      const [ra, rb] = await Promise.all([rate(a, 'NODEA00001'), rate(b, 'NODEB00001')]);
      expect([ra.length, rb.length].sort()).toEqual([0, 2]);
      const rows = await a.prisma.rating.findMany({ where: { playerId: { in: [p.id, q.id] } } });
      expect(rows.map((r) => r.games)).toEqual([1, 1]);
    });
  },
);
