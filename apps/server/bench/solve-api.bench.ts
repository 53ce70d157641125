/**
 * `pnpm bench:solve-api`: does `POST /api/solve {minimal: true, timeLimitMs}` prove as many deals shortest as
 * the solver's own benchmark (`MODE=minimal pnpm bench:solver`, packages/solver/bench/minimal.ts) does with
 * the same time of CPU? Same deals, back to back, in one run:
 *
 * - **API**: a real server started by this script (from the sources, PGlite in a temporary directory, the
 *   daily job off, SOLVE_MAX_MS = `MS`, rate limits off, its solver thread kept up and started by a warm-up
 *   request), waited for until its CPU is idle; each deal is
 *   posted as `{preset, deal, minimal: true, timeLimitMs: MS}` and counts as proven when the answer says
 *   `optimal: true`. The server process's CPU time (/proc, every thread) is read around each request.
 * - **direct**: the solver's benchmark on the same deal in this process: `optimalSearch` with a table of
 *   `STATES` (default 20 000 000) until it proves a shortest line or spends `MS` of this process's CPU time
 *   (`process.cpuUsage()`), as bench/minimal.ts does.
 *
 * Per deal the two run one after the other (the order alternates), so both see the same load. Wall time
 * and CPU time are printed for both: on a shared machine the API's wall-clock limit buys less CPU than
 * the direct run's CPU limit.
 *
 * Deals: the first `DEALS` (default 12) deal numbers from `FIRST` (default 1) that `solve` wins within 2 s,
 * as bench/minimal.ts picks them, or `DEALS_FILE`: one deal per line in the rules package's deal text
 * (`parseDeal`: 52 card codes), e.g. the draw-1 deals of an independent optimal solver's set (its first
 * `DEALS` lines). `DRAW` = 1 (default) or 3; `MS` = the time limit (default 30 000).
 *
 * Example (a short check): `DEALS=2 MS=5000 pnpm bench:solve-api`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SolveResponseSchema } from '@klondike/protocol';
import { type Deal, dealFromNumber, formatDeal, newGame, parseDeal, resolveOptions } from '@klondike/rules';
import { solve } from '@klondike/solver';
import { optimalSearch } from '../../../packages/solver/src/optimal.js';
import { killProcess, type ServerProcess, startServerProcess } from '../test/support/processes.js';
import { cpuSecondsOf } from './proc.js';

const DEALS = Number(process.env.DEALS ?? 12);
const FIRST = Number(process.env.FIRST ?? 1);
const DRAW = Number(process.env.DRAW ?? 1) as 1 | 3;
const MS = Number(process.env.MS ?? 30_000);
const STATES = Number(process.env.STATES ?? 20_000_000);
const DEALS_FILE = process.env.DEALS_FILE;
const preset = DRAW === 1 ? 'classic-draw1' : 'classic-draw3';
const options = resolveOptions(preset);

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The deals: from DEALS_FILE, or the first DEALS deal numbers solve wins within 2 s (bench/minimal.ts). */
function pickDeals(): { name: string; deal: Deal }[] {
  if (DEALS_FILE !== undefined) {
    const lines = readFileSync(DEALS_FILE, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    return lines.slice(0, DEALS).map((text, i) => {
      const d = parseDeal(text);
      if (!d.ok) throw new Error(`${DEALS_FILE} line ${i + 1}: ${d.error.message}`);
      return { name: `line ${i + 1}`, deal: d.value };
    });
  }
  const out: { name: string; deal: Deal }[] = [];
  for (let n = FIRST; out.length < DEALS; n++) {
    const d = dealFromNumber(n);
    if (!d.ok) throw new Error(d.error.message);
    if (solve(d.value, options, { timeLimitMs: 2000, shortenMs: 0 }).verdict === 'won')
      out.push({ name: `deal ${n}`, deal: d.value });
  }
  return out;
}

/** Waits until the server's process uses under 5 % of a core over a second (start-up work done). */
async function idle(pid: number): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const c0 = cpuSecondsOf(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuSecondsOf(pid) - c0 < 0.05) return;
  }
}

interface Row {
  readonly proven: boolean;
  readonly length: number | null;
  readonly lowerBound: number | null;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly nodes: number;
}

