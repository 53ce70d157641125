/**
 * Speed of `solve` across versions at a fixed node budget, interleaved deal by deal in one process (so every
 * version sees the same load): `VERSIONS=/abs/a/index.ts,/abs/b/index.ts pnpm --filter @klondike/solver exec
 * tsx bench/rate-compare.ts` (this checkout's `src/index.ts` is always the last version). Environment:
 * `DEALS` (e.g. `1-20`), `DRAW` (`1` or `3`), `NODES` (default 2 000 000), `ROUNDS` (default 1). Prints per
 * version the positions generated (equal when the search is the same), the CPU ms (`process.cpuUsage`) and
 * positions per CPU second; and per deal the verdicts, so a changed search shows.
 */
import { dealFromNumber, resolveOptions } from '@klondike/rules';
import { solve as solveHere } from '../src/index.js';

type Solve = typeof solveHere;
const paths = (process.env.VERSIONS ?? '').split(',').filter((s) => s !== '');
const versions: { name: string; solve: Solve }[] = [];
for (const p of paths) versions.push({ name: p, solve: ((await import(p)) as { solve: Solve }).solve });
versions.push({ name: 'this checkout', solve: solveHere });
const DEALS = (process.env.DEALS ?? '1-20').split(',').flatMap((s) => {
  const [a, b] = s.split('-').map(Number);
  if (b === undefined) return [a as number];
  return Array.from({ length: b - (a as number) + 1 }, (_, i) => (a as number) + i);
});
const DRAW = Number(process.env.DRAW ?? 1) as 1 | 3;
const NODES = Number(process.env.NODES ?? 2_000_000);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const options = resolveOptions(DRAW === 1 ? 'classic-draw1' : 'classic-draw3');
const acc = versions.map(() => ({ nodes: 0, cpu: 0 }));
for (let round = 0; round < ROUNDS; round++) {
  for (const n of DEALS) {
    const d = dealFromNumber(n);
    if (!d.ok) throw new Error(d.error.message);
    const verdicts: string[] = [];
    const order = versions.map((_, i) => i);
    if ((n + round) % 2 === 1) order.reverse();
    for (const i of order) {
      const v = versions[i] as (typeof versions)[number];
      const c0 = process.cpuUsage();
      const r = v.solve(d.value, options, { maxNodes: NODES, timeLimitMs: 1e9, shortenMs: 0 });
      const c = process.cpuUsage(c0);
      const a = acc[i] as { nodes: number; cpu: number };
      a.nodes += r.nodes;
      a.cpu += (c.user + c.system) / 1000;
      verdicts[i] = `${r.verdict}/${r.nodes}`;
    }
    if (process.env.VERBOSE === '1') console.log(`deal ${n}: ${verdicts.join('  ')}`);
  }
}
versions.forEach((v, i) => {
  const a = acc[i] as { nodes: number; cpu: number };
  console.log(
    `${v.name}: positions ${a.nodes}, CPU ${a.cpu.toFixed(0)} ms, ${(a.nodes / a.cpu / 1000).toFixed(2)} M positions per CPU s`,
  );
});
