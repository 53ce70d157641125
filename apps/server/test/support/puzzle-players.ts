/**
 * Finished games for the puzzles' tests and benchmark: a simple bot on a seeded deal. Pure.
 */
import { type Deal, type GameOptions, type Move, applyMove, legalMoves, newGame } from '@klondike/rules';
import { solve } from '@klondike/solver';
import { randomPick, visiblePlayer } from './fair-play-players.js';
import { unseenCount } from '../../src/features/puzzles/position.js';

/**
 * A bot's game on `deal` (deterministic for a given `random`): the solver's full-knowledge line (node-limited,
 * not shortened) (a visible-information rule when the solver finds
 * none); with `slip`, the line is left once at most `slipUnseen` cards are unseen, for one random legal move,
 * after which the visible-information rule (random turn-ups, `random`) plays on — such games are mostly lost.
 */
export function botGame(
  deal: Deal,
  options: GameOptions,
  random: () => number,
  slip: boolean,
  slipUnseen = 6,
): Move[] {
  const start = newGame(deal, options);
  const found = solve(start, options, { maxNodes: 200_000, shortenMs: 0 });
  const line = found.verdict === 'won' ? (found.line ?? null) : null;
  if (line === null) return visiblePlayer(start, randomPick(random));
  if (!slip) return line;
  const moves: Move[] = [];
  let s = start;
  for (const m of line) {
    if (unseenCount(s) <= slipUnseen) {
      const legal = legalMoves(s);
      const other = legal[Math.floor(random() * legal.length)];
      if (other !== undefined) {
        const r = applyMove(s, other);
        if (r.ok) {
          moves.push(other);
          return [...moves, ...visiblePlayer(r.value, randomPick(random))];
        }
      }
    }
    const r = applyMove(s, m);
    if (!r.ok) break;
    moves.push(m);
    s = r.value;
  }
  return moves;
}
