/**
 * Solver benchmark: `pnpm --filter @klondike/solver bench` (or `pnpm bench:solver` from the root).
 *
 * Deals are the deal numbers FIRST … FIRST+DEALS−1 of the rules package's seeded deal algorithm (version 1),
 * solved one after another on one core under the classic presets (unlimited redeals, anyRun,
 * foundation-to-tableau on). Environment:
 * - `DEALS` (default 200), `FIRST` (default 1): which deal numbers;
 * - `DRAW` = `1`, `3` or `1,3` (default `1,3`);
 * - `LIMIT_MS` = one or more per-deal time limits in ms, comma separated (default `1000`);
 * - `MAX_STATES` = transposition-table bound per deal (default the solver's, 10 000 000);
 * - `CLOCK` = `wall` (default) or `cpu`: with `cpu` each deal's limit is CPU time of this process
 *   (`cpuTimeLimitMs`: `process.cpuUsage()`, user + system of all its threads, so GC helper threads count
 *   too), which a loaded, shared machine does not shrink; the table then adds the median and p95 CPU ms.
 * Prints a Markdown table: share won / proven impossible / unknown, median and p95 time per deal, nodes per
 * second of search (line shortening excluded), the peak RSS and heap (sampled after every deal), and the median length of the won lines (public
 * moves, draws included).
 *
 * Then, unless `MIN_DEALS=0`, a second table on the first `MIN_DEALS` deals (default 20) that `solve` wins
 * (its default 200 ms shortening on): `solveMinimal` with `MIN_NODES` nodes (default 1 000 000, plus its
 * weighted passes) on the whole deal (proven or not, lower bound, best line, against solve's line), and on
 * the position `MIN_K` public moves (default 40) before the end of `solve`'s line: the ratio of those K
 * moves to the proven minimum from there, where the minimal search finished.
 *
 * Then (unless `TABLE_STATES=0`) the transposition table: the same search (draw 3 deal `TABLE_DEAL`,
 * default 3) stored in the table used before (7-word keys plus a stored hash) and in the packed `KeyTable`
 * until `TABLE_STATES` positions (default 1 000 000): peak bytes and positions per MB.
 *
 * With `MODE=minimal` it runs `bench/minimal.ts` instead (the minimal search on whole won deals by CPU
 * time: share proven within `CPU_MS`, median and p90 CPU time to proof; see that file).
 *
 * Then, with `PAR_DEALS` > 0, the daily par pipeline on that many won deals of algorithm v2 per preset
 * (seeded keys): solve's shortened line against `solveMinimal` with `PAR_NODES` nodes (default 3 000 000, the
 * daily's budget at the default DAILY_SOLVE_MS), how many pars are proven, and the lower bounds.
 */
import { cpus, loadavg } from 'node:os';
import {
  type GameState,
  applyMove,
  dealFromKey,
  dealFromNumber,
  newGame,
  resolveOptions,
} from '@klondike/rules';
import { Engine } from '../src/engine.js';
import { DEFAULT_MAX_STATES, solve, solveMinimal } from '../src/index.js';
import { KeyTable } from '../src/table.js';
import { LegacyKeySet } from './legacy-table.js';

if (process.env.MODE === 'minimal') {
  await import('./minimal.js');
  process.exit(0);
}

