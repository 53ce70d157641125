/**
 * A midnight's openings without the soak's bots (`pnpm bench:openings`): BENCH_OPENINGS players (default
 * 1,700, a third of the 5,000 of `pnpm soak:midnight`) open today's ranked Draw 1 daily at the same instant,
 * over HTTP, against BENCH_NODES server processes (default 1; more share one database and Redis behind nginx,
 * least-connections, as deploy/nginx.conf) on Postgres, built as `pnpm start` runs them (dist/main.js with the
 * production flags). Before the instant every player has made one request with its token on its own
 * connection (as a player arriving at the site has), and today's dailies are ready.
 *
 * Then **the floor**, unless BENCH_BARE=0: the same players, the same driver, the same nginx geometry, against
 * as many bare Fastify processes (bench/openings-bare-server.ts) answering the attempt's route with the body a
 * real node answered and doing nothing else. The floor's answer times are what the box, the HTTP stack, nginx
 * and the load generator cost before a server does any work: the real figure's distance from it is the
 * server's share.
 *
 * BENCH_OPEN_OVER=socket: the players open over the socket instead, as the web client does: before the instant
 * each holds a WebSocket (through nginx with several nodes) on which it has sent `auth`; at the instant each
 * sends `daily-attempt` and its answer time is to its `daily-opened` frame. Its floor's bare servers answer
 * `auth` and `daily-attempt` on `/api/ws` with the frames a real node sent.
 *
 * Printed a round: for the real and the bare instant, the answer time p50/p99/max from the instant,
 * statuses, and the CPU each part spent over it (the nodes, Postgres's processes, nginx's, the driver's own);
 * for the real one the statements the openings took (`pg_stat_statements` when the extension is there).
 * BENCH_ROUNDS (default 3) fresh schemas, one after another; BENCH_DATABASE_URL as for `pnpm bench:server`;
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379) when BENCH_NODES > 1; BENCH_PROFILE_DIR: the first node
 * writes a V8 CPU profile of its whole run there.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, killProcess, type ServerProcess, startServerProcess } from '../test/support/processes.js';
import { ensureDatabase } from './database.js';
import { startNginx, type RunningNginx } from './nginx.js';
import { cpuSecondsOf, idle } from './proc.js';
import { cpuOfCommand, summary } from './cluster-soak/measures.js';
import { PRODUCTION, SERVER_DIR } from './cluster-soak/settings.js';
import { benchAgent, httpCall } from './http-call.js';
import { envNumber } from './settings.js';
import { RequestSocket } from './request-socket.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const PLAYERS = Math.max(1, Math.round(envNumber('BENCH_OPENINGS', 1700)));
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
const NODES = Math.max(1, Math.round(envNumber('BENCH_NODES', 1)));
const BARE = process.env.BENCH_BARE !== '0';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
/** How the players open: `rest` (POST …/attempt, the default) or `socket` (`daily-attempt`), BENCH_OPEN_OVER. */
const OPEN_OVER: 'rest' | 'socket' = process.env.BENCH_OPEN_OVER === 'socket' ? 'socket' : 'rest';

/** One request (http-call.ts); resolves with the status and the parsed JSON body. */
async function call(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const r = await httpCall(base, method, path, token, body);
  return { status: r.status, json: JSON.parse(r.text) as unknown };
}

/** The CPU seconds so far of each part of one instant: the server processes, Postgres, nginx, this driver. */
function cpuNow(
  servers: readonly ServerProcess[],
): Record<'servers' | 'postgres' | 'nginx' | 'driver', number> {
  const own = process.cpuUsage();
  return {
    servers: servers.reduce((sum, s) => sum + cpuSecondsOf(s.child.pid ?? -1), 0),
    postgres: cpuOfCommand('postgres'),
    nginx: cpuOfCommand('nginx'),
    driver: (own.user + own.system) / 1e6,
  };
}

/** Servers and, with more than one, nginx in front: where the players go (`base`). */
interface Geometry {
  readonly servers: ServerProcess[];
  readonly proxy: RunningNginx | null;
  readonly base: string;
}

/** Puts nginx in front of `servers` when there are several. */
async function front(servers: ServerProcess[], players: number): Promise<Geometry> {
  if (servers.length === 1) return { servers, proxy: null, base: servers[0]!.base };
  const proxy = await startNginx(
    await freePort(),
    servers.map((s) => Number(new URL(s.base).port)),
    // Per player one client connection, and the upstream side of each; as deploy/nginx.conf, least-conn.
    { connections: Math.max(1024, players * 3), balance: 'least-conn' },
  );
  return { servers, proxy, base: proxy.url };
}

