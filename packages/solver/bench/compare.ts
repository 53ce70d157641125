/**
 * Before/after comparison of `solve`, interleaved deal by deal in one process (so both see the same
 * machine load; the order alternates per deal): `BEFORE=/abs/path/to/old/packages/solver/src/index.ts
 * pnpm --filter @klondike/solver exec tsx bench/compare.ts`. The old sources must resolve
 * `@klondike/rules` (e.g. `git archive main packages/solver | tar -x -C /tmp/before` and a symlink of this
 * package's node_modules into it). Environment: `DEALS` (60), `FIRST` (1), `DRAW` (`1,3`), `LIMIT_MS`
 * (10 000). One run at the limit gives both "decided within 1 s" (search time ≤ 1 s) and "within the limit"
 * (no shortening: the search alone decides). Prints Markdown rows and the number of deals won by one version
 * and proven impossible by the other (wrong verdicts).
 */
import { dealFromNumber, resolveOptions } from '@klondike/rules';
import { solve as solveAfter } from '../src/index.js';

type Solve = typeof solveAfter;
const BEFORE = process.env.BEFORE;
if (BEFORE === undefined) throw new Error('set BEFORE to the old solver index.ts');
const solveBefore = ((await import(BEFORE)) as { solve: Solve }).solve;
const DEALS = Number(process.env.DEALS ?? 60);
const FIRST = Number(process.env.FIRST ?? 1);
const LIMIT = Number(process.env.LIMIT_MS ?? 10000);
const q = (a: number[], p: number): number => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
console.log(
  '| version | draw | deals | won | impossible | decided ≤ 1 s | decided ≤ limit | median ms | p95 ms | nodes/s |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const draw of (process.env.DRAW ?? '1,3').split(',').map(Number) as (1 | 3)[]) {
  const o = resolveOptions(draw === 1 ? 'classic-draw1' : 'classic-draw3');
  const st = {
    before: { d1: 0, d10: 0, ms: [] as number[], nodes: 0, t: 0, won: 0, imp: 0 },
    after: { d1: 0, d10: 0, ms: [] as number[], nodes: 0, t: 0, won: 0, imp: 0 },
  };
  let wrong = 0;
  for (let n = FIRST; n < FIRST + DEALS; n++) {
    const d = dealFromNumber(n);
    if (!d.ok) continue;
    const order = n % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    const v: Record<string, string> = {};
    for (const which of order) {
      const f = which === 'before' ? solveBefore : solveAfter;
      const r = f(d.value, o, { timeLimitMs: LIMIT, shortenMs: 0 });
      const s = st[which];
      const ms = r.searchMs ?? r.ms;
      v[which] = r.verdict;
      if (r.verdict !== 'unknown') {
        s.d10++;
        if (ms <= 1000) s.d1++;
      }
      if (r.verdict === 'won') s.won++;
      if (r.verdict === 'impossible') s.imp++;
      s.ms.push(r.verdict === 'unknown' ? LIMIT : ms);
      s.nodes += r.nodes;
      s.t += ms;
    }
    if ((v.before === 'won' && v.after === 'impossible') || (v.before === 'impossible' && v.after === 'won'))
      wrong++;
    if (process.env.VERBOSE) console.error(draw, n, v.before, v.after);
  }
  for (const which of ['before', 'after'] as const) {
    const s = st[which];
    console.log(
      `| ${which} | ${draw} | ${DEALS} | ${((100 * s.won) / DEALS).toFixed(1)} % | ${((100 * s.imp) / DEALS).toFixed(1)} % | ${((100 * s.d1) / DEALS).toFixed(1)} % | ${((100 * s.d10) / DEALS).toFixed(1)} % | ${q(s.ms, 0.5).toFixed(0)} | ${q(s.ms, 0.95).toFixed(0)} | ${(s.nodes / s.t / 1000).toFixed(2)} M |`,
    );
  }
  console.log(`draw ${draw}: contradictory verdicts between versions: ${wrong}`);
}
