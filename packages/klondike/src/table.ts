/**
 * The table's facts every part of the engine reads (game.ts, legal-moves.ts, status.ts, auto.ts,
 * player-view.ts): where a pile name points, whether a card fits a tableau pile or a foundation, the redeals
 * left, and whether a game is won or over. Pure. Only `isWon` and `isOver` are public (through game.ts).
 */
import { type Card, IS_RED, RANK, SUIT_INDEX } from './cards.js';
import type { PileId } from './moves.js';
import type { GameState, TableauPile } from './state.js';

/** Where a pile name points inside the state. */
export type PileRef =
  | { readonly kind: 'stock' }
  | { readonly kind: 'waste' }
  | { readonly kind: 'tableau'; readonly index: number }
  | { readonly kind: 'foundation'; readonly suit: number };

/** Each pile name's place in the state. */
export const PILE_REFS: Readonly<Record<PileId, PileRef>> = {
  stock: { kind: 'stock' },
  waste: { kind: 'waste' },
  t1: { kind: 'tableau', index: 0 },
  t2: { kind: 'tableau', index: 1 },
  t3: { kind: 'tableau', index: 2 },
  t4: { kind: 'tableau', index: 3 },
  t5: { kind: 'tableau', index: 4 },
  t6: { kind: 'tableau', index: 5 },
  t7: { kind: 'tableau', index: 6 },
  fC: { kind: 'foundation', suit: 0 },
  fD: { kind: 'foundation', suit: 1 },
  fH: { kind: 'foundation', suit: 2 },
  fS: { kind: 'foundation', suit: 3 },
};

/** True when all 52 cards are on the foundations (docs/rules.md R12). */
export function isWon(state: GameState): boolean {
  const f = state.foundations;
  return f[0] === 13 && f[1] === 13 && f[2] === 13 && f[3] === 13;
}

/** True when the game can take no more moves: won (R12) or resigned (R13). A blocked game can still move. */
export function isOver(state: GameState): boolean {
  return state.resigned || isWon(state);
}

/** Redeals still allowed (R11); none once the last pass (R16) is taken. */
export function redealsLeft(state: GameState): number | null {
  if (state.lastPass) return 0;
  const limit = state.options.redeals;
  return limit === null ? null : Math.max(0, limit - state.recycles);
}

/** Whether `card` may go on top of tableau `pile` (R4, R7). */
export function fitsTableau(card: Card, pile: TableauPile): boolean {
  const n = pile.cards.length;
  if (n === 0) return RANK[card] === 13; // R7
  const top = pile.cards[n - 1] as Card;
  return RANK[card] === (RANK[top] as number) - 1 && IS_RED[card] !== IS_RED[top]; // R4
}

/** Whether `card` is the next card of its suit's foundation (R8). */
export function fitsFoundation(card: Card, foundations: readonly number[]): boolean {
  return RANK[card] === (foundations[SUIT_INDEX[card] as number] as number) + 1; // R8
}
