/**
 * First-start benchmark (`pnpm --filter @klondike/server bench:first-start`): the built server started
 * exactly as `pnpm start` does, on a database it has never seen (a fresh PGlite folder by default; also a
 * fresh Postgres database with FIRST_START_DATABASES=pglite,postgres), so it does a newcomer's first start:
 * migrations, today's dailies, tomorrow's, their par refinement, then the archive fill
 * (DAILY_ARCHIVE_DAYS, default 30).
 *
 * It reports, from the spawn of the process: time to `/api/health`, to `/api/ready`, to today's dailies
 * (`GET /api/daily` sent as soon as health answers), to the full archive (`pending` 0) and to the end of
 * the fill (no background work left). During the fill a player loop asks, one request after another,
 * for a hint of a fresh casual game and an easy solve (both of deals this process finds won within 20 000
 * positions: their search takes milliseconds, so their time is queueing), today's dailies, the archive and
 * the home page, and the p50/p95/max of each kind is
 * reported. Budgets (docs/features.md "Background work"): every interactive answer during the fill within 1.5 s at
 * p95; today's dailies within 5 s of `/api/health`.
 *
 * The per-client solve limit is turned off (SOLVE_RATE_MAX=0) so that the loop measures queueing, not the
 * limiter. BENCH_WRITE=1 writes the record to apps/server/FIRST-START.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PRESETS, dealFromNumber } from '@klondike/rules';
import { solve } from '@klondike/solver';
import pg from 'pg';
import { killProcess, type ServerProcess, startServerProcess } from '../test/support/processes.js';
import { productionStart } from './production-start.js';
import { gitHead } from './run-info.js';
import { envNumber } from './settings.js';

const SERVER_DIR = resolve(import.meta.dirname, '..');
const PRODUCTION = productionStart(SERVER_DIR);
const BASE_URL = process.env.FIRST_START_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASES = (process.env.FIRST_START_DATABASES ?? 'pglite')
  .split(',')
  .map((d) => d.trim())
  .filter((d): d is 'postgres' | 'pglite' => {
    if (d === 'postgres' || d === 'pglite') return true;
    if (d !== '') throw new Error(`FIRST_START_DATABASES: unknown database ${d} (postgres, pglite)`);
    return false;
  });
const ARCHIVE_DAYS = process.env.FIRST_START_ARCHIVE_DAYS;
const TIMEOUT_S = Math.max(60, envNumber('FIRST_START_TIMEOUT_SECONDS', 1200));
const WEB_DIST = resolve(SERVER_DIR, '../web/dist');
/** Budgets (docs/features.md "Background work"). */
const INTERACTIVE_P95_MS = 1500;
const TODAY_AFTER_HEALTH_MS = 5000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Deal numbers this process decides as won within 20 000 positions: the "easy solves". */
function easyDeals(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; out.length < n && d < 10_000; d++) {
    const deal = dealFromNumber(d);
    if (!deal.ok) continue;
    const r = solve(deal.value, PRESETS['classic-draw1'], { maxNodes: 20_000, shortenMs: 0 });
    if (r.verdict === 'won') out.push(d);
  }
  return out;
}

/** The p-th percentile (0–1) of `xs` (nearest rank), or NaN when empty. */
function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/** A timed JSON request: its status, body and ms. */
async function timed(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    ...(body !== undefined
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* a page */
  }
  return { status: res.status, json, ms };
}

interface Background {
  daily: { todayReady: boolean; archivePending: number | null; parPending: number; backfilling: boolean };
  running: { job: string; ms: number }[];
  queued: number;
}

