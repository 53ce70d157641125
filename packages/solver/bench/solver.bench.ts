/**
 * Solver benchmark: `pnpm --filter @klondike/solver bench` (or `pnpm bench:solver` from the root).
 *
 * Deals are the deal numbers FIRST … FIRST+DEALS−1 of the rules package's seeded deal algorithm (version 1),
 * solved one after another on one core under the classic presets (unlimited redeals, anyRun,
 * foundation-to-tableau on). Environment:
 * - `DEALS` (default 200), `FIRST` (default 1): which deal numbers;
 * - `DRAW` = `1`, `3` or `1,3` (default `1,3`);
 * - `LIMIT_MS` = one or more per-deal time limits in ms, comma separated (default `1000`);
 * - `MAX_STATES` = transposition-table bound per deal (default the solver's, 4 000 000).
 * Prints a Markdown table: share won / proven impossible / unknown, median and p95 time per deal, nodes per
 * second of search (line shortening excluded), the peak RSS and heap (sampled after every deal), and the median length of the won lines (public
 * moves, draws included).
 *
 * Then, unless `MIN_DEALS=0`, a second table on the first `MIN_DEALS` deals (default 20) that `solve` wins
 * (its default 200 ms shortening on): `solveMinimal` with `MIN_NODES` A* nodes (default 100 000) on the whole
 * deal (proven or not, line / lower bound), and on the position `MIN_K` public moves (default 40) before the
 * end of `solve`'s line: the ratio of those K moves to the proven minimum from there, where A* finished.
 */
import { cpus } from 'node:os';
import { type GameState, applyMove, dealFromNumber, newGame, resolveOptions } from '@klondike/rules';
import { DEFAULT_MAX_STATES, solve, solveMinimal } from '../src/index.js';

const DEALS = Number(process.env.DEALS ?? 200);
const FIRST = Number(process.env.FIRST ?? 1);
const DRAWS = (process.env.DRAW ?? '1,3').split(',').map((s) => Number(s.trim()) as 1 | 3);
const LIMITS = (process.env.LIMIT_MS ?? '1000').split(',').map((s) => Number(s.trim()));
const MAX_STATES = Number(process.env.MAX_STATES ?? DEFAULT_MAX_STATES);

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
console.log(`deals ${FIRST}…${FIRST + DEALS - 1}, max states ${MAX_STATES}`);
console.log('');
console.log(
  '| draw | limit | deals | won | impossible | decided | unknown | median ms | p95 ms | median search ms | nodes/s | peak RSS | peak heap+buffers | median line |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const draw of DRAWS) {
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
    for (let n = FIRST; n < FIRST + DEALS; n++) {
      const d = dealFromNumber(n);
      if (!d.ok) throw new Error(d.error.message);
      const r = solve(d.value, options, { timeLimitMs: limit, maxStates: MAX_STATES });
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
        console.error(`draw ${draw} deal ${n}: ${r.verdict} ${r.ms.toFixed(0)} ms ${r.nodes} nodes`);
    }
    times.sort((a, b) => a - b);
    lines.sort((a, b) => a - b);
    searchTimes.sort((a, b) => a - b);
    const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `| ${draw} | ${limit / 1000} s | ${DEALS} | ${pct(won, DEALS)} | ${pct(impossible, DEALS)} | ` +
        `${pct(won + impossible, DEALS)} | ${pct(unknown, DEALS)} | ${quantile(times, 0.5).toFixed(0)} | ` +
        `${quantile(times, 0.95).toFixed(0)} | ${quantile(searchTimes, 0.5).toFixed(0)} | ${(((nodes / totalMs) * 1000) / 1e6).toFixed(2)} M | ` +
        `${mb(peakRss)} | ${mb(peakHeap)} | ${quantile(lines, 0.5)} |`,
    );
  }
}

const MIN_DEALS = Number(process.env.MIN_DEALS ?? 20);
const MIN_NODES = Number(process.env.MIN_NODES ?? 100_000);
const MIN_K = Number(process.env.MIN_K ?? 40);
if (MIN_DEALS > 0) {
  console.log('');
  console.log(
    `Minimal lines: first ${MIN_DEALS} won deals from ${FIRST}, A* ${MIN_NODES} nodes, tail = last ${MIN_K} moves of solve's line`,
  );
  console.log('');
  console.log(
    '| draw | deals | whole deal proven | median line / lower bound (whole deal) | tails proven | median tail ratio | max tail ratio | median A* ms (tail) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const draw of DRAWS) {
    const options = resolveOptions(draw === 1 ? 'classic-draw1' : 'classic-draw3');
    let deals = 0;
    let wholeProven = 0;
    let tailsProven = 0;
    const wholeRatios: number[] = [];
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
      if (whole.line !== undefined && whole.lowerBound !== undefined)
        wholeRatios.push(whole.line.length / whole.lowerBound);
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
    wholeRatios.sort((a, b) => a - b);
    tailRatios.sort((a, b) => a - b);
    tailMs.sort((a, b) => a - b);
    console.log(
      `| ${draw} | ${deals} | ${wholeProven} | ${quantile(wholeRatios, 0.5).toFixed(2)} | ${tailsProven} | ` +
        `${quantile(tailRatios, 0.5).toFixed(2)} | ${(tailRatios[tailRatios.length - 1] ?? 0).toFixed(2)} | ` +
        `${quantile(tailMs, 0.5).toFixed(0)} |`,
    );
  }
}
