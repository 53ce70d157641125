import { dealFromNumber, resolveOptions } from '@klondike/rules';
import { Engine } from '/work/wt-solver97/packages/solver/src/engine.js';
import { solve } from '/work/wt-solver97/packages/solver/src/index.js';
const counts = new Float64Array(8);
const orig = Engine.prototype.apply;
Engine.prototype.apply = function (m: number): number {
  counts[m & 7]++;
  if ((m & 7) >= 3 && (m & 7) <= 4 && ((m >> 14) & 3) !== 0) counts[6]++;
  return orig.call(this, m);
};
const n = Number(process.env.DEAL ?? 10);
const d = dealFromNumber(n);
if (!d.ok) throw new Error();
const r = solve(d.value, resolveOptions(process.env.DRAW === '1' ? 'classic-draw1' : 'classic-draw3'), { maxNodes: Number(process.env.NODES ?? 3e6), timeLimitMs: 1e9, shortenMs: 0 });
console.log(n, r.verdict, r.nodes, r.states, 'T2F', counts[1], 'T2T', counts[2], 'W2F', counts[3], 'W2T', counts[4], 'F2T', counts[5], 'recycleflag', counts[6]);
