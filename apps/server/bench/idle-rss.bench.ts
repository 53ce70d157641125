/**
 * Idle memory of the production server: `pnpm --filter @klondike/server bench:idle` (not in CI; Linux, reads
 * /proc). Starts the built server exactly as `pnpm start` does (the start script's environment and node flags,
 * bench/production-start.ts) on a database it has never seen, so that the server does its first start's
 * work as in production: migrations, and the daily job's backfill of the archive (DAILY_ARCHIVE_DAYS closed
 * days, two presets each, every deal certified by the solver on its worker thread). It then waits until the
 * process is idle and reports its resident memory, on Postgres (a fresh database, dropped at the end) and on
 * the embedded PGlite (a fresh data folder, removed at the end). Budget (on Postgres): ≤ 250 MB idle.
 *
 * What it reports per start: RSS once /api/health answers, the peak (VmHWM), when the process became idle
 * (less than IDLE_CPU_SHARE of one core over the last IDLE_QUIET_SECONDS), RSS then, and RSS
 * IDLE_SETTLE_SECONDS later, which the budget is checked against: by then the solver thread has ended
 * (SOLVER_IDLE_MS, 30 s without a job) and V8 has shrunk the idle heaps.
 *
 * Env:
 * - IDLE_DATABASE_URL: the Postgres server (default postgresql://postgres@127.0.0.1:5432/postgres); each run
 *   creates and drops its own database there.
 * - IDLE_DATABASES: `postgres,pglite` (default both).
 * - IDLE_COMPARE=1: each database also once without the start script's environment (glibc's default malloc
 *   thresholds), to show what that setting is worth.
 * - IDLE_ARCHIVE_DAYS: DAILY_ARCHIVE_DAYS for the server (default: the server's own default).
 * - IDLE_QUIET_SECONDS (10), IDLE_CPU_SHARE (0.02), IDLE_SETTLE_SECONDS (60), IDLE_TIMEOUT_SECONDS (900).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { cpuSecondsOf, rssOf, statusBytesOf } from './proc.js';
import { productionStart } from './production-start.js';
import { killProcess, type ServerProcess, startServerProcess } from '../test/support/processes.js';
import { envNumber } from './settings.js';
import { gitHead } from './run-info.js';

const SERVER_DIR = resolve(import.meta.dirname, '..');
const PRODUCTION = productionStart(SERVER_DIR);

const BASE_URL = process.env.IDLE_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASES = (process.env.IDLE_DATABASES ?? 'postgres,pglite')
  .split(',')
  .map((d) => d.trim())
  .filter((d): d is 'postgres' | 'pglite' => {
    if (d === 'postgres' || d === 'pglite') return true;
    if (d !== '') throw new Error(`IDLE_DATABASES: unknown database ${d} (postgres, pglite)`);
    return false;
  });
const COMPARE = process.env.IDLE_COMPARE === '1';
const ARCHIVE_DAYS = process.env.IDLE_ARCHIVE_DAYS;
const QUIET_S = Math.max(2, envNumber('IDLE_QUIET_SECONDS', 10));
const CPU_SHARE = envNumber('IDLE_CPU_SHARE', 0.02);
const SETTLE_S = envNumber('IDLE_SETTLE_SECONDS', 60);
const TIMEOUT_S = Math.max(30, envNumber('IDLE_TIMEOUT_SECONDS', 900));
/** The budget: idle RSS of the built server on Postgres. */
const BUDGET_BYTES = 250 * 1024 * 1024;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** One start of the server and what it measured. */
interface Start {
  readonly database: 'postgres' | 'pglite';
  readonly production: boolean;
  readonly listeningMs: number;
  readonly rssListening: number;
  readonly idleMs: number;
  readonly rssIdle: number;
  readonly rssSettled: number;
  readonly peak: number;
}

