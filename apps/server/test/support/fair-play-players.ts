/**
 * Players for the fair-play signals' tests and calibration (bench/signals.bench.ts): a visible-information
 * player (honest: it never looks at a face-down card or the stock order), an oracle (the solver's
 * full-knowledge line), and timed logs of their lines at a human pace or at machine speed.
 */
import { type GameState, type Move, TABLEAU_PILES, applyMove, gameStatus, legalMoves } from '@klondike/rules';
import { solve } from '@klondike/solver';
import type { TimedAction } from '../../src/features/signals/analysis.js';

/**
 * An honest player: it decides from the visible cards only. In order: a card to its foundation; a move that
 * turns up a face-down card (the pile is chosen by `pick` among the candidates: a fixed rule or a random
 * one, never by the hidden card); the waste's card onto the tableau; a draw; a recycle. Stops after `maxMoves` or when nothing is left, or
 * after two recycles without a card leaving the stock side.
 */
export function visiblePlayer(
  start: GameState,
  pick: (candidates: readonly Move[], state: GameState) => Move,
  maxMoves = 400,
): Move[] {
  const moves: Move[] = [];
  let s = start;
  let idleRecycles = 0;
  while (moves.length < maxMoves && gameStatus(s) === 'playing') {
    const legal = legalMoves(s);
    const toFoundation = legal.find(
      (m) => m.type === 'move' && m.to.startsWith('f') && (m.from === 'waste' || m.from.startsWith('t')),
    );
    const turnUps = legal.filter((m) => {
      if (m.type !== 'move') return false;
      const t = TABLEAU_PILES.indexOf(m.from as 't1');
      const pile = t < 0 ? undefined : s.tableau[t];
      return pile !== undefined && pile.faceDown > 0 && m.count === pile.cards.length - pile.faceDown;
    });
    const fromWaste = legal.find((m) => m.type === 'move' && m.from === 'waste' && m.to.startsWith('t'));
    const draw = legal.find((m) => m.type === 'draw');
    const recycle = legal.find((m) => m.type === 'recycle' || m.type === 'last-pass');
    let move: Move | undefined =
      toFoundation ?? (turnUps.length > 0 ? pick(turnUps, s) : undefined) ?? fromWaste;
    if (move === undefined && draw !== undefined) move = draw;
    if (move === undefined && recycle !== undefined && idleRecycles < 2) {
      idleRecycles++;
      move = recycle;
    }
    if (move === undefined) break;
    if (move.type === 'move') idleRecycles = 0;
    const r = applyMove(s, move);
    if (!r.ok) break;
    moves.push(move);
    s = r.value;
  }
  return moves;
}

/** A fixed rule over turn-up moves: the pile with the most face-down cards (a classic heuristic). */
export function mostFaceDown(c: readonly Move[], s: GameState): Move {
  const down = (m: Move): number =>
    m.type === 'move' ? (s.tableau[TABLEAU_PILES.indexOf(m.from as 't1')]?.faceDown ?? 0) : 0;
  return c.reduce((best, m) => (down(m) > down(best) ? m : best));
}

/** A random rule over turn-up moves, from the seeded `random` (floats in [0, 1)). */
export function randomPick(random: () => number): (c: readonly Move[]) => Move {
  return (c) => c[Math.floor(random() * c.length)] as Move;
}

/** An oracle: the solver's full-knowledge winning line from `start` (null when it finds none in its budget). */
export function oracleLine(start: GameState, maxNodes = 200_000): Move[] | null {
  const r = solve(start, start.options, { maxNodes, shortenMs: 50 });
  return r.verdict === 'won' ? (r.line ?? null) : null;
}

/** A log-normal gap sampler: median `medianMs`, spread `sigma` (of the log), from `random`. */
export function logNormalGaps(random: () => number, medianMs: number, sigma: number): () => number {
  return () => {
    const u = Math.max(1e-12, random());
    const v = random();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.round(medianMs * Math.exp(sigma * z));
  };
}

/** A timed log of `moves`, the first at `startAt`, each next one `gap()` ms later. */
export function timedLog(
  moves: readonly Move[],
  gap: () => number,
  startAt = 1_700_000_000_000,
): TimedAction[] {
  let at = startAt;
  return moves.map((move, i) => {
    if (i > 0) at += gap();
    return { kind: 'move', move, at };
  });
}
