/**
 * The review page's pure parts (lib/replay.ts): which frame put each move of the played line in place (undone
 * moves are not part of it, a resign ends it), and the winning continuation's steps.
 */
import type { Move } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { SOLUTION_STEP_MS, continuationSteps, standingMoveFrames, type ReplayStep } from '../src/lib/replay';

const draw: Move = { type: 'draw' };
const t1t2: Move = { type: 'move', from: 't1', to: 't2', count: 1 };
const move = (m: Move, atMs: number): ReplayStep => ({ type: 'move', move: m, atMs });

describe('the played line of a replay', () => {
  it('an undone move is not part of it; the move played after the undo is', () => {
    const steps: ReplayStep[] = [
      move(draw, 100),
      move(t1t2, 200),
      { type: 'undo', atMs: 300 },
      move(draw, 400),
      move(draw, 500),
    ];
    // Frames: 0 the deal, i after step i − 1. Standing: step 1 (frame 1), step 4 (frame 4), step 5 (frame 5).
    expect(standingMoveFrames(steps)).toEqual([1, 4, 5]);
  });

  it('a resign ends the line; an undo of nothing takes nothing', () => {
    expect(
      standingMoveFrames([
        { type: 'undo', atMs: 1 },
        move(draw, 2),
        { type: 'resign', atMs: 3 },
        move(draw, 4),
      ]),
    ).toEqual([2]);
  });

  it('the continuation keeps the first plies as played, then paces the solver line evenly', () => {
    const steps: ReplayStep[] = [
      move(draw, 100),
      { type: 'undo', atMs: 150 },
      move(t1t2, 200),
      move(draw, 900),
    ];
    const line: Move[] = [draw, t1t2];
    expect(continuationSteps(steps, 1, line)).toEqual([
      move(t1t2, 200),
      move(draw, 200 + SOLUTION_STEP_MS),
      move(t1t2, 200 + 2 * SOLUTION_STEP_MS),
    ]);
    expect(continuationSteps(steps, 0, [])).toEqual([]);
  });
});
