/**
 * What a move costs Redis with several nodes (`pnpm bench:echo`): two server nodes (from source, tsx) on one
 * fresh Postgres schema and a Redis this benchmark starts itself on a free port (so its counters count this
 * run alone). A game made on node A is played over a socket on A (BENCH_ECHO_MOVES moves, default 200: a
 * draw, or a recycle once the stock is empty, each waiting for its `state` frame), followed
 * 1. by that socket alone (one node watching the game), then
 * 2. by a second socket on node B too (two nodes watching).
 * For each phase Redis's own counters (`INFO stats` total_net_output_bytes, `INFO commandstats`
 * cmdstat_publish calls) are read before and after; the same wait without moves is measured first (the
 * nodes' idle traffic: lease renewals, the reading itself) and taken off. Printed: bytes out of Redis and
 * PUBLISHes per move, raw and net of idle. Rate limits are off and no move goes over REST, so no counter of
 * theirs is in the figures. BENCH_DATABASE_URL as for `pnpm bench:server`; the schema is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { type ServerFrame, GameResponseSchema } from '@klondike/protocol';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type ServerProcess, killProcess, startServerProcess } from '../test/support/processes.js';
import { type PrivateRedis, startPrivateRedis } from '../test/support/redis-server.js';
import { redisCounters } from './cluster-soak/measures.js';
import { ensureDatabase } from './database.js';
import { RequestSocket } from './request-socket.js';
import { envNumber } from './settings.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const MOVES = Math.max(1, Math.round(envNumber('BENCH_ECHO_MOVES', 200)));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Redis's counters now. */
type Counters = Awaited<ReturnType<typeof redisCounters>>;
const minus = (a: Counters, b: Counters): Counters => ({
  commands: a.commands - b.commands,
  publishes: a.publishes - b.publishes,
  netOut: a.netOut - b.netOut,
});

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  const url = new URL(DATABASE_URL);
  const schema = `bench_echo_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  url.searchParams.set('schema', schema);
  const nodes: ServerProcess[] = [];
  let redis: PrivateRedis | undefined;
  let counters: Redis | undefined;
  try {
    redis = await startPrivateRedis();
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'echo:',
      RATE_LIMIT_MAX: '0',
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      SOLVER_THREADS: '1',
      WEB_DIST: '/nonexistent-web-dist',
    };
    const a = await startServerProcess(env); // migrates the schema first
    nodes.push(a);
    const b = await startServerProcess(env);
    nodes.push(b);
    counters = new Redis(redis.url);
    const made = await fetch(`${a.base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dealNumber: 57 }),
    });
    const { id } = GameResponseSchema.parse(await made.json());
    const isState = (version: number) => (f: ServerFrame) =>
      f.type === 'state' && f.gameId === id && f.version === version;
    const onA = await RequestSocket.open(a.ws);
    let last = await onA.request({ type: 'subscribe', gameId: id }, isState(0));
    await sleep(1500); // the interest announcements have settled
    let version = 0;

    /** Plays MOVES moves over A's socket; returns the counters' change and how long it took, ms. */
    const play = async (): Promise<{ delta: Counters; ms: number }> => {
      const before = await redisCounters(counters!);
      const t0 = performance.now();
      for (let i = 0; i < MOVES; i++) {
        const stock = last.type === 'state' ? last.view.stock.count : 0;
        const move = stock > 0 ? { type: 'draw' } : { type: 'recycle' };
        last = await onA.request({ type: 'move', gameId: id, move, version }, isState(version + 1));
        version++;
      }
      const ms = performance.now() - t0;
      await sleep(300); // frames still on their way
      return { delta: minus(await redisCounters(counters!), before), ms };
    };
    /** The counters' change over `ms` of no moves. */
    const idle = async (ms: number): Promise<Counters> => {
      const before = await redisCounters(counters!);
      await sleep(ms + 300);
      return minus(await redisCounters(counters!), before);
    };
    const report = (label: string, run: { delta: Counters; ms: number }, quiet: Counters) => {
      const per = (x: number) => Math.round((x / MOVES) * 10) / 10;
      console.log(
        `${label}: ${MOVES} moves in ${Math.round(run.ms)} ms; Redis out ${per(run.delta.netOut)} B/move ` +
          `(${per(run.delta.netOut - quiet.netOut)} net of idle), PUBLISH ${per(run.delta.publishes)}/move ` +
          `(${per(run.delta.publishes - quiet.publishes)} net), commands ${per(run.delta.commands)}/move`,
      );
    };

    const one = await play();
    const quiet = await idle(one.ms);
    console.log(
      `idle over ${Math.round(one.ms)} ms: Redis out ${quiet.netOut} B, PUBLISH ${quiet.publishes}, commands ${quiet.commands}`,
    );
    report('one node watching', one, quiet);

    const onB = await RequestSocket.open(b.ws);
    await onB.request({ type: 'subscribe', gameId: id }, isState(version));
    await sleep(1500);
    report('two nodes watching', await play(), quiet);
    onA.close();
    onB.close();
  } finally {
    counters?.disconnect();
    for (const n of nodes) await killProcess(n);
    await redis?.stop();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
