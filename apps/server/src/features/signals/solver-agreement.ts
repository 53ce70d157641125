/**
 * Agreement with the solver's line (docs/fair-play.md "Signals"). Pure.
 *
 * Walks the played line keeping the solver's winning line from the current position. Only the player's
 * choices are counted: pile moves made where two or more pile moves were legal (a stock move, or the only
 * pile move, tells nothing; the line is followed through them when they are its moves). A choice agrees when
 * it is the line's next move or leads to the same position in one move (`positionKey`); two orders of moves
 * that meet again later are not detected. On a deviation the line is dropped and the solver is asked again
 * from the next position the player moves from, within the game's budget of solves
 * (`SignalBudget.agreementSolves`, each node-limited). Moves made where the solver gave no winning line
 * (proved lost, unknown within its budget, or the budget of solves spent) and auto-completion moves are not
 * counted.
 */
import { type Move, applyMove, legalMoves } from '@klondike/rules';
import { type PlayedMove, type PositionSolver, positionKey, sameMove } from './positions.js';

/** The solver agreement of one game. */
export interface Agreement {
  /** Share 0…1 of the counted moves that agreed; null when no move was counted (no verdict). */
  readonly agreement: number | null;
  /** Moves counted: made from a position where a solver's winning line was known. */
  readonly counted: number;
  /** Of those, moves that agreed with the line. */
  readonly agreed: number;
}

/** The solver agreement of `moves` (a game's played line), asking `solver` at most `maxSolves` times. */
export function solverAgreement(
  moves: readonly PlayedMove[],
  solver: PositionSolver,
  maxSolves: number,
): Agreement {
  let line: readonly Move[] | null = null;
  let at = 0;
  let lineKey = '';
  let solves = 0;
  let counted = 0;
  let agreed = 0;
  for (const p of moves) {
    if (p.auto) {
      line = null;
      continue;
    }
    const key = positionKey(p.before);
    if (line === null || key !== lineKey || at >= line.length) {
      line = null;
      const cached = solver.known(p.before);
      if (cached === undefined && solves >= maxSolves) continue;
      if (cached === undefined) solves++;
      const v = cached ?? solver.verdict(p.before);
      if (v.verdict !== 'won' || v.line.length === 0) continue;
      line = v.line;
      at = 0;
    }
    const next = line[at] as Move;
    if (!isChoice(p)) {
      // Not a choice: a stock move, or the only move off the stock side. Follow the line if it is its move.
      if (sameMove(next, p.move)) {
        at++;
        lineKey = positionKey(p.after);
      } else line = null;
      continue;
    }
    counted++;
    let same = sameMove(next, p.move);
    if (!same) {
      const r = applyMove(p.before, next);
      same = r.ok && positionKey(r.value) === positionKey(p.after);
    }
    if (same) {
      agreed++;
      at++;
      lineKey = positionKey(p.after);
    } else line = null;
  }
  return { agreement: counted === 0 ? null : agreed / counted, counted, agreed };
}

/** Whether a played move was a choice: a pile move made where two or more pile moves were legal. */
function isChoice(p: PlayedMove): boolean {
  if (p.move.type !== 'move') return false;
  let n = 0;
  for (const m of legalMoves(p.before)) if (m.type === 'move' && ++n >= 2) return true;
  return false;
}
