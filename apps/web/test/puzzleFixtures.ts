/** Puzzle fixtures of the unit and component tests: a clear-the-table position and an only-move one. */
import type { Puzzle, PuzzleGoal } from '@klondike/protocol';
import type { Move, PlayerView } from '@klondike/rules';
import { makeView } from './fixtures';

/** Every card known: QH on KC to clear, then the four kings (five moves). */
export const clearView = makeView({
  tableau: [
    [0, ['KC', 'QH']],
    [0, ['KD']],
    [0, ['KS']],
    [0, ['KH']],
  ],
  foundations: { fC: 'QC', fD: 'QD', fH: 'JH', fS: 'QS' },
  stock: 0,
  waste: [],
});
export const clearGoal: PuzzleGoal = { type: 'clear-the-table', moves: 5, proven: true };
export const clearLine: Move[] = [
  { type: 'move', from: 't1', to: 'fH', count: 1 },
  { type: 'move', from: 't1', to: 'fC', count: 1 },
  { type: 'move', from: 't2', to: 'fD', count: 1 },
  { type: 'move', from: 't3', to: 'fS', count: 1 },
  { type: 'move', from: 't4', to: 'fH', count: 1 },
];

/** Hidden cards under a 7 of spades that may go on the 8 of hearts. */
export const onlyView = makeView({
  tableau: [
    [2, ['7S']],
    [0, ['8H']],
  ],
  stock: 10,
});

/** `view` and `goal` as the server serves a puzzle (GET /api/puzzles/next). */
export function servedPuzzle(id: string, view: PlayerView, goal: PuzzleGoal): Puzzle {
  return {
    id,
    view: structuredClone(view) as Puzzle['view'],
    goal,
    rating: 1480,
    themes: [goal.type],
    plays: 3,
    source: { gameId: 'g1', ply: 40, date: null },
  };
}
