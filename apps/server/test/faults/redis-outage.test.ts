/**
 * Fault suite: several nodes stay correct and up whatever Redis does. Two real server processes on one
 * Postgres schema and a Redis server this test starts itself on a free port (never the shared one), a
 * client that alternates nodes:
 * - fresh reads: after every acknowledged move, the other node's game, legal moves and (every tenth move)
 *   a socket's subscribe snapshot show it: 0 stale reads in 100 moves, none of them followed by a socket
 *   on the reading node;
 * - Redis stopped: `/api/ready` stays 200 and says `redis: false`; 100 moves alternating nodes are each
 *   answered within 1 s, the other node's reads stay fresh, none is lost (the log in Postgres); new games
 *   and players are made; the player-creation limit counts per node;
 * - Redis back: `/api/ready` says `redis: true`, a socket on one node that followed the game through the
 *   outage is sent the current state and then hears a move made on the other, and the limit is shared again;
 * - the cluster lease (race sweeper, daily job) fails safe: its holder gives it up while Redis is away, and
 *   one node takes it again when Redis returns.
 * Needs TEST_DATABASE_URL and the `redis-server` binary (CI has both).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  GameResponseSchema,
  LegalMovesResponseSchema,
  ReadyResponseSchema,
  type ServerFrame,
  StateResponseSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBus } from '../../src/infra/bus/event-bus.js';
import { clusterLease } from '../../src/infra/bus/lease.js';
import { splitSchemaParam } from '../../src/infra/db/database.js';
import { TEST_DATABASE_URL, WsClient } from '../support/helpers.js';
import { type NodePair, startPair } from '../support/multi-node-harness.js';
import type { ServerProcess } from '../support/processes.js';
import { HAVE_REDIS_SERVER, type PrivateRedis, startPrivateRedis } from '../support/redis-server.js';

const SKIP =
  TEST_DATABASE_URL === undefined
    ? 'needs TEST_DATABASE_URL'
    : HAVE_REDIS_SERVER
      ? null
      : 'needs the redis-server binary';
const MOVES = 100;
const MOVE_BUDGET_MS = 1000;
const PLAYER_LIMIT = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every node's settings on top of the harness's quiet defaults (its Redis, the private one, is added). */
const ENV = {
  TRUST_PROXY: 'true', // each step speaks as its own client address (X-Forwarded-For)
  RATE_LIMIT_MAX: '2000',
  PLAYER_CREATE_RATE_MAX: String(PLAYER_LIMIT),
  NODE_HEARTBEAT_MS: '500',
};

