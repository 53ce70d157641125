/**
 * Fair-play signals of one attempt, without a database (fairness/signals.ts `signalsOf`, `lineShare`): the
 * time from the attempt's creation to its first move, and the share of its moves equal to the solver's line
 * at the same position; undo and resign entries count for neither.
 */
import type { Move } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { lineShare, signalsOf } from '../../../src/features/fairness/signals.js';

const draw: Move = { type: 'draw' };
const recycle: Move = { type: 'recycle' };
const toFoundation: Move = { type: 'move', from: 't1', to: 'fC', count: 1 };
const line: Move[] = [draw, toFoundation, draw, recycle];

describe('fair-play signals (pure)', () => {
  it.each([
    // moves, expected share of the line
    [[], 0],
    [[draw, toFoundation, draw, recycle], 1],
    [[draw, draw, draw, draw], 0.5],
    [[toFoundation, draw], 0],
    [[draw, toFoundation, draw, recycle, draw, draw], 4 / 6], // past the line's end nothing matches
  ] as const)('lineShare(%o) = %f', (moves, share) => {
    expect(lineShare(moves, line)).toBeCloseTo(share, 10);
  });

  it('the first move counts from the creation; undo and resign are not moves', () => {
    const created = 1_000_000;
    const log = [
      { kind: 'undo', move: null, at: created + 500 },
      { kind: 'move', move: draw, at: created + 4_000 },
      { kind: 'move', move: draw, at: created + 9_000 },
      { kind: 'resign', move: null, at: created + 12_000 },
    ];
    expect(signalsOf(log, line, created)).toEqual({ firstMoveMs: 4_000, lineShare: 0.5 });
  });

  it('no move: no first-move time and a share of 0; a move logged before the creation counts as 0 ms', () => {
    expect(signalsOf([{ kind: 'resign', move: null, at: 5 }], line, 0)).toEqual({
      firstMoveMs: null,
      lineShare: 0,
    });
    expect(signalsOf([{ kind: 'move', move: draw, at: 90 }], line, 100).firstMoveMs).toBe(0);
  });
});
