/**
 * The score at a game time (S1–S3) and the moves the table makes for the player (R15): auto-complete and
 * the safe auto-move to a foundation. Pure.
 */
import { type Card, IS_RED, RANK, SUIT_INDEX } from './cards.js';
import { STANDARD_POINTS, applyMove } from './game.js';
import { legalMoves } from './legal-moves.js';
import { FOUNDATION_PILES, type Move, type PileId, TABLEAU_PILES } from './moves.js';
import type { GameState, TableauPile } from './state.js';
import { fitsFoundation, isOver, isWon } from './table.js';

/**
 * The score in points for a game time of `elapsedMs` (the server's clock, first move to now or to the win).
 * S1 standard: move points, minus 2 every 10 s when timed, never below 0, plus 700000 / seconds on a win
 * that took at least 30 s (timed only). S2 Vegas: move points (from −52). S3 none: 0.
 */
export function currentScore(state: GameState, elapsedMs: number): number {
  const { scoring, timed } = state.options;
  if (scoring === 'none') return 0;
  if (scoring === 'vegas' || !timed) return state.score;
  const ms = Math.max(0, Math.floor(elapsedMs));
  let score = Math.max(
    0,
    state.score - STANDARD_POINTS.timePenalty * Math.floor(ms / STANDARD_POINTS.timePenaltyEveryMs),
  );
  const seconds = Math.floor(ms / 1000);
  if (isWon(state) && seconds >= STANDARD_POINTS.bonusMinSeconds)
    score += Math.floor(STANDARD_POINTS.bonusNumerator / seconds);
  return score;
}

/** docs/rules.md R15: auto-complete applies once stock and waste are empty and every tableau card is face up. */
export function canAutoComplete(state: GameState): boolean {
  if (isOver(state) || state.stock.length > 0 || state.waste.length > 0) return false;
  return state.tableau.every((p) => p.faceDown === 0);
}

/**
 * The foundation moves that finish a game where `canAutoComplete` holds (docs/rules.md R15), in order; empty
 * otherwise. With every card face up in descending runs the lowest remaining card is always a pile's top,
 * so this always reaches the win.
 */
export function autoCompleteMoves(state: GameState): Move[] {
  if (!canAutoComplete(state)) return [];
  const moves: Move[] = [];
  let current = state;
  for (;;) {
    const next = legalMoves(current).find(
      (m) => m.type === 'move' && m.to.startsWith('f') && m.from.startsWith('t'),
    );
    if (next === undefined) break;
    const r = applyMove(current, next);
    if (!r.ok) break;
    moves.push(next);
    current = r.value;
  }
  return moves;
}

/**
 * docs/rules.md R15: a foundation move that can never be needed on the tableau — a card whose rank is at most 2
 * more than both foundations of the opposite colour (Aces and Twos always). Returns the first such move from
 * a tableau top or the waste top, or null.
 */
export function safeAutoMove(state: GameState): Move | null {
  if (isOver(state)) return null;
  const f = state.foundations;
  const safe = (card: Card): boolean => {
    if (!fitsFoundation(card, f)) return false;
    const red = IS_RED[card] === 1;
    const opp = red ? Math.min(f[0] as number, f[3] as number) : Math.min(f[1] as number, f[2] as number);
    return (RANK[card] as number) <= opp + 2;
  };
  for (let i = 0; i < 7; i++) {
    const cards = (state.tableau[i] as TableauPile).cards;
    const top = cards[cards.length - 1];
    if (top !== undefined && safe(top))
      return {
        type: 'move',
        from: TABLEAU_PILES[i] as PileId,
        to: FOUNDATION_PILES[SUIT_INDEX[top] as number] as PileId,
        count: 1,
      };
  }
  const w = state.waste[state.waste.length - 1];
  if (w !== undefined && safe(w))
    return { type: 'move', from: 'waste', to: FOUNDATION_PILES[SUIT_INDEX[w] as number] as PileId, count: 1 };
  return null;
}