const DEALS = Number(process.env.DEALS ?? 200);
const FIRST = Number(process.env.FIRST ?? 1);
const DRAWS = (process.env.DRAW ?? '1,3').split(',').map((s) => Number(s.trim()) as 1 | 3);
const LIMITS = (process.env.LIMIT_MS ?? '1000').split(',').map((s) => Number(s.trim()));
const MAX_STATES = Number(process.env.MAX_STATES ?? DEFAULT_MAX_STATES);
const CPU_CLOCK = process.env.CLOCK === 'cpu';
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} %`;

let peakRss = 0;
let peakHeap = 0;
const sample = (): void => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed + m.arrayBuffers);
};

console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? '?'}`);
console.log(
  `deals ${FIRST}…${FIRST + DEALS - 1}, max states ${MAX_STATES}, limit clock: ` +
    (CPU_CLOCK ? 'CPU time of the process (process.cpuUsage, user + system)' : 'wall clock') +
    `, load average at start ${load()}`,
);
console.log('');
console.log(
  '| draw | limit | deals | won | impossible | decided | unknown | median ms | p95 ms | median search ms | median search CPU ms | p95 search CPU ms | nodes/s (wall) | peak RSS | peak heap+buffers | median line |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const draw of DEALS > 0 ? DRAWS : []) {
  const options = resolveOptions(draw === 1 ? 'classic-draw1' : 'classic-draw3');
  for (const limit of LIMITS) {
    peakRss = 0;
    peakHeap = 0;
    let won = 0;
    let impossible = 0;
    let unknown = 0;
    let nodes = 0;
    let totalMs = 0;
    const times: number[] = [];
    const lines: number[] = [];
    const searchTimes: number[] = [];
    const cpuTimes: number[] = [];
    for (let n = FIRST; n < FIRST + DEALS; n++) {
      const d = dealFromNumber(n);
      if (!d.ok) throw new Error(d.error.message);
      const r = solve(
        d.value,
        options,
        CPU_CLOCK
          ? { cpuTimeLimitMs: limit, maxStates: MAX_STATES }
          : { timeLimitMs: limit, maxStates: MAX_STATES },
      );
      if (r.searchCpuMs !== undefined) cpuTimes.push(r.searchCpuMs);
      sample();
      if (r.verdict === 'won') {
        won++;
        lines.push(r.line?.length ?? 0);
      } else if (r.verdict === 'impossible') impossible++;
      else unknown++;
      nodes += r.nodes;
      totalMs += r.searchMs ?? r.ms;
      searchTimes.push(r.searchMs ?? r.ms);
      times.push(r.ms);
      if (process.env.VERBOSE)
        console.error(
          `draw ${draw} deal ${n}: ${r.verdict} ${r.ms.toFixed(0)} ms ` +
            `${r.searchCpuMs !== undefined ? `(CPU ${r.searchCpuMs.toFixed(0)} ms) ` : ''}${r.nodes} nodes`,
        );
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const cpuCol = (q: number): string => (cpuTimes.length > 0 ? quantile(cpuTimes, q).toFixed(0) : '–');
    lines.sort((a, b) => a - b);
    searchTimes.sort((a, b) => a - b);
    const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `| ${draw} | ${limit / 1000} s | ${DEALS} | ${pct(won, DEALS)} | ${pct(impossible, DEALS)} | ` +
        `${pct(won + impossible, DEALS)} | ${pct(unknown, DEALS)} | ${quantile(times, 0.5).toFixed(0)} | ` +
        `${quantile(times, 0.95).toFixed(0)} | ${quantile(searchTimes, 0.5).toFixed(0)} | ${cpuCol(0.5)} | ${cpuCol(0.95)} | ` +
        `${(((nodes / totalMs) * 1000) / 1e6).toFixed(2)} M | ` +
        `${mb(peakRss)} | ${mb(peakHeap)} | ${quantile(lines, 0.5)} |`,
    );
  }
}

if (DEALS > 0) console.log(`\nload average at end ${load()}`);

