/**
 * A puzzle played on the table, pure (src/lib/puzzle.ts): `only-move` takes one legal move and ends,
 * `clear-the-table` is played by the engine from the exact position and ends when won (R12) or when the
 * goal's moves are spent; illegal moves are refused and change nothing (R4, R5, R8); the solution becomes
 * positions to play out.
 */
import type { PuzzleGoal } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { everyCardKnown, playMove, solutionFrames, startPlay, type PuzzlePlay } from '../src/lib/puzzle';
import { clearGoal, clearLine, clearView, onlyView } from './puzzleFixtures';

const onlyGoal: PuzzleGoal = { type: 'only-move', moves: 1 };

function playAll(play: PuzzlePlay, moves: readonly Move[]): PuzzlePlay {
  let p = play;
  for (const m of moves) {
    const r = playMove(p, m);
    if (!r.ok) throw new Error(`refused ${JSON.stringify(m)}: ${r.why}`);
    p = r.play;
  }
  return p;
}

describe('a clear-the-table puzzle', () => {
  it('is rebuilt exactly and won with the line (R12): the answer is complete', () => {
    expect(everyCardKnown(clearView)).toBe(true);
    const end = playAll(startPlay(clearView, clearGoal), clearLine);
    expect(end.view.status).toBe('won');
    expect(end.done).toBe(true);
    expect(end.moves).toEqual(clearLine);
  });

  it('refuses an illegal move and changes nothing (R8: a king under a queen cannot go home)', () => {
    const start = startPlay(clearView, clearGoal);
    const r = playMove(start, { type: 'move', from: 't4', to: 'fH', count: 1 });
    expect(r).toEqual({ ok: false, why: 'illegal' });
    expect(start.moves).toEqual([]);
  });

  it('ends when the goal’s moves are spent without a win (a wasted move, R5)', () => {
    const detour: Move = { type: 'move', from: 't1', to: 't3', count: 1 }; // QH onto KS
    const end = playAll(startPlay(clearView, clearGoal), [
      detour,
      { type: 'move', from: 't1', to: 'fC', count: 1 },
      { type: 'move', from: 't2', to: 'fD', count: 1 },
      { type: 'move', from: 't3', to: 'fH', count: 1 },
      { type: 'move', from: 't3', to: 'fS', count: 1 },
    ]);
    expect(end.done).toBe(true);
    expect(end.view.status).toBe('playing'); // KH is still on the table
    expect(playMove(end, clearLine[4] as Move)).toEqual({ ok: false, why: 'done' });
  });

  it('plays the solution out as positions, one per move, with captions', () => {
    const frames = solutionFrames(clearView, clearGoal, clearLine);
    expect(frames).toHaveLength(6);
    expect(frames[0]?.view).toBe(clearView);
    expect(frames[5]?.view.status).toBe('won');
    expect(frames[1]?.caption).not.toBe('');
  });
});

describe('an only-move puzzle', () => {
  it('ends after one legal move; the turned-up card stays hidden (never made up)', () => {
    const start = startPlay(onlyView, onlyGoal);
    expect(start.state).toBeNull();
    const r = playMove(start, { type: 'move', from: 't1', to: 't2', count: 1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.play.done).toBe(true);
    expect(r.play.view.tableau[1]?.faceUp).toEqual(['8H', '7S']);
    expect(r.play.view.tableau[0]?.faceUp).toEqual([]);
  });

  it('refuses an illegal move (R4: an 8 does not go on a 7) and a second move', () => {
    const start = startPlay(onlyView, onlyGoal);
    expect(playMove(start, { type: 'move', from: 't2', to: 't1', count: 1 })).toEqual({
      ok: false,
      why: 'illegal',
    });
    const r = playMove(start, { type: 'draw' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.play.done).toBe(true);
    expect(r.play.view).toBe(onlyView); // the drawn card is not known here
    expect(playMove(r.play, { type: 'move', from: 't1', to: 't2', count: 1 })).toEqual({
      ok: false,
      why: 'done',
    });
  });

  it('a solution that does not apply stops where it fails', () => {
    const frames = solutionFrames(onlyView, onlyGoal, [{ type: 'move', from: 't2', to: 't1', count: 1 }]);
    expect(frames).toHaveLength(1);
  });
});