async function viaApi(server: ServerProcess, deal: Deal): Promise<Row> {
  const pid = server.child.pid as number;
  const c0 = cpuSecondsOf(pid);
  const t0 = performance.now();
  const r = await fetch(`${server.base}/api/solve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ preset, deal: formatDeal(deal), minimal: true, timeLimitMs: MS }),
  });
  const wallMs = performance.now() - t0;
  const cpuMs = (cpuSecondsOf(pid) - c0) * 1000;
  if (r.status !== 200) throw new Error(`POST /api/solve: ${r.status} ${await r.text()}`);
  const body = SolveResponseSchema.parse(await r.json());
  return {
    proven: body.optimal === true,
    length: body.line?.length ?? null,
    lowerBound: body.lowerBound ?? null,
    wallMs,
    cpuMs,
    nodes: body.nodes,
  };
}

function direct(deal: Deal): Row {
  const s0 = newGame(deal, options);
  const pos = {
    piles: s0.tableau.map((p) => p.cards.slice()),
    faceDown: s0.tableau.map((p) => p.faceDown),
    foundations: [0, 0, 0, 0],
    talon: [...s0.waste, ...s0.stock.slice().reverse()],
    pointer: s0.waste.length,
    recycles: 0,
  };
  const rules = {
    draw: DRAW,
    redealLimit: -1,
    wholePile: false,
    foundationToTableau: options.foundationToTableau,
  };
  const c0 = cpuNow();
  const t0 = performance.now();
  const r = optimalSearch(rules, pos, Infinity, STATES, { stop: () => cpuNow() - c0 >= MS });
  const cpuMs = cpuNow() - c0;
  return {
    proven: r.outcome === 'won' && cpuMs <= MS,
    length: r.outcome === 'won' ? r.lowerBound : null,
    lowerBound: r.lowerBound,
    wallMs: performance.now() - t0,
    cpuMs,
    nodes: r.nodes,
  };
}

const sum = (rows: readonly Row[], f: (r: Row) => number): number => rows.reduce((a, r) => a + f(r), 0);

console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? '?'}; load ${load()}`);
const deals = pickDeals();
console.log(
  `${preset}, ${deals.length} deals (${DEALS_FILE ?? `won deal numbers from ${FIRST}`}), limit ${MS} ms: API wall clock, direct CPU`,
);
const dataDir = mkdtempSync(join(tmpdir(), 'klondike-solve-api-'));
const server = await startServerProcess({
  DATABASE_URL: '',
  DATA_DIR: dataDir,
  DAILY_SCHEDULE: 'off',
  DAILY_ARCHIVE_DAYS: '0',
  SOLVE_MAX_MS: String(MS),
  SOLVE_RATE_MAX: '0',
  RATE_LIMIT_MAX: '0',
  // The solver thread stays up between deals (the direct runs take as long), so no request pays its start.
  SOLVER_IDLE_MS: '3600000',
});
const api: Row[] = [];
const own: Row[] = [];
try {
  await idle(server.child.pid as number);
  // Start the solver thread before the first timed request.
  const warm = await fetch(`${server.base}/api/solve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ dealNumber: 1, timeLimitMs: 100 }),
  });
  if (warm.status !== 200) throw new Error(`warm-up POST /api/solve: ${warm.status}`);
  console.log(
    '| deal | API proven | API length / bound | API wall ms | API server CPU ms | API positions | direct proven | direct length / bound | direct CPU ms | direct wall ms | direct positions | load |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [i, { name, deal }] of deals.entries()) {
    let a: Row;
    let d: Row;
    if (i % 2 === 0) {
      a = await viaApi(server, deal);
      d = direct(deal);
    } else {
      d = direct(deal);
      a = await viaApi(server, deal);
    }
    api.push(a);
    own.push(d);
    const lb = (r: Row): string => `${r.length ?? '–'} / ${r.lowerBound ?? '–'}`;
    console.log(
      `| ${name} | ${a.proven ? 'yes' : 'no'} | ${lb(a)} | ${a.wallMs.toFixed(0)} | ${a.cpuMs.toFixed(0)} | ${a.nodes} | ${d.proven ? 'yes' : 'no'} | ${lb(d)} | ${d.cpuMs.toFixed(0)} | ${d.wallMs.toFixed(0)} | ${d.nodes} | ${load()} |`,
    );
  }
} finally {
  await killProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
}
const proven = (rows: readonly Row[]): number => rows.filter((r) => r.proven).length;
console.log('');
console.log(
  `API (POST /api/solve minimal, ${MS} ms wall): ${proven(api)} / ${api.length} proven shortest; ` +
    `wall ${(sum(api, (r) => r.wallMs) / 1000).toFixed(1)} s, server CPU ${(sum(api, (r) => r.cpuMs) / 1000).toFixed(1)} s, ` +
    `${(sum(api, (r) => r.nodes) / 1e6).toFixed(1)} M positions`,
);
console.log(
  `direct (optimalSearch, ${MS} ms CPU): ${proven(own)} / ${own.length} proven shortest; ` +
    `CPU ${(sum(own, (r) => r.cpuMs) / 1000).toFixed(1)} s, wall ${(sum(own, (r) => r.wallMs) / 1000).toFixed(1)} s, ` +
    `${(sum(own, (r) => r.nodes) / 1e6).toFixed(1)} M positions`,
);
const disagree = deals.filter(
  (_, i) => api[i]?.proven && own[i]?.proven && api[i]?.length !== own[i]?.length,
).length;
console.log(
  `deals proven by both with different lengths (must be 0): ${disagree}; load at the end ${load()}`,
);
if (disagree > 0) process.exitCode = 1;
