/**
 * `pnpm bench`: rules-package throughput on one core (the budgets of apps/server/BENCHMARKS.md).
 *  - legal-move generation: positions per second (budget ≥ 2 M/s)
 *  - validate + apply a move: moves per second (budget ≥ 1 M/s)
 * Positions come from random play of seeded deals, so every run measures the same corpus.
 */
import { Bench } from 'tinybench';
import {
  applyMove,
  dealFromNumber,
  legalMoves,
  newGame,
  resolveOptions,
  type GameState,
  type Move,
} from '../src/index.js';

function corpus(size: number): { positions: GameState[]; pairs: [GameState, Move][] } {
  const positions: GameState[] = [];
  const pairs: [GameState, Move][] = [];
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let dealNumber = 1; positions.length < size; dealNumber++) {
    const deal = dealFromNumber(dealNumber);
    if (!deal.ok) continue;
    let s = newGame(deal.value, resolveOptions(dealNumber % 2 ? 'classic-draw1' : 'classic-draw3'));
    for (let i = 0; i < 120 && positions.length < size; i++) {
      const legal = legalMoves(s);
      if (legal.length === 0) break;
      const move = legal[rand(legal.length)] as Move;
      positions.push(s);
      pairs.push([s, move]);
      const r = applyMove(s, move);
      if (!r.ok) break;
      s = r.value;
    }
  }
  return { positions, pairs };
}

const { positions, pairs } = corpus(10_000);
const BATCH = positions.length;
let sink = 0;

const bench = new Bench({ time: 2000, warmupTime: 500 });
bench
  .add('legal-move generation', () => {
    for (let i = 0; i < BATCH; i++) sink += legalMoves(positions[i] as GameState).length;
  })
  .add('validate + apply', () => {
    for (let i = 0; i < BATCH; i++) {
      const [s, m] = pairs[i] as [GameState, Move];
      if (applyMove(s, m).ok) sink++;
    }
  });

await bench.run();

const budgets: Record<string, [string, number]> = {
  'legal-move generation': ['positions/s', 2_000_000],
  'validate + apply': ['moves/s', 1_000_000],
};
console.log(`rules benchmark: ${BATCH} positions per batch, one core, node ${process.version}`);
for (const task of bench.tasks) {
  const r = task.result;
  const meanMs = r && 'latency' in r ? r.latency.mean : NaN;
  const perSecond = (BATCH / meanMs) * 1000;
  const [unit, budget] = budgets[task.name] ?? ['ops/s', 0];
  const verdict = perSecond >= budget ? 'OK' : 'BELOW BUDGET';
  console.log(
    `${task.name.padEnd(24)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} ${unit}   budget ≥ ${budget.toLocaleString('en-US')}  ${verdict}`,
  );
}
if (sink === -1) console.log(sink);
