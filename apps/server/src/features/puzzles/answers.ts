/**
 * Checking a puzzle's answer and showing a puzzle (docs/puzzles.md "Answers"), with the rules package. Pure.
 */
import type { Puzzle } from '@klondike/protocol';
import { type Move, applyMove, isWon, playerView, sameMove } from '@klondike/rules';
import { wireView } from '../../core/rooms/room.js';
import { loadPosition } from './position.js';
import type { PuzzleRow } from './repository.js';

/**
 * Whether `moves` answer puzzle `p`: `only-move` — exactly one move, the only move; `clear-the-table` — every
 * move legal in turn from the stored position (rules package), ending won, in at most the par.
 */
export function isCorrect(
  p: Pick<PuzzleRow, 'goal' | 'par' | 'position' | 'solution'>,
  moves: readonly Move[],
): boolean {
  if (p.goal === 'only-move') {
    const only = p.solution[0];
    return moves.length === 1 && only !== undefined && sameMove(moves[0] as Move, only);
  }
  if (moves.length > p.par) return false;
  let s = loadPosition(p.position);
  for (const m of moves) {
    const r = applyMove(s, m);
    if (!r.ok) return false;
    s = r.value;
  }
  return isWon(s);
}

/** A puzzle as served: its position through THE view function (no face-down card, no stock order). */
export function puzzleOf(p: PuzzleRow): Puzzle {
  return {
    id: p.id,
    view: wireView(playerView(loadPosition(p.position), 0)),
    goal:
      p.goal === 'only-move'
        ? { type: 'only-move', moves: 1 }
        : { type: 'clear-the-table', moves: p.par, proven: p.proven },
    rating: Math.round(p.rating),
    themes: [...p.themes],
    plays: p.plays,
    source: { gameId: p.gameId, ply: p.ply, date: p.dailyDate },
  };
}