const MIN_DEALS = Number(process.env.MIN_DEALS ?? 20);
const MIN_NODES = Number(process.env.MIN_NODES ?? 1_000_000);
const MIN_K = Number(process.env.MIN_K ?? 40);
if (MIN_DEALS > 0) {
  console.log('');
  console.log(
    `Minimal lines: first ${MIN_DEALS} won deals from ${FIRST}, minimal search ${MIN_NODES} nodes (+ weighted passes), ` +
      `solve's line shortened 200 ms; tail = last ${MIN_K} moves of solve's line, ratio to the proven minimum`,
  );
  console.log('');
  console.log(
    '| draw | deals | whole deal proven | median lower bound | median best line | median line / lower bound | median solve line / best line | tails proven | median tail ratio | max tail ratio | median ms (tail) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const draw of DRAWS) {
    const options = resolveOptions(draw === 1 ? 'classic-draw1' : 'classic-draw3');
    let deals = 0;
    let wholeProven = 0;
    let tailsProven = 0;
    const wholeRatios: number[] = [];
    const bounds: number[] = [];
    const bests: number[] = [];
    const solveRatios: number[] = [];
    const tailRatios: number[] = [];
    const tailMs: number[] = [];
    for (let n = FIRST; deals < MIN_DEALS && n < FIRST + 10 * MIN_DEALS; n++) {
      const d = dealFromNumber(n);
      if (!d.ok) throw new Error(d.error.message);
      const r = solve(d.value, options, { timeLimitMs: 2000 });
      if (r.verdict !== 'won' || r.line === undefined) continue;
      deals++;
      const whole = solveMinimal(d.value, options, { maxNodes: MIN_NODES, fallback: { timeLimitMs: 2000 } });
      if (whole.optimal) wholeProven++;
      if (whole.line !== undefined && whole.lowerBound !== undefined) {
        wholeRatios.push(whole.line.length / whole.lowerBound);
        bounds.push(whole.lowerBound);
        bests.push(whole.line.length);
        solveRatios.push(r.line.length / whole.line.length);
      }
      let s: GameState = newGame(d.value, options);
      for (const m of r.line.slice(0, Math.max(0, r.line.length - MIN_K))) {
        const a = applyMove(s, m);
        if (!a.ok) throw new Error('replay');
        s = a.value;
      }
      const tailLength = Math.min(MIN_K, r.line.length);
      const tail = solveMinimal(s, options, { maxNodes: MIN_NODES, fallback: { timeLimitMs: 2000 } });
      if (tail.optimal && tail.line !== undefined && tail.line.length > 0) {
        tailsProven++;
        tailRatios.push(tailLength / tail.line.length);
        tailMs.push(tail.ms);
      }
      if (process.env.VERBOSE)
        console.error(
          `draw ${draw} deal ${n}: whole ${whole.line?.length ?? '-'} ≥ ${whole.lowerBound ?? '-'} ` +
            `tail ${tailLength} vs ${tail.optimal ? tail.line?.length : '?'}`,
        );
    }
    for (const a of [wholeRatios, bounds, bests, solveRatios]) a.sort((x, y) => x - y);
    tailRatios.sort((a, b) => a - b);
    tailMs.sort((a, b) => a - b);
    console.log(
      `| ${draw} | ${deals} | ${wholeProven} | ${quantile(bounds, 0.5)} | ${quantile(bests, 0.5)} | ` +
        `${quantile(wholeRatios, 0.5).toFixed(2)} | ${quantile(solveRatios, 0.5).toFixed(2)} | ${tailsProven} | ` +
        `${quantile(tailRatios, 0.5).toFixed(2)} | ${(tailRatios[tailRatios.length - 1] ?? 0).toFixed(2)} | ` +
        `${quantile(tailMs, 0.5).toFixed(0)} |`,
    );
  }
}