/** One request as client `address`; `ms` is its round trip. Gives up after 5 s (a hung request fails). */
async function call(
  node: ServerProcess,
  method: string,
  path: string,
  address: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; ms: number }> {
  const t0 = performance.now();
  const r = await fetch(`${node.base}${path}`, {
    method,
    headers: {
      'x-forwarded-for': address,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    signal: AbortSignal.timeout(5000),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json: unknown = await r.json();
  return { status: r.status, json, ms: performance.now() - t0 };
}

/** Polls `/api/ready` on `node` until its `redis` field is `up`; returns the last answer. */
async function redisReported(node: ServerProcess, up: boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(node, 'GET', '/api/ready', '10.46.0.1');
    const ready = ReadyResponseSchema.parse(r.json);
    if (ready.redis === up) return { status: r.status, ready };
    if (Date.now() > deadline) throw new Error(`redis still ${String(ready.redis)} on ${node.base}`);
    await sleep(100);
  }
}

/** A draw, or a recycle when the stock is empty: always legal in these deals. */
function stockMove(moves: readonly Move[]): Move {
  const m = moves.find((x) => x.type === 'draw' || x.type === 'recycle');
  if (m === undefined) throw new Error('no draw or recycle');
  return m;
}

/** Plays the stock-moves the reads offer, alternating nodes, and counts the reads found stale. */
interface Play {
  acked: number;
  stale: number;
  slowest: number;
  /** The newest legal moves read (on the node the next move goes to). */
  next: Move;
}

describe.skipIf(SKIP !== null)(
  `fault: Redis away under play on two nodes${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    const prefix = `fault-${randomBytes(4).toString('hex')}:`;
    let pair: NodePair;
    let redis: PrivateRedis;
    let nodes: [ServerProcess, ServerProcess];

    /**
     * `count` moves on game `id` from version `play.acked`, the first on `nodes[first]`; after each one the
     * other node's game and legal moves (and, every tenth move, a new socket's subscribe snapshot) are read
     * and compared with the acknowledged version.
     */
    async function alternate(id: string, play: Play, count: number, first: 0 | 1, address: string) {
      for (let i = 0; i < count; i++) {
        const mover = nodes[(first + i) % 2] as ServerProcess;
        const other = nodes[(first + i + 1) % 2] as ServerProcess;
        const r = await call(mover, 'POST', `/api/games/${id}/moves`, address, {
          move: play.next,
          version: play.acked,
        });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        play.slowest = Math.max(play.slowest, r.ms);
        play.acked = StateResponseSchema.parse(r.json).version;

        const game = GameResponseSchema.parse((await call(other, 'GET', `/api/games/${id}`, address)).json);
        if (game.version !== play.acked) play.stale++;
        const legal = LegalMovesResponseSchema.parse(
          (await call(other, 'GET', `/api/games/${id}/legal-moves`, address)).json,
        );
        if (legal.version !== play.acked) play.stale++;
        play.next = stockMove(legal.moves);
        if (i % 10 === 9) {
          const ws = await WsClient.connect(other.ws);
          try {
            const snap = await ws.request(
              { type: 'subscribe', gameId: id },
              (f) => f.type === 'state' || f.type === 'error',
            );
            if (snap.type !== 'state' || snap.version !== play.acked) play.stale++;
          } finally {
            ws.close();
          }
        }
      }
    }

    async function newGame(address: string): Promise<{ id: string; play: Play }> {
      const created = await call(nodes[0], 'POST', '/api/games', address, { dealNumber: 46 });
      expect(created.status).toBe(201);
      const { id } = GameResponseSchema.parse(created.json);
      const legal = LegalMovesResponseSchema.parse(
        (await call(nodes[0], 'GET', `/api/games/${id}/legal-moves`, address)).json,
      );
      return { id, play: { acked: 0, stale: 0, slowest: 0, next: stockMove(legal.moves) } };
    }

    /** The log Postgres holds for game `id`: its version and its number of moves. */
    async function stored(id: string): Promise<{ version: number; moves: number }> {
      const { url, schema } = splitSchemaParam(pair.databaseUrl);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`SET search_path TO "${schema ?? 'public'}"`);
        const g = await client.query<{ version: number }>('SELECT version FROM "Game" WHERE id = $1', [id]);
        const m = await client.query<{ n: string }>('SELECT count(*) AS n FROM "Move" WHERE "gameId" = $1', [
          id,
        ]);
        return { version: g.rows[0]?.version ?? -1, moves: Number(m.rows[0]?.n ?? -1) };
      } finally {
        await client.end();
      }
    }

    beforeAll(async () => {
      redis = await startPrivateRedis();
      pair = await startPair({ env: { ...ENV, REDIS_URL: redis.url }, redisPrefix: prefix });
      nodes = [pair.a, pair.b];
    }, 120_000);
    afterAll(async () => {
      await pair?.stop();
      await redis?.stop();
    });

    it('a client alternating nodes never reads an older version than its last acknowledged move, nor acts on one', async () => {
      const { id, play } = await newGame('10.46.1.1');
      await alternate(id, play, MOVES, 0, '10.46.1.1');
      console.log(`redis up: ${MOVES} moves alternating nodes, ${play.stale} stale reads`);
      expect(play.acked).toBe(MOVES);
      expect(play.stale).toBe(0);

      // One more move on A (B's copy is now behind), then a resignation without a version on B: it applies
      // to the stored game, not to B's older copy.
      const r = await call(nodes[0], 'POST', `/api/games/${id}/moves`, '10.46.1.1', {
        move: play.next,
        version: MOVES,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const resigned = await call(nodes[1], 'POST', `/api/games/${id}/resign`, '10.46.1.1', {});
      expect(resigned.status, JSON.stringify(resigned.json)).toBe(200);
      expect(StateResponseSchema.parse(resigned.json)).toMatchObject({ version: MOVES + 2 });
    }, 120_000);

    it('Redis stopped: moves on both nodes answered within 1 s, reads fresh, nothing lost; back: frames resume', async () => {
      const address = '10.46.2.1';
      const { id, play } = await newGame(address);
      // A socket on B follows the game from before the outage to after it.
      const watcher = await WsClient.connect(nodes[1].ws);
      const isState = (f: ServerFrame) => f.type === 'state' && f.gameId === id;
      try {
        await watcher.request({ type: 'subscribe', gameId: id }, isState);
        for (const n of nodes) expect((await redisReported(n, true)).status).toBe(200);

        await redis.stop();
        for (const n of nodes) {
          const { status, ready } = await redisReported(n, false);
          expect(status).toBe(200); // the node stays in the load balancer
          expect(ready.status).toBe('ready');
        }

        await alternate(id, play, MOVES, 0, address);
        expect(play.acked).toBe(MOVES);
        expect(play.stale).toBe(0);
        console.log(
          `redis away: ${MOVES} moves alternating nodes, slowest ${play.slowest.toFixed(1)} ms, ${play.stale} stale reads`,
        );
        expect(play.slowest).toBeLessThan(MOVE_BUDGET_MS);
        expect(await stored(id)).toEqual({ version: MOVES, moves: MOVES });

        // New games and players go on; the player-creation limit counts on each node by itself meanwhile.
        const game = await call(nodes[1], 'POST', '/api/games', address, {});
        expect(game.status).toBe(201);
        expect(game.ms).toBeLessThan(MOVE_BUDGET_MS);
        const creator = '10.46.2.2';
        const statuses: number[] = [];
        for (let i = 0; i <= PLAYER_LIMIT; i++)
          statuses.push(
            (await call(nodes[0], 'POST', '/api/players', creator, { name: `Away ${i}` })).status,
          );
        expect(statuses).toEqual([...Array<number>(PLAYER_LIMIT).fill(201), 429]);
        expect((await call(nodes[1], 'POST', '/api/players', creator, { name: 'Away B' })).status).toBe(201);

        await redis.start();
        for (const n of nodes) expect((await redisReported(n, true)).status).toBe(200);
        // B re-read the game it follows when the bus came back, and told its socket.
        await watcher.waitFor((f) => isState(f) && f.type === 'state' && f.version === MOVES, 0, 10_000);
        const before = watcher.frames.length;
        const r = await call(nodes[0], 'POST', `/api/games/${id}/moves`, address, {
          move: play.next,
          version: MOVES,
        });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        const heard = await watcher.waitFor(isState, before, 10_000);
        expect(heard).toMatchObject({ type: 'state', version: MOVES + 1 });

        // The limit is shared again: one count across both nodes.
        const again = '10.46.2.3';
        const shared: number[] = [];
        for (let i = 0; i <= PLAYER_LIMIT; i++)
          shared.push(
            (await call(nodes[i % 2] as ServerProcess, 'POST', '/api/players', again, { name: `Back ${i}` }))
              .status,
          );
        expect(shared).toEqual([...Array<number>(PLAYER_LIMIT).fill(201), 429]);
      } finally {
        watcher.close();
      }
    }, 180_000);
  },
);

describe.skipIf(!HAVE_REDIS_SERVER)('fault: the cluster lease while Redis is away', () => {
  it('its holder gives it up while Redis is away (no two holders) and one node retakes it on its return', async () => {
    const redis = await startPrivateRedis();
    const prefix = `lease-${randomBytes(4).toString('hex')}:`;
    const ttl = 600;
    const buses = [0, 1, 2].map(() => new RedisBus(redis.url, prefix, () => {}));
    const leases = buses.map((b) => clusterLease(b, prefix, 'duty', ttl));
    const holders = () => leases.filter((l) => l.held).length;
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, holders())), 10);
    try {
      await Promise.all(buses.map((b) => b.ready()));
      for (const l of leases) l.start(() => {});
      await sleep(ttl);
      expect(holders()).toBe(1);

      await redis.stop();
      await sleep(ttl + 100); // the holder cannot renew: it gives the duty up before its key could expire
      expect(holders()).toBe(0);

      await redis.start();
      const deadline = Date.now() + 5000;
      while (holders() === 0 && Date.now() < deadline) await sleep(50);
      expect(holders()).toBe(1);
      await sleep(ttl);
      expect(holders()).toBe(1);
      expect(most).toBe(1); // never two at once
    } finally {
      clearInterval(watch);
      await Promise.all(leases.map((l) => l.stop()));
      await Promise.all(buses.map((b) => b.close()));
      await redis.stop();
    }
  }, 30_000);
});
