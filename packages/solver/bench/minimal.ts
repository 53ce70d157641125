/**
 * Minimal-line benchmark (README.md "Minimal lines"): `pnpm bench:solver` with `MODE=minimal`, or
 * `pnpm --filter @klondike/solver exec tsx bench/minimal.ts`. On a fixed deal set — the first `DEALS`
 * deal numbers from `FIRST` (default 1) that `solve` wins within 2 s, so random won deals — it runs the
 * minimal search (`optimalSearch`) on each whole deal until it proves a shortest line or spends `CPU_MS`
 * (default 30 000) of CPU time (`process.cpuUsage()`, user + system of the process) or `NODES` positions
 * (default 200 000 000, a safety net) with a `STATES`-entry table (default 20 000 000). Prints one line per
 * deal (proven or not, lower bound, line length, CPU ms, positions) and a summary per draw (`DRAW` = `1`,
 * `3` or `1,3`): share proven within the CPU budget, median and p90 CPU time to proof (unproven deals
 * count as the budget), and the machine's load average. `JSON=path` also writes the per-deal results, for
 * `bench/minimal-compare.ts` against a run of another version. `VERIFY=1`: after each proof (not timed),
 * `solveMinimal` is run with the proof's node budget (the search is deterministic, so it proves the same
 * minimum), which replays its public line with the rules package; the bench checks that line's length
 * against the proof and against `solve`'s line for the deal (no line flagged optimal may be longer).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dealFromNumber, newGame, resolveOptions } from '@klondike/rules';
import { optimalSearch } from '../src/optimal.js';
import { solve, solveMinimal } from '../src/index.js';

const FIRST = Number(process.env.FIRST ?? 1);
const DEALS = Number(process.env.DEALS ?? 20);
const DRAWS = (process.env.DRAW ?? '1,3').split(',').map((s) => Number(s.trim()) as 1 | 3);
const CPU_MS = Number(process.env.CPU_MS ?? 30_000);
const NODES = Number(process.env.NODES ?? 200_000_000);
const STATES = Number(process.env.STATES ?? 20_000_000);
const JSON_OUT = process.env.JSON;
const VERIFY = process.env.VERIFY === '1';

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);

interface DealResult {
  readonly draw: number;
  readonly deal: number;
  readonly proven: boolean;
  readonly outcome: string;
  readonly lowerBound: number;
  readonly length: number | null;
  readonly cpuMs: number;
  readonly nodes: number;
}
const results: DealResult[] = [];
let verified = 0;
for (const draw of DRAWS) {
  const options = resolveOptions(draw === 1 ? 'classic-draw1' : 'classic-draw3');
  const rules = { draw, redealLimit: -1, wholePile: false, foundationToTableau: options.foundationToTableau };
  const loadStart = load();
  const mine: DealResult[] = [];
  for (let n = FIRST; mine.length < DEALS; n++) {
    const d = dealFromNumber(n);
    if (!d.ok) throw new Error(d.error.message);
    const found = solve(d.value, options, { timeLimitMs: 2000, shortenMs: 0 });
    if (found.verdict !== 'won') continue;
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
    const stop = (): boolean => cpuNow() - c0 >= CPU_MS;
    // The stop test ends a proof at CPU_MS; NODES is only a safety net.
    const r = optimalSearch(rules, pos, NODES, STATES, { stop });
    const cpuMs = cpuNow() - c0;
    const proven = r.outcome === 'won' && cpuMs <= CPU_MS;
    const one: DealResult = {
      draw,
      deal: n,
      proven,
      outcome: r.outcome,
      lowerBound: r.lowerBound,
      length: r.outcome === 'won' ? r.lowerBound : null,
      cpuMs: Math.round(cpuMs),
      nodes: r.nodes,
    };
    mine.push(one);
    if (VERIFY && r.outcome === 'won') {
      // Not timed: the public line of the same proof, replayed by solveMinimal (it throws if it does not win).
      // One node more than the proof used: the limit is checked after each position, so a branch-and-bound
      // iteration (O12) that ends on its last position would otherwise stop just before finishing.
      const m = solveMinimal(d.value, options, { maxNodes: r.nodes + 1, maxStates: STATES, improveNodes: 0 });
      const len = m.line?.length ?? -1;
      const other = found.line?.length ?? Infinity;
      if (!m.optimal || len !== r.lowerBound || len > other)
        throw new Error(`deal ${n} draw ${draw}: line ${len}, proof ${r.lowerBound}, solve's line ${other}`);
      verified++;
    }
    console.log(
      `draw ${draw} deal ${n}: ${r.outcome}${proven ? '' : ' (not proven within budget)'} lb ${r.lowerBound} cpu ${one.cpuMs} ms nodes ${r.nodes} load ${load()}`,
    );
  }
  results.push(...mine);
  const times = mine.map((r) => (r.proven ? r.cpuMs : CPU_MS)).sort((a, b) => a - b);
  const proven = mine.filter((r) => r.proven).length;
  console.log(
    `| draw ${draw} | deals ${mine.map((r) => r.deal).join(',')} | proven ${proven}/${mine.length} (${((100 * proven) / mine.length).toFixed(1)} %) | median CPU ms ${quantile(times, 0.5)} | p90 CPU ms ${quantile(times, 0.9)} | load ${loadStart} → ${load()} |`,
  );
}
if (VERIFY)
  console.log(`${verified} proven lines replayed, each as long as its proof and no longer than solve's`);
if (JSON_OUT !== undefined) writeFileSync(JSON_OUT, JSON.stringify(results, null, 1));