// ---- Transposition table: positions held per MB, packed KeyTable against the table used before ----
const TABLE_STATES = Number(process.env.TABLE_STATES ?? 1_000_000);
if (TABLE_STATES > 0) {
  const rules = { draw: 3 as const, redealLimit: -1, wholePile: false, foundationToTableau: true };
  // A deal whose search runs long enough to fill the tables (draw 3 deal TABLE_DEAL, default 3).
  const n = Number(process.env.TABLE_DEAL ?? 3);
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(d.error.message);
  const s0 = newGame(d.value, resolveOptions('classic-draw3'));
  const pos = {
    piles: s0.tableau.map((p) => p.cards.slice()),
    faceDown: s0.tableau.map((p) => p.faceDown),
    foundations: [0, 0, 0, 0],
    talon: [...s0.waste, ...s0.stock.slice().reverse()],
    pointer: s0.waste.length,
    recycles: 0,
  };
  const run = (
    name: string,
    table: { add(k: Uint32Array): boolean; size: number; peakBytes: number },
  ): void => {
    const e = new Engine(rules, pos);
    table.add(e.computeKey());
    const t = performance.now();
    e.search(table, () => table.size >= TABLE_STATES);
    const ms = performance.now() - t;
    const perMb = table.size / (table.peakBytes / 2 ** 20);
    console.log(
      `| ${name} | ${table.size} | ${(table.peakBytes / 2 ** 20).toFixed(0)} MB | ${(perMb / 1000).toFixed(1)} k | ${(e.nodes / ms / 1000).toFixed(2)} M |`,
    );
  };
  console.log('');
  console.log(`Transposition table, draw 3 deal ${n} searched until ${TABLE_STATES} positions are stored:`);
  console.log('');
  console.log('| table | positions | peak bytes of its arrays | positions per MB (at peak) | nodes/s |');
  console.log('|---|---|---|---|---|');
  // Before: 7-word keys (the packed key's 5 words plus the two words of per-pile data it no longer needs).
  const legacy = new LegacyKeySet(7);
  const wide = new Uint32Array(7);
  run('before: 7-word keys + stored hash, load ≤ 0.75', {
    add(k: Uint32Array): boolean {
      wide.set(k);
      return legacy.add(wide);
    },
    get size() {
      return legacy.size;
    },
    get peakBytes() {
      return legacy.peakBytes;
    },
  });
  run('after: packed 5-word KeyTable, load ≤ 0.85', new KeyTable(5, TABLE_STATES));
}

// ---- Daily par: deals of algorithm v2 (keys from a seeded PRNG), the daily's pipeline in one thread ----
const PAR_DEALS = Number(process.env.PAR_DEALS ?? 0);
const PAR_NODES = Number(process.env.PAR_NODES ?? 3_000_000);
if (PAR_DEALS > 0) {
  console.log('');
  console.log(
    `Daily par: ${PAR_DEALS} won v2 deals per preset (seeded keys), solve 3 s + 200 ms shortening, then ` +
      `solveMinimal with ${PAR_NODES} nodes (the daily's budget at DAILY_SOLVE_MS = ${PAR_NODES / 1000})`,
  );
  console.log('');
  console.log(
    '| preset | deals | par proven | median old par (solve) | median new par | median new / old | median lower bound | median par / lower bound | median ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const draw of DRAWS) {
    const preset = draw === 1 ? 'classic-draw1' : 'classic-draw3';
    const options = resolveOptions(preset);
    let seed = 0x9e3779b9;
    const key = new Uint8Array(32);
    const olds: number[] = [];
    const news: number[] = [];
    const ratios: number[] = [];
    const bounds: number[] = [];
    const gaps: number[] = [];
    const ms: number[] = [];
    let proven = 0;
    for (let tries = 0; olds.length < PAR_DEALS && tries < 4 * PAR_DEALS; tries++) {
      for (let i = 0; i < 32; i++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        key[i] = seed >>> 24;
      }
      const d = dealFromKey(key);
      if (!d.ok) throw new Error(d.error.message);
      const r = solve(d.value, options, { timeLimitMs: 3000 });
      if (r.verdict !== 'won' || r.line === undefined) continue;
      const m = solveMinimal(d.value, options, { maxNodes: PAR_NODES, fallback: { timeLimitMs: 3000 } });
      const par = Math.min(r.line.length, m.line?.length ?? Infinity);
      const lb = m.lowerBound ?? 0;
      if (par <= lb) proven++;
      olds.push(r.line.length);
      news.push(par);
      ratios.push(par / r.line.length);
      bounds.push(lb);
      gaps.push(par / lb);
      ms.push(m.ms);
      if (process.env.VERBOSE) console.error(`${preset} #${olds.length}: ${r.line.length} → ${par} ≥ ${lb}`);
    }
    for (const a of [olds, news, ratios, bounds, gaps, ms]) a.sort((x, y) => x - y);
    console.log(
      `| ${preset} | ${olds.length} | ${proven} | ${quantile(olds, 0.5)} | ${quantile(news, 0.5)} | ` +
        `${quantile(ratios, 0.5).toFixed(2)} | ${quantile(bounds, 0.5)} | ${quantile(gaps, 0.5).toFixed(2)} | ` +
        `${quantile(ms, 0.5).toFixed(0)} |`,
    );
  }
}