/** Stops the geometry: SIGTERM first (a profiled server writes its profile as it exits), then SIGKILL. */
async function stop(g: Geometry): Promise<void> {
  await g.proxy?.stop();
  await Promise.all(
    g.servers.map(async (s) => {
      const exited = new Promise<void>((res) => s.child.once('exit', () => res()));
      s.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((res) => setTimeout(res, 15_000))]);
      await killProcess(s);
    }),
  );
}

/** Every player makes one request with its token on its own connection (the site's first page). */
async function arrive(base: string, tokens: readonly string[]): Promise<void> {
  for (let i = 0; i < tokens.length; i += 200)
    await Promise.all(tokens.slice(i, i + 200).map((t) => call(base, 'GET', '/api/me', t)));
}

/** Opens a socket to `base`'s /api/ws and authenticates it with `token` (`auth` → `authed`). */
async function openSocket(base: string, token: string): Promise<RequestSocket> {
  const socket = await RequestSocket.open(`${base.replace('http', 'ws')}/api/ws`);
  const authed = await socket.request(
    { type: 'auth', token },
    (f) => f.type === 'authed' || f.type === 'error',
  );
  if (authed.type !== 'authed') throw new Error(`auth answered ${JSON.stringify(authed)}`);
  return socket;
}

/** Every player's socket, authenticated (200 at a time). */
async function openSockets(base: string, tokens: readonly string[]): Promise<RequestSocket[]> {
  const sockets: RequestSocket[] = [];
  for (let i = 0; i < tokens.length; i += 200)
    sockets.push(...(await Promise.all(tokens.slice(i, i + 200).map((t) => openSocket(base, t)))));
  return sockets;
}

/** One opening: over REST, or over the player's socket (answer status 201 for `daily-opened`, else 0). */
async function openOne(
  g: Geometry,
  date: string,
  token: string,
  socket: RequestSocket | undefined,
  i: number,
): Promise<{ status: number; json: unknown }> {
  if (socket === undefined) return call(g.base, 'POST', `/api/daily/${date}/classic-draw1/attempt`, token);
  const requestId = `open-${i}`;
  const f = await socket.request(
    { type: 'daily-attempt', date, preset: 'classic-draw1', requestId },
    (x) => 'requestId' in x && x.requestId === requestId,
    60_000,
  );
  return f.type === 'daily-opened' ? { status: 201, json: f.game } : { status: 0, json: f };
}

/**
 * Every player opens today's attempt at the same instant, once the servers are idle and after a quiet second (so
 * that the burst stands apart in a CPU profile), over REST or over its socket (`sockets`, BENCH_OPEN_OVER=socket). Resolves with the answer
 * times from the instant, statuses (0: an error frame), the CPU of each part over the instant (ms), and one
 * opened game.
 */
async function instant(
  g: Geometry,
  date: string,
  tokens: readonly string[],
  sockets: readonly RequestSocket[] = [],
): Promise<{ report: Record<string, unknown>; answer: unknown }> {
  await idle(g.servers.map((s) => s.child.pid ?? -1));
  await new Promise((res) => setTimeout(res, 1000));
  const cpu0 = cpuNow(g.servers);
  const t0 = performance.now();
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let answer: unknown = null;
  await Promise.all(
    tokens.map(async (t, i) => {
      const r = await openOne(g, date, t, sockets[i], i);
      times.push(performance.now() - t0);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 201) answer ??= r.json;
    }),
  );
  const wall = performance.now() - t0;
  const cpu1 = cpuNow(g.servers);
  const cpuMs = Object.fromEntries(
    (Object.keys(cpu1) as (keyof typeof cpu1)[]).map((k) => [k, Math.round((cpu1[k] - cpu0[k]) * 1000)]),
  );
  return {
    report: {
      answerMs: summary(times),
      wallMs: Math.round(wall),
      statuses: Object.fromEntries(statuses),
      cpuMs,
      load: loadavg().map((x) => +x.toFixed(2)),
    },
    answer,
  };
}

