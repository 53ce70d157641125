/**
 * How many dailies get a proven par: `pnpm --filter @klondike/solver exec tsx bench/daily-par.ts`.
 *
 * Follows the server's daily generation (apps/server/src/features/daily/generate.ts) for `DAYS` dates (default 30,
 * ending `END`, default 2026-11-24) and both daily presets: candidate k of a date is the algorithm-v2 deal
 * keyed by HMAC-SHA256(secret, `date|preset|k`) — with a bench secret (`SECRET`, default "bench"), since the
 * server's is secret —; the daily is the first candidate `solve` wins within `CERTIFY_NODES` positions
 * (default 100 000, the server's CERTIFY_NODES); its par is proven when the minimal search with the daily's
 * node budget (`NODES`, default the server's `parNodes(SOLVE_MS)` with `SOLVE_MS` default 3 000, its
 * DAILY_SOLVE_MS: 60 000 000) and `solveMinimal`'s table bound for that budget (`STATES`, default the
 * larger of 2 000 000 and NODES / 8) finishes. Prints one line per daily (proven or not, the lower bound
 * reached, solve's line, positions generated and stored, the table's peak MB, CPU ms of the proof) and per
 * preset the count proven, the median and p90 CPU ms
 * of the proof (unproven dailies count as their whole search) and the load average.
 */
import { createHmac } from 'node:crypto';
import { loadavg } from 'node:os';
import { dealFromKey, newGame, resolveOptions } from '@klondike/rules';
import { solve, DEFAULT_MINIMAL_STATES } from '../src/index.js';
import { optimalSearch } from '../src/optimal.js';

const DAYS = Number(process.env.DAYS ?? 30);
const END = process.env.END ?? '2026-11-24';
const SECRET = process.env.SECRET ?? 'bench';
const SOLVE_MS = Number(process.env.SOLVE_MS ?? 3000);
/** The server's `parNodes(SOLVE_MS)` (apps/server/src/features/daily/generate.ts; the solver cannot import it). */
const parNodes = (ms: number): number =>
  Math.min(60_000_000, Math.round(1000 * ms * Math.max(1, ms / 300) ** 2));
const NODES = Number(process.env.NODES ?? parNodes(SOLVE_MS));
const CERTIFY_NODES = Number(process.env.CERTIFY_NODES ?? 100_000);
const STATES = Number(process.env.STATES ?? Math.max(DEFAULT_MINIMAL_STATES, Math.ceil(NODES / 8)));
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);
const PRESETS = (process.env.PRESETS ?? 'classic-draw1,classic-draw3').split(',') as (
  'classic-draw1' | 'classic-draw3'
)[];

console.log(
  `load average at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
for (const preset of PRESETS) {
  const options = resolveOptions(preset);
  const rules = { draw: options.draw, redealLimit: -1, wholePile: false, foundationToTableau: true };
  let proven = 0;
  const bounds: number[] = [];
  const times: number[] = [];
  for (let day = 0; day < DAYS; day++) {
    const date = new Date(Date.parse(`${END}T00:00:00Z`) - day * 86_400_000).toISOString().slice(0, 10);
    for (let k = 0; k < 200; k++) {
      const key = createHmac('sha256', SECRET).update(`${date}|${preset}|${k}`, 'utf8').digest();
      const d = dealFromKey(key);
      if (!d.ok) throw new Error(d.error.message);
      const r = solve(d.value, options, { maxNodes: CERTIFY_NODES, timeLimitMs: 60_000 });
      if (r.verdict !== 'won' || r.line === undefined) continue;
      const s0 = newGame(d.value, options);
      const pos = {
        piles: s0.tableau.map((p) => p.cards.slice()),
        faceDown: s0.tableau.map((p) => p.faceDown),
        foundations: [0, 0, 0, 0],
        talon: [...s0.waste, ...s0.stock.slice().reverse()],
        pointer: s0.waste.length,
        recycles: 0,
      };
      const c0 = cpuNow();
      const m = optimalSearch(rules, pos, NODES, STATES);
      const cpuMs = Math.round(cpuNow() - c0);
      if (m.outcome === 'won') proven++;
      bounds.push(m.lowerBound);
      times.push(cpuMs);
      console.log(
        `${preset} ${date} candidate ${k}: ${m.outcome === 'won' ? 'par proven' : 'not proven'}, ` +
          `lower bound ${m.lowerBound}, solve's line ${r.line.length}, ${m.nodes} nodes, ${m.states} states ` +
          `(${(m.tableBytes / 1e6).toFixed(0)} MB), ${cpuMs} CPU ms`,
      );
      break;
    }
  }
  bounds.sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  console.log(
    `${preset}: ${proven} of ${DAYS} dailies with a proven par (median lower bound ${bounds[Math.floor(bounds.length / 2)] ?? '-'}; ` +
      `CPU ms of the proof median ${quantile(times, 0.5)}, p90 ${quantile(times, 0.9)}; ${NODES} nodes, ${STATES} states; ` +
      `load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')})`,
  );
}
console.log(
  `load average at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
