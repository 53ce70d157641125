/**
 * One-off probe of `solve` on chosen deals: `DEALS=10,42 DRAW=3 NODES=30000000 pnpm --filter
 * @klondike/solver exec tsx bench/probe.ts`. Prints per deal the verdict, positions generated, positions
 * stored and CPU ms of the search (node and state limits only: `CPU_MS` optionally adds a CPU-time limit).
 * `TUNING` = comma-separated engine switches to turn off (e.g. `pointerDominance`) for with/without runs.
 */
import { dealFromNumber, resolveOptions } from '@klondike/rules';
import { solve } from '../src/index.js';

const DEALS = (process.env.DEALS ?? '10').split(',').flatMap((s) => {
  const [a, b] = s.split('-').map(Number);
  if (b === undefined) return [a as number];
  return Array.from({ length: b - (a as number) + 1 }, (_, i) => (a as number) + i);
});
const DRAW = Number(process.env.DRAW ?? 3) as 1 | 3;
const NODES = Number(process.env.NODES ?? 30_000_000);
const STATES = Number(process.env.STATES ?? 20_000_000);
const CPU_MS = process.env.CPU_MS === undefined ? undefined : Number(process.env.CPU_MS);
const off = (process.env.TUNING ?? '').split(',').filter((s) => s !== '');
const tuning = {
  ...Object.fromEntries(off.map((k) => [k, false])),
  ...(process.env.GREEDY === '1' ? { greedyAuto: true } : {}),
};
const options = resolveOptions(DRAW === 1 ? 'classic-draw1' : 'classic-draw3');
let total = 0;
for (const n of DEALS) {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(d.error.message);
  const c0 = process.cpuUsage();
  const r = solve(
    d.value,
    options,
    {
      maxNodes: NODES,
      maxStates: STATES,
      shortenMs: 0,
      ...(CPU_MS !== undefined ? { cpuTimeLimitMs: CPU_MS } : { timeLimitMs: 1e9 }),
    },
    tuning,
  );
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000;
  total += cpu;
  console.log(
    `draw ${DRAW} deal ${n}: ${r.verdict} nodes ${r.nodes} states ${r.states} cpu ${cpu.toFixed(0)} ms ` +
      `(${((r.nodes / cpu) * 1e-3).toFixed(2)} M/s)`,
  );
}
console.log(`total cpu ${total.toFixed(0)} ms`);
