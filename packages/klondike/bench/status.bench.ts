/**
 * `pnpm --filter @klondike/rules bench:status`: what R13's status costs a move (docs/rules.md R13), on one core.
 *
 * Every preset, STATUS_DEALS deals each (default 60), STATUS_MOVES moves each at most (default 300), chosen at
 * random with a fixed seed; a game stops when it is blocked. Two players:
 * - random: any legal move;
 * - stuck: random for 100 moves, then only moves that make no progress (draws, redeals, tableau shuffles,
 *   foundation to tableau), as a player who cycles the stock looking for a way on.
 * For each move it times `gameStatus(after)` (the R13 search from scratch) and `statusAfterMove` (the search
 * only when the move can have changed the answer, as the server computes it), checks that the two agree, and
 * prints mean, p50, p99, p99.9 and the longest, and how many moves took over 1 ms: the search runs on a
 * server's one thread, so a long one delays every game on it.
 */
import {
  PRESET_NAMES,
  applyMove,
  dealFromNumber,
  gameStatus,
  legalMoves,
  newGame,
  progressesAtOnce,
  resolveOptions,
  statusAfterMove,
  type Move,
} from '../src/index.js';

const DEALS = Math.max(1, Number(process.env.STATUS_DEALS ?? 60));
const MOVES = Math.max(1, Number(process.env.STATUS_MOVES ?? 300));
/** Moves before the stuck player turns to moves without progress. */
const FREE_MOVES = 100;

/** µs since `start` (process.hrtime.bigint()). */
function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1000;
}

function summary(name: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number): string => (sorted[Math.floor(p * (sorted.length - 1))] as number).toFixed(1);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const over = sorted.filter((t) => t > 1000).length;
  return `${name.padEnd(16)} mean ${mean.toFixed(1).padStart(6)}  p50 ${at(0.5).padStart(5)}  p99 ${at(0.99).padStart(7)}  p99.9 ${at(0.999).padStart(8)}  max ${(sorted.at(-1) ?? NaN).toFixed(0).padStart(6)} µs  over 1 ms: ${over}`;
}

console.log(
  `R13 status per move: ${PRESET_NAMES.length} presets × ${DEALS} deals, up to ${MOVES} moves each, one core, node ${process.version}`,
);
for (const player of ['random', 'stuck'] as const) {
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const full: number[] = [];
  const carried: number[] = [];
  let longest = { us: 0, where: '' };
  for (const preset of PRESET_NAMES) {
    for (let d = 1; d <= DEALS; d++) {
      const deal = dealFromNumber(d * 7919);
      if (!deal.ok) throw new Error(deal.error.message);
      let state = newGame(deal.value, resolveOptions(preset));
      let status = gameStatus(state);
      for (let i = 0; i < MOVES && status !== 'blocked'; i++) {
        let moves = legalMoves(state);
        if (player === 'stuck' && i >= FREE_MOVES) {
          const quiet = moves.filter((m) => !progressesAtOnce(state, m));
          if (quiet.length > 0) moves = quiet;
        }
        if (moves.length === 0) break;
        const move = moves[rand(moves.length)] as Move;
        const r = applyMove(state, move);
        if (!r.ok) throw new Error(`a legal move was refused: ${r.error.code}`);
        let start = process.hrtime.bigint();
        const truth = gameStatus(r.value);
        const us = since(start);
        full.push(us);
        if (us > longest.us) longest = { us, where: `${preset}, deal ${d * 7919}, move ${i + 1}` };
        start = process.hrtime.bigint();
        const next = statusAfterMove(state, status, move, r.value);
        carried.push(since(start));
        if (next !== truth)
          throw new Error(`statusAfterMove ${next}, gameStatus ${truth} (${preset}, deal ${d * 7919})`);
        state = r.value;
        status = truth;
      }
    }
  }
  console.log(`${player} player, ${full.length.toLocaleString('en-US')} moves:`);
  console.log(`  ${summary('gameStatus', full)}`);
  console.log(`  ${summary('statusAfterMove', carried)}`);
  console.log(`  longest gameStatus: ${longest.us.toFixed(0)} µs (${longest.where})`);
}
