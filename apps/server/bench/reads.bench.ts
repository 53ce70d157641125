/**
 * What a fresh read costs with several nodes (`pnpm bench:reads`): `GET /api/games/:id` of games held in
 * memory, answered by
 * 1. one node alone (no Redis: its copy is the truth, no probe);
 * 2. node B of two on one Postgres and a Redis this benchmark starts itself on a free port, for games
 *    made on node A (every read first asks Postgres for the game's version by primary key);
 * and, in this process, the probe alone: `Database.gameVersion` (a prepared statement on the pg pool) next
 * to the same look-up through Prisma (`game.findUnique … select version`), one at a time.
 * Each HTTP phase: BENCH_READ_GAMES games (default 50), BENCH_READ_CLIENTS requests in flight (default 8), a
 * closed loop for BENCH_SECONDS (default 3) after a second of warm-up, rate limits off; the two phases
 * alternate BENCH_ROUNDS times (default 3) and the medians are printed: reads/s, round-trip p50/p99, and
 * CPU per read of the answering server and of every `postgres` process (the shared Postgres server: other
 * work on it shows up there). The servers run from source (tsx). BENCH_DATABASE_URL as for
 * `pnpm bench:server`; the fresh `bench_reads_…` schemas are dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { GameResponseSchema } from '@klondike/protocol';
import pg from 'pg';
import { openDatabase } from '../src/infra/db/database.js';
import { type ServerProcess, killProcess, startServerProcess } from '../test/support/processes.js';
import { type PrivateRedis, startPrivateRedis } from '../test/support/redis-server.js';
import { ensureDatabase } from './database.js';
import { cpuSecondsOf, parseStat } from './proc.js';
import { envNumber } from './settings.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const GAMES = Math.max(1, Math.round(envNumber('BENCH_READ_GAMES', 50)));
const CLIENTS = Math.max(1, Math.round(envNumber('BENCH_READ_CLIENTS', 8)));
const SECONDS = Math.max(1, envNumber('BENCH_SECONDS', 3));
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
const PROBES = 2000;

/** CPU seconds of every process named `postgres` (the server and its backends). */
async function postgresCpu(): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const s = parseStat(await readFile(`/proc/${entry}/stat`, 'utf8'));
      if (s.name === 'postgres') total += s.cpu;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

const PREFIX = `bench-${randomBytes(4).toString('hex')}:`;

function nodeEnv(databaseUrl: string, redisUrl?: string): Record<string, string | undefined> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: PREFIX,
    RATE_LIMIT_MAX: '0',
    DAILY_SCHEDULE: 'off',
    DAILY_ARCHIVE_DAYS: '0',
    SOLVER_THREADS: '1',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent-web-dist',
  };
}