/** Runs `fn` with a Postgres connection to the server's maintenance database. */
async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** One first start on a fresh database: listening, then idle, then settled. */
async function measureStart(database: 'postgres' | 'pglite', production: boolean): Promise<Start> {
  const dbName = `klondike_idle_${randomBytes(4).toString('hex')}`;
  const dataDir = database === 'pglite' ? mkdtempSync(join(tmpdir(), 'klondike-idle-')) : undefined;
  if (database === 'postgres') await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
  const dbUrl = new URL(BASE_URL);
  dbUrl.pathname = `/${dbName}`;
  // "Without the start script's environment" means glibc's defaults, whatever this shell exported.
  const unset = Object.fromEntries(Object.keys(PRODUCTION.env).map((name) => [name, undefined]));
  const t0 = performance.now();
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(
      {
        ...unset,
        ...(production ? PRODUCTION.env : {}),
        DATABASE_URL: database === 'postgres' ? dbUrl.toString() : '',
        ...(dataDir !== undefined ? { DATA_DIR: dataDir } : {}),
        ...(ARCHIVE_DAYS !== undefined ? { DAILY_ARCHIVE_DAYS: ARCHIVE_DAYS } : {}),
      },
      [...PRODUCTION.nodeFlags, 'dist/main.js'],
      TIMEOUT_S * 1000,
    );
    const { child, output } = server;
    const pid = child.pid ?? NaN;
    const deadline = t0 + TIMEOUT_S * 1000;
    const alive = (): void => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
      if (performance.now() > deadline) throw new Error(`not idle within ${TIMEOUT_S} s`);
    };
    const listeningMs = performance.now() - t0;
    const rssListening = rssOf(pid);
    // Idle: less than CPU_SHARE of one core over the last QUIET_S seconds (sampled every second).
    const cpu: number[] = [];
    for (;;) {
      alive();
      cpu.push(cpuSecondsOf(pid));
      const q = cpu.length - 1 - QUIET_S;
      if (q >= 0 && (cpu[cpu.length - 1] as number) - (cpu[q] as number) < CPU_SHARE * QUIET_S) break;
      await sleep(1000);
    }
    const idleMs = performance.now() - t0;
    const rssIdle = rssOf(pid);
    await sleep(SETTLE_S * 1000);
    alive();
    return {
      database,
      production,
      listeningMs,
      rssListening,
      idleMs,
      rssIdle,
      rssSettled: rssOf(pid),
      peak: statusBytesOf(pid, 'VmHWM'),
    };
  } finally {
    if (server !== undefined) await killProcess(server);
    if (database === 'postgres')
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(SERVER_DIR, 'dist', 'main.js')))
    throw new Error('dist/main.js is missing: build the server first (node build.mjs)');
  const envText = Object.entries(PRODUCTION.env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const load0 = loadavg()[0] ?? NaN;
  const starts: Start[] = [];
  for (const database of DATABASES)
    for (const production of COMPARE ? [true, false] : [true]) {
      console.error(
        `${database}, ${production ? envText || 'the start script' : 'glibc defaults'}: first start …`,
      );
      starts.push(await measureStart(database, production));
    }
  const load1 = loadavg()[0] ?? NaN;
  console.log(
    `Run on ${new Date().toISOString()}, node ${process.version}, git ${gitHead(SERVER_DIR)}; server started as \`${envText} node ` +
      `${PRODUCTION.nodeFlags.join(' ')} dist/main.js\` on a fresh database, DAILY_ARCHIVE_DAYS ` +
      `${ARCHIVE_DAYS ?? 'default'}; idle = under ${(CPU_SHARE * 100).toFixed(0)} % of a core for ${QUIET_S} s. ` +
      `1-minute load average ${load0.toFixed(2)} → ${load1.toFixed(2)}.\n`,
  );
  const rows = starts.map((s) => [
    s.database === 'postgres' ? 'Postgres' : 'PGlite (embedded)',
    s.production ? (envText === '' ? 'the start script' : `${envText} (start script)`) : 'glibc defaults',
    `${mb(s.rssListening)} at ${(s.listeningMs / 1000).toFixed(1)} s`,
    mb(s.peak),
    `${(s.idleMs / 1000).toFixed(0)} s`,
    mb(s.rssIdle),
    mb(s.rssSettled),
    s.database === 'postgres' && s.production
      ? s.rssSettled <= BUDGET_BYTES
        ? 'OK (≤ 250 MB)'
        : 'OVER (> 250 MB)'
      : '–',
  ]);
  const header = [
    'database',
    'malloc',
    'RSS listening',
    'peak RSS',
    'idle after',
    'RSS idle',
    `RSS ${SETTLE_S} s later`,
    'budget',
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