/** What one first start measured. */
interface Run {
  readonly database: 'postgres' | 'pglite';
  readonly healthMs: number;
  readonly readyMs: number;
  readonly todayMs: number;
  readonly archiveMs: number;
  readonly fillMs: number;
  readonly samples: Record<string, number[]>;
  readonly errors: string[];
  readonly load: string;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function firstStart(database: 'postgres' | 'pglite', easy: readonly number[]): Promise<Run> {
  const dbName = `klondike_first_${randomBytes(4).toString('hex')}`;
  const dataDir = database === 'pglite' ? mkdtempSync(join(tmpdir(), 'klondike-first-')) : undefined;
  if (database === 'postgres') await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
  const dbUrl = new URL(BASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const load0 = loadavg()[0] ?? 0;
  const t0 = performance.now();
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(
      {
        ...PRODUCTION.env,
        DATABASE_URL: database === 'postgres' ? dbUrl.toString() : '',
        ...(dataDir !== undefined ? { DATA_DIR: dataDir } : {}),
        ...(ARCHIVE_DAYS !== undefined ? { DAILY_ARCHIVE_DAYS: ARCHIVE_DAYS } : {}),
        ...(existsSync(WEB_DIST) ? { WEB_DIST } : {}),
        SOLVE_RATE_MAX: '0',
        RATE_LIMIT_MAX: '0',
      },
      [...PRODUCTION.nodeFlags, 'dist/main.js'],
      TIMEOUT_S * 1000,
    );
    const base = server.base;
    const healthMs = performance.now() - t0;
    const errors: string[] = [];
    const samples: Record<string, number[]> = { daily: [], archive: [], hint: [], solve: [], page: [] };
    const today = await timed(base, 'GET', '/api/daily');
    if (today.status !== 200) throw new Error(`GET /api/daily: ${today.status}`);
    const todayMs = performance.now() - t0;
    samples.daily?.push(today.ms);

    let readyMs = NaN;
    let archiveMs = NaN;
    let fillMs = NaN;
    const deadline = t0 + TIMEOUT_S * 1000;
    let i = 0;
    while (Number.isNaN(fillMs)) {
      if (performance.now() > deadline) throw new Error(`the fill did not end within ${TIMEOUT_S} s`);
      const ready = await timed(base, 'GET', '/api/ready');
      if (ready.status === 200 && Number.isNaN(readyMs)) readyMs = performance.now() - t0;
      const bg = (ready.json as { background?: Background } | null)?.background;
      if (bg !== undefined) {
        if (bg.daily.archivePending === 0 && Number.isNaN(archiveMs)) archiveMs = performance.now() - t0;
        if (
          bg.daily.archivePending === 0 &&
          !bg.daily.backfilling &&
          bg.daily.parPending === 0 &&
          bg.running.length === 0 &&
          bg.queued === 0
        ) {
          fillMs = performance.now() - t0;
          break;
        }
      }
      // One interactive request of each kind in turn, one after another.
      const kind = ['hint', 'solve', 'daily', 'archive', 'page'][i++ % 5] as string;
      let r: { status: number; json: unknown; ms: number };
      if (kind === 'hint') {
        const created = await timed(base, 'POST', '/api/games', {
          preset: 'classic-draw1',
          dealNumber: easy[(i * 7) % easy.length],
        });
        const id = (created.json as { id?: string } | null)?.id;
        if (created.status !== 201 || id === undefined) {
          errors.push(`POST /api/games: ${created.status}`);
          continue;
        }
        r = await timed(base, 'GET', `/api/games/${id}/hint`);
      } else if (kind === 'solve') {
        r = await timed(base, 'POST', '/api/solve', {
          dealNumber: easy[i % easy.length],
          timeLimitMs: 1000,
        });
      } else if (kind === 'daily') r = await timed(base, 'GET', '/api/daily');
      else if (kind === 'archive') r = await timed(base, 'GET', '/api/daily/archive');
      else r = await timed(base, 'GET', '/');
      if (r.status >= 400 && !(kind === 'page' && r.status === 404)) errors.push(`${kind}: ${r.status}`);
      samples[kind]?.push(r.ms);
      await sleep(100);
    }
    return {
      database,
      healthMs,
      readyMs,
      todayMs,
      archiveMs,
      fillMs,
      samples,
      errors,
      load: `${load0.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)}`,
    };
  } finally {
    if (server !== undefined) await killProcess(server);
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    if (database === 'postgres') await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}"`));
  }
}

const s = (ms: number): string => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(2)} s`);
const msf = (ms: number): string => (Number.isNaN(ms) ? '—' : `${Math.round(ms)} ms`);

const easy = easyDeals(40);
const runs: Run[] = [];
for (const database of DATABASES) runs.push(await firstStart(database, easy));

const lines: string[] = [
  '# First-start benchmark',
  '',
  'Written by `BENCH_WRITE=1 pnpm --filter @klondike/server bench:first-start` (apps/server/bench/first-start.bench.ts):',
  'the built server on a database it has never seen, started as `pnpm start` does; a player loop during the',
  'daily job’s fill (one request at a time: hint of a fresh casual game, easy solve, daily, archive, page).',
  '',
  `Run on ${new Date().toISOString()}: ${availableParallelism()} cores, ${cpus()[0]?.model ?? '?'}, node ${process.version}, git ${gitHead(SERVER_DIR)}; archive days ${ARCHIVE_DAYS ?? '30 (default)'}.`,
  '',
  '| database | /api/health | /api/ready | today’s dailies | full archive | fill done | today after health (≤ 5 s) | 1-min load |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];
for (const r of runs)
  lines.push(
    `| ${r.database} | ${s(r.healthMs)} | ${s(r.readyMs)} | ${s(r.todayMs)} | ${s(r.archiveMs)} | ${s(r.fillMs)} | ${s(r.todayMs - r.healthMs)} ${r.todayMs - r.healthMs <= TODAY_AFTER_HEALTH_MS ? 'OK' : 'NOT MET'} | ${r.load} |`,
  );
lines.push(
  '',
  '| database | request | n | p50 | p95 | max | p95 ≤ 1.5 s |',
  '| --- | --- | --- | --- | --- | --- | --- |',
);
for (const r of runs) {
  for (const [kind, xs] of Object.entries(r.samples)) {
    const p95 = percentile(xs, 0.95);
    lines.push(
      `| ${r.database} | ${kind} | ${xs.length} | ${msf(percentile(xs, 0.5))} | ${msf(p95)} | ${msf(Math.max(...xs))} | ${p95 <= INTERACTIVE_P95_MS ? 'OK' : 'NOT MET'} |`,
    );
  }
  const all = Object.values(r.samples).flat();
  const p95 = percentile(all, 0.95);
  lines.push(
    `| ${r.database} | every interactive answer | ${all.length} | ${msf(percentile(all, 0.5))} | ${msf(p95)} | ${msf(Math.max(...all))} | ${p95 <= INTERACTIVE_P95_MS ? 'OK' : 'NOT MET'} |`,
  );
  if (r.errors.length > 0) lines.push('', `${r.database}: errors: ${r.errors.join(', ')}`);
}
const text = `${lines.join('\n')}\n`;
console.log(text);
if (process.env.BENCH_WRITE === '1') writeFileSync(join(SERVER_DIR, 'FIRST-START.md'), text);