async function createGames(node: ServerProcess): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < GAMES; i++) {
    const r = await fetch(`${node.base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dealNumber: 1000 + i }),
    });
    ids.push(GameResponseSchema.parse(await r.json()).id);
  }
  return ids;
}

interface PhaseResult {
  readonly name: string;
  readonly reads: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  readonly serverUs: number;
  readonly postgresUs: number;
}

/** Reads the games on `node` from CLIENTS loops: a second of warm-up, then SECONDS measured. */
async function readLoop(name: string, node: ServerProcess, ids: readonly string[]): Promise<PhaseResult> {
  const pid = node.child.pid ?? -1;
  let measuring = false;
  let stop = false;
  const rtts: number[] = [];
  const loop = async (k: number): Promise<void> => {
    for (let i = k; !stop; i++) {
      const t0 = performance.now();
      const r = await fetch(`${node.base}/api/games/${ids[i % ids.length] ?? ''}`);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`read answered ${r.status}`);
      if (measuring) rtts.push(performance.now() - t0);
    }
  };
  const loops = Array.from({ length: CLIENTS }, (_, k) => loop(k * 7));
  await new Promise((r) => setTimeout(r, 1000));
  const cpu0 = cpuSecondsOf(pid);
  const pg0 = await postgresCpu();
  const t0 = performance.now();
  measuring = true;
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuSecondsOf(pid);
  const pg1 = await postgresCpu();
  stop = true;
  await Promise.all(loops);
  rtts.sort((a, b) => a - b);
  const q = (p: number) => rtts[Math.min(rtts.length - 1, Math.floor(p * rtts.length))] ?? NaN;
  return {
    name,
    reads: rtts.length,
    seconds,
    p50: q(0.5),
    p99: q(0.99),
    serverUs: ((cpu1 - cpu0) * 1e6) / rtts.length,
    postgresUs: ((pg1 - pg0) * 1e6) / rtts.length,
  };
}

/** Mean round trip and mean CPU of this process of `fn` called PROBES times one after another, µs. */
async function meanUs(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < 200; i++) await fn(); // warm-up
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < PROBES; i++) await fn();
  const wall = ((performance.now() - t0) * 1000) / PROBES;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / PROBES };
}

/** The median of `xs` (NaN when empty). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** A fresh schema for one configuration, as a URL. */
function schemaUrl(tag: string): string {
  const u = new URL(DATABASE_URL);
  u.searchParams.set(
    'schema',
    `bench_reads_${tag}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`,
  );
  return u.toString();
}

async function dropSchemaOf(url: string): Promise<void> {
  const schema = new URL(url).searchParams.get('schema') ?? '';
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin
    .query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '""')}" CASCADE`)
    .finally(() => admin.end());
}

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  const aloneUrl = schemaUrl('alone');
  const pairUrl = schemaUrl('pair');
  const started: ServerProcess[] = [];
  let redis: PrivateRedis | undefined;
  const windows = new Map<string, PhaseResult[]>();
  let probe: { raw: { wall: number; cpu: number }; prisma: { wall: number; cpu: number } } | undefined;
  try {
    redis = await startPrivateRedis();
    const alone = await startServerProcess(nodeEnv(aloneUrl));
    started.push(alone);
    const a = await startServerProcess(nodeEnv(pairUrl, redis.url));
    started.push(a);
    const b = await startServerProcess(nodeEnv(pairUrl, redis.url));
    started.push(b);
    const phases = [
      { name: 'one node (no probe)', node: alone, ids: await createGames(alone) },
      { name: 'node B of two, games made on A (probe)', node: b, ids: await createGames(a) },
    ];
    // Alternating windows, so that both configurations see the same machine (other load comes and goes).
    for (let round = 0; round < ROUNDS; round++)
      for (const p of phases) {
        const list = windows.get(p.name) ?? [];
        list.push(await readLoop(p.name, p.node, p.ids));
        windows.set(p.name, list);
      }

    const db = await openDatabase({ kind: 'postgres', url: pairUrl });
    try {
      const id = phases[1]?.ids[0] ?? '';
      probe = {
        raw: await meanUs(() => db.gameVersion(id)),
        prisma: await meanUs(() => db.prisma.game.findUnique({ where: { id }, select: { version: true } })),
      };
    } finally {
      await db.close();
    }
  } finally {
    for (const s of started) await killProcess(s);
    await redis?.stop();
    await dropSchemaOf(aloneUrl);
    await dropSchemaOf(pairUrl);
  }
  const f = (n: number, d = 1) => n.toFixed(d);
  console.log(
    `\nFresh reads: GET /api/games/:id, ${GAMES} games in memory, ${CLIENTS} in flight, ` +
      `${ROUNDS} alternating windows of ${SECONDS} s each; medians of the windows\n`,
  );
  console.log('| phase | reads/s | p50 ms | p99 ms | server CPU µs/read | postgres CPU µs/read |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, list] of windows) {
    const m = (pick: (r: PhaseResult) => number) => median(list.map(pick));
    console.log(
      `| ${name} | ${f(
        m((r) => r.reads / r.seconds),
        0,
      )} | ${f(
        m((r) => r.p50),
        2,
      )} | ${f(
        m((r) => r.p99),
        2,
      )} | ` +
        `${f(
          m((r) => r.serverUs),
          0,
        )} | ${f(
          m((r) => r.postgresUs),
          0,
        )} |`,
    );
  }
  if (probe)
    console.log(
      `\nThe probe alone, one at a time in this process (round trip / this process's CPU per call): ` +
        `Database.gameVersion ${f(probe.raw.wall, 0)} / ${f(probe.raw.cpu, 0)} µs, ` +
        `Prisma findUnique (select version) ${f(probe.prisma.wall, 0)} / ${f(probe.prisma.cpu, 0)} µs.`,
    );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
