/**
 * Scan for whole deals the minimal search proves: `pnpm --filter @klondike/solver exec tsx bench/scan.ts`.
 * Environment: `FIRST` (default 1), `COUNT` (default 100), `DRAW` (1 or 3, default 1), `NODES` (the node
 * limit of each proof, default 1 000 000), `STATES` (table bound, default 2 000 000). Prints one line per
 * deal (outcome, h at the start, lower bound reached, nodes, CPU ms) and a summary: node limits only, so
 * the verdicts do not depend on load.
 */
import { dealFromNumber, newGame, resolveOptions } from '@klondike/rules';
import { BoundModel, optimalSearch } from '../src/optimal.js';
import { Engine } from '../src/engine.js';

const FIRST = Number(process.env.FIRST ?? 1);
const COUNT = Number(process.env.COUNT ?? 100);
const DRAW = Number(process.env.DRAW ?? 1) as 1 | 3;
const NODES = Number(process.env.NODES ?? 1_000_000);
const STATES = Number(process.env.STATES ?? 2_000_000);

const rules = { draw: DRAW, redealLimit: -1, wholePile: false, foundationToTableau: true };
const options = resolveOptions(DRAW === 1 ? 'classic-draw1' : 'classic-draw3');
let proven = 0;
let impossible = 0;
for (let n = FIRST; n < FIRST + COUNT; n++) {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(d.error.message);
  const s0 = newGame(d.value, options);
  const pos = {
    piles: s0.tableau.map((p) => p.cards.slice()),
    faceDown: s0.tableau.map((p) => p.faceDown),
    foundations: [0, 0, 0, 0],
    talon: [...s0.waste, ...s0.stock.slice().reverse()],
    pointer: s0.waste.length,
    recycles: 0,
  };
  const e = new Engine(rules, pos, {
    exactPointer: true,
    partialRule: false,
    talonRule: false,
    talonAuto: false,
  });
  const h0 = new BoundModel(e).bound(e);
  const c0 = process.cpuUsage();
  const r = optimalSearch(rules, pos, NODES, STATES);
  const c = process.cpuUsage(c0);
  if (r.outcome === 'won') proven++;
  if (r.outcome === 'exhausted') impossible++;
  console.log(
    `draw ${DRAW} deal ${n}: ${r.outcome} h0 ${h0} lb ${r.lowerBound} nodes ${r.nodes} cpu ${((c.user + c.system) / 1000).toFixed(0)} ms`,
  );
}
console.log(
  `draw ${DRAW} deals ${FIRST}…${FIRST + COUNT - 1}, ${NODES} nodes: ${proven} proven minimal, ${impossible} impossible`,
);
