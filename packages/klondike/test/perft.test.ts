/**
 * Perft-style goldens: the number of legal move sequences of length 1, 2 and 3 from a few pinned deals
 * (legal-moves.ts, R4–R11, R16). A change to move generation or to what a move does shows up as a changed
 * count. Each count is also checked the slow way: at every position on the way, the legal moves equal the
 * moves of the notation that `validateMove` accepts (every pile to every pile, every count, the stock's moves).
 */
import { describe, expect, it } from 'vitest';
import {
  FOUNDATION_PILES,
  TABLEAU_PILES,
  applyMove,
  dealFromNumber,
  formatMove,
  legalMoves,
  newGame,
  resolveOptions,
  validateMove,
  type GameState,
  type Move,
  type PresetName,
} from '../src/index.js';

/** Every move the notation can spell: draw, recycle, last pass and each pile move of 1–13 cards. */
const CANDIDATES: readonly Move[] = [
  { type: 'draw' },
  { type: 'recycle' },
  { type: 'last-pass' },
  ...(['waste', ...TABLEAU_PILES, ...FOUNDATION_PILES] as const).flatMap((from) =>
    [...TABLEAU_PILES, ...FOUNDATION_PILES].flatMap((to) =>
      Array.from({ length: 13 }, (_, i): Move => ({ type: 'move', from, to, count: i + 1 })),
    ),
  ),
];

const key = (moves: readonly Move[]): string[] => moves.map(formatMove).sort();

/** Sequences of `depth` legal moves from `state`; checks each position's moves against the slow way. */
function perft(state: GameState, depth: number): number {
  if (depth === 0) return 1;
  const moves = legalMoves(state);
  expect(key(moves)).toEqual(key(CANDIDATES.filter((m) => validateMove(state, m) === null)));
  let n = 0;
  for (const m of moves) {
    const r = applyMove(state, m);
    if (!r.ok) throw new Error(`a legal move does not apply: ${formatMove(m)} (${r.error.code})`);
    n += perft(r.value, depth - 1);
  }
  return n;
}

function start(dealNumber: number, preset: PresetName): GameState {
  const deal = dealFromNumber(dealNumber);
  if (!deal.ok) throw new Error(deal.error.message);
  return newGame(deal.value, resolveOptions(preset));
}

/** Deal number, preset, and the sequence counts at depths 1, 2, 3. */
const GOLDENS: readonly (readonly [number, PresetName, readonly [number, number, number]])[] = [
  [1, 'classic-draw1', [4, 15, 53]],
  [7, 'classic-draw1', [5, 22, 88]],
  [1000, 'classic-draw1', [3, 8, 22]],
  [7, 'classic-draw3', [5, 22, 90]],
  [42, 'bicycle', [5, 23, 100]],
];

describe('perft: legal move sequences to depth 3 from pinned deals', () => {
  for (const [dealNumber, preset, counts] of GOLDENS)
    it(`deal ${dealNumber}, ${preset}: ${counts.join(' / ')}`, () => {
      const state = start(dealNumber, preset);
      expect([1, 2, 3].map((d) => perft(state, d))).toEqual(counts);
    });
});
