/**
 * A puzzle played on the table (docs/puzzles.md), pure: the player's answer is checked for legality locally
 * with the rules package before it is sent, and the server's solution is turned into positions to play out.
 *
 * - `only-move`: the position may hide cards; the first legal move is the whole answer (`isLegalViewMove`,
 *   the rules' own answer from a view).
 * - `clear-the-table`: every card is known (no face-down card, an empty stock), so `viewState` rebuilds the
 *   exact engine state and each move is played by the engine itself (`applyMove`, R4–R11, R16); the attempt
 *   ends when the table is cleared (R12), when the goal's moves are used up, or when the game is blocked
 *   (R13).
 */
import {
  applyMove,
  applyViewMove,
  isLegalViewMove,
  playerView,
  viewState,
  type GameState,
  type Move,
  type PlayerView,
} from '@klondike/rules';
import type { PuzzleGoal } from '@klondike/protocol';
import { describeMove } from './format';

/** The local play of one attempt: the position now, the moves played, and whether the attempt is over. */
export interface PuzzlePlay {
  readonly goal: PuzzleGoal;
  /** The position as shown now (the puzzle's view before any move). */
  readonly view: PlayerView;
  /** The engine state of a `clear-the-table` puzzle (exact: every card is known); null for `only-move`. */
  readonly state: GameState | null;
  /** The answer so far, in order (what POST /api/puzzles/:id/attempt takes). */
  readonly moves: readonly Move[];
  /** The answer is complete: send it. */
  readonly done: boolean;
}

/** Why a move was not taken: not legal here (the rules' refusal), or the attempt is already over. */
export type PuzzleMoveRefusal = 'illegal' | 'done';

/** Whether `view` shows every card (no face-down card, an empty stock): a `clear-the-table` position. */
export function everyCardKnown(view: PlayerView): boolean {
  return view.stock.count === 0 && view.tableau.every((p) => p.faceDown === 0);
}

/** The start of an attempt at a puzzle whose position is `view` and goal `goal`. */
export function startPlay(view: PlayerView, goal: PuzzleGoal): PuzzlePlay {
  const state = goal.type === 'clear-the-table' && everyCardKnown(view) ? viewState(view) : null;
  return { goal, view, state, moves: [], done: false };
}

/**
 * Plays `move` in the attempt: the next play, or why not. An `only-move` attempt is done after its one legal
 * move; a `clear-the-table` one when the table is won (R12), blocked (R13) or the goal's moves are spent.
 */
export function playMove(
  play: PuzzlePlay,
  move: Move,
): { ok: true; play: PuzzlePlay } | { ok: false; why: PuzzleMoveRefusal } {
  if (play.done) return { ok: false, why: 'done' };
  if (play.view.status !== 'playing') return { ok: false, why: 'illegal' };
  if (!play.state) {
    if (!isLegalViewMove(play.view, move)) return { ok: false, why: 'illegal' };
    // A pile move is shown where it lands; a stock move turns a card nobody may see yet: the view stays.
    const view = applyViewMove(play.view, move) ?? play.view;
    return { ok: true, play: { ...play, view, moves: [...play.moves, move], done: true } };
  }
  const next = applyMove(play.state, move);
  if (!next.ok) return { ok: false, why: 'illegal' };
  const view = playerView(next.value, 0);
  const moves = [...play.moves, move];
  const done = view.status !== 'playing' || moves.length >= play.goal.moves;
  return { ok: true, play: { ...play, state: next.value, view, moves, done } };
}

/** One position of a solution played out: the view after `move` (the first frame: the puzzle, no move). */
export interface SolutionFrame {
  readonly view: PlayerView;
  readonly move: Move | null;
  /** What the move did, in words (empty for the first frame). */
  readonly caption: string;
}

/**
 * The positions of `solution` played from the puzzle's `view`: every move for a `clear-the-table` puzzle
 * (the engine from the exact state), the one move for `only-move` (where it lands; a draw's card stays
 * hidden). Stops at the first move that does not apply (the frames so far).
 */
export function solutionFrames(
  view: PlayerView,
  goal: PuzzleGoal,
  solution: readonly Move[],
): SolutionFrame[] {
  const frames: SolutionFrame[] = [{ view, move: null, caption: '' }];
  let play = { ...startPlay(view, goal), goal: { ...goal, moves: Number.MAX_SAFE_INTEGER } as PuzzleGoal };
  for (const move of solution) {
    const before = play.view;
    const r = playMove({ ...play, done: false }, move);
    if (!r.ok) break;
    play = r.play;
    frames.push({ view: play.view, move, caption: describeMove(move, before, play.view) });
  }
  return frames;
}
