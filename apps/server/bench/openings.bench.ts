/**
 * One node's midnight (`pnpm bench:openings`): BENCH_OPENINGS players (default 1,700, a third of the 5,000 of
 * `pnpm soak:midnight`) open today's ranked Draw 1 daily at the same instant, over HTTP, against one server
 * process on Postgres (built as `pnpm start` runs it: dist/main.js with the production flags). Before the
 * instant every player has made one request with its token (as a player arriving at the site has), and
 * today's dailies are ready. Printed: the openings' answer time p50/p99/max from the instant, statuses,
 * the server's CPU over the burst, Postgres's CPU (every `postgres` process) and the statements the openings
 * took (`pg_stat_statements` when the extension is there, else not shown). BENCH_ROUNDS (default 3) fresh
 * schemas, one after another; BENCH_DATABASE_URL as for `pnpm bench:server`; BENCH_PROFILE_DIR: the server
 * writes a V8 CPU profile of its whole run there.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { killProcess, startServerProcess } from '../test/support/processes.js';
import { ensureDatabase } from './database.js';
import { cpuSecondsOf } from './proc.js';
import { cpuOfCommand, summary } from './cluster-soak/measures.js';
import { PRODUCTION, SERVER_DIR } from './cluster-soak/settings.js';
import { envNumber } from './settings.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const PLAYERS = Math.max(1, Math.round(envNumber('BENCH_OPENINGS', 1700)));
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));

/** One connection per player, as many browsers would have: no limit on the agent's sockets. */
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** One request over `agent`; resolves with the status and the parsed JSON body. */
function call(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function round(n: number): Promise<Record<string, unknown>> {
  const schema = `bench_open_${randomBytes(4).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.searchParams.set('schema', schema);
  const server = await startServerProcess(
    {
      ...PRODUCTION.env,
      DATABASE_URL: url.toString(),
      RATE_LIMIT_MAX: '0',
      PLAYER_CREATE_RATE_MAX: '0',
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      DAILY_SOLVE_MS: '500',
      SOLVER_THREADS: '1',
      SOLVER_BACKGROUND_THREADS: '0',
      MAINTENANCE_TICK_MS: '0',
      WEB_DIST: '/nonexistent-web-dist',
    },
    [
      ...PRODUCTION.nodeFlags,
      ...(process.env.BENCH_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
        : []),
      'dist/main.js',
    ],
  );
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    const tokens: string[] = [];
    for (let i = 0; i < n; i += 100) {
      const made = await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, (_, k) =>
          call(server.base, 'POST', '/api/players', undefined, { name: `opener ${i + k}`, bot: true }),
        ),
      );
      for (const m of made) {
        if (m.status !== 201) throw new Error(`POST /api/players → ${m.status} ${JSON.stringify(m.json)}`);
        tokens.push((m.json as { token: string }).token);
      }
    }
    const today = await call(server.base, 'GET', '/api/daily');
    if (today.status !== 200) throw new Error(`GET /api/daily → ${today.status}`);
    const date = (today.json as { date: string }).date;
    // Every player has been seen once with its token (the site's first page), on its own connection.
    for (let i = 0; i < n; i += 200)
      await Promise.all(tokens.slice(i, i + 200).map((t) => call(server.base, 'GET', '/api/me', t)));
    const statements = await db
      .query(`SELECT pg_stat_statements_reset()`)
      .then(() => true)
      .catch(() => false);
    // A quiet second before the instant: the burst stands apart in a CPU profile of the run.
    await new Promise((res) => setTimeout(res, 1000));
    const cpu0 = { server: cpuSecondsOf(server.child.pid ?? -1), postgres: cpuOfCommand('postgres') };
    const t0 = performance.now();
    const times: number[] = [];
    const statuses = new Map<number, number>();
    await Promise.all(
      tokens.map(async (t) => {
        const r = await call(server.base, 'POST', `/api/daily/${date}/classic-draw1/attempt`, t);
        times.push(performance.now() - t0);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }),
    );
    const wall = performance.now() - t0;
    const cpu1 = { server: cpuSecondsOf(server.child.pid ?? -1), postgres: cpuOfCommand('postgres') };
    let calls: number | null = null;
    if (statements) {
      const [row] = (
        await db.query<{ calls: string }>(
          `SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements WHERE query LIKE '%DailyAttempt%'`,
        )
      ).rows;
      calls = Number(row?.calls ?? 0);
    }
    return {
      openings: n,
      answerMs: summary(times),
      wallMs: Math.round(wall),
      statuses: Object.fromEntries(statuses),
      serverCpuMs: Math.round((cpu1.server - cpu0.server) * 1000),
      postgresCpuMs: Math.round((cpu1.postgres - cpu0.postgres) * 1000),
      ...(calls === null ? {} : { insertStatements: calls }),
      load: loadavg().map((x) => +x.toFixed(2)),
    };
  } finally {
    // SIGTERM first: a profiled server writes its profile as it exits.
    const exited = new Promise<void>((res) => server.child.once('exit', () => res()));
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((res) => setTimeout(res, 15_000))]);
    await killProcess(server);
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db.end();
  }
}

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  console.log(
    `bench:openings: ${PLAYERS} players at one instant on one node (${SERVER_DIR}), ${ROUNDS} rounds`,
  );
  for (let r = 0; r < ROUNDS; r++) console.log(JSON.stringify(await round(PLAYERS)));
  agent.destroy();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