/** The real servers on a fresh schema: the first migrates it, the others start beside it. */
async function startReal(schemaUrl: string, prefix: string): Promise<ServerProcess[]> {
  const env: Record<string, string> = {
    ...PRODUCTION.env,
    DATABASE_URL: schemaUrl,
    RATE_LIMIT_MAX: '0',
    PLAYER_CREATE_RATE_MAX: '0',
    // The daily job on, as in production: its start-up work is waited out (`idle`) before the instant.
    DAILY_SCHEDULE: 'on',
    ARENA_SCHEDULE: 'off',
    DAILY_ARCHIVE_DAYS: '0',
    DAILY_SOLVE_MS: '500',
    SOLVER_THREADS: '1',
    SOLVER_BACKGROUND_THREADS: '0',
    MAINTENANCE_TICK_MS: '0',
    WEB_DIST: '/nonexistent-web-dist',
    ...(NODES > 1 ? { REDIS_URL, REDIS_PREFIX: prefix, TRUST_PROXY: 'true' } : {}),
  };
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const first = await startServerProcess(env, [...PRODUCTION.nodeFlags, ...profile, 'dist/main.js']);
  const others = await Promise.all(
    Array.from({ length: NODES - 1 }, () =>
      startServerProcess(env, [...PRODUCTION.nodeFlags, 'dist/main.js']),
    ),
  );
  return [first, ...others];
}

async function round(n: number): Promise<Record<string, unknown>> {
  const schema = `bench_open_${randomBytes(4).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.searchParams.set('schema', schema);
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const dir = mkdtempSync(join(tmpdir(), 'bench-openings-'));
  let g: Geometry | null = null;
  try {
    g = await front(await startReal(url.toString(), `bench-${schema}:`), n);
    const tokens: string[] = [];
    for (let i = 0; i < n; i += 100) {
      const made = await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, (_, k) =>
          call(g!.base, 'POST', '/api/players', undefined, { name: `opener ${i + k}`, bot: true }),
        ),
      );
      for (const m of made) {
        if (m.status !== 201) throw new Error(`POST /api/players → ${m.status} ${JSON.stringify(m.json)}`);
        tokens.push((m.json as { token: string }).token);
      }
    }
    const today = await call(g.base, 'GET', '/api/daily');
    if (today.status !== 200) throw new Error(`GET /api/daily → ${today.status}`);
    const date = (today.json as { date: string }).date;
    await arrive(g.base, tokens);
    let sockets = OPEN_OVER === 'socket' ? await openSockets(g.base, tokens) : [];
    const statements = await db
      .query(`SELECT pg_stat_statements_reset()`)
      .then(() => true)
      .catch(() => false);
    const real = await instant(g, date, tokens, sockets);
    for (const ws of sockets) ws.close();
    if (statements) {
      const [row] = (
        await db.query<{ calls: string }>(
          `SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements WHERE query LIKE '%DailyAttempt%'`,
        )
      ).rows;
      real.report.insertStatements = Number(row?.calls ?? 0);
    }
    await stop(g);
    g = null;
    const head = { openings: n, nodes: NODES, openOver: OPEN_OVER };
    if (!BARE || real.answer === null) return { ...head, real: real.report };
    // The floor: the same players, driver and geometry; servers that only answer.
    const answerFile = join(dir, 'answer.json');
    writeFileSync(answerFile, JSON.stringify(real.answer));
    const bare = await Promise.all(
      Array.from({ length: NODES }, () =>
        startServerProcess({ BARE_ANSWER_FILE: answerFile }, [
          '--import',
          'tsx',
          'bench/openings-bare-server.ts',
        ]),
      ),
    );
    g = await front(bare, n);
    await arrive(g.base, tokens);
    sockets = OPEN_OVER === 'socket' ? await openSockets(g.base, tokens) : [];
    const floor = await instant(g, date, tokens, sockets);
    for (const ws of sockets) ws.close();
    return { ...head, real: real.report, bare: floor.report };
  } finally {
    if (g !== null) await stop(g);
    rmSync(dir, { recursive: true, force: true });
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db.end();
  }
}

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  console.log(
    `bench:openings: ${PLAYERS} players at one instant over ${OPEN_OVER === 'socket' ? 'their sockets' : 'REST'} on ${NODES} node(s)${NODES > 1 ? ' behind nginx' : ''} (${SERVER_DIR}), ${ROUNDS} rounds${BARE ? ', each with its bare floor' : ''}`,
  );
  for (let r = 0; r < ROUNDS; r++) console.log(JSON.stringify(await round(PLAYERS)));
  benchAgent.destroy();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
