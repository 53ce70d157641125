/**
 * Move generation: every legal move from a state (R4–R11, R16), from shared frozen move objects so that
 * generating allocates nothing per move. Pure.
 */
import { type Card, IS_RED, RANK, SUIT_INDEX, makeCard } from './cards.js';
import { FOUNDATION_PILES, type Move, TABLEAU_PILES } from './moves.js';
import type { GameState, TableauPile } from './state.js';
import { fitsFoundation, fitsTableau, isOver, redealsLeft } from './table.js';

// Scratch space for legalMoves (single-threaded and not re-entrant, so sharing is safe).
const WANT_RANK = new Int8Array(7);
const WANT_NOT_RED = new Int8Array(7);

/** Shared, frozen move objects (moves are immutable), so move generation allocates nothing per move. */
const DRAW: Move = Object.freeze({ type: 'draw' });
const RECYCLE: Move = Object.freeze({ type: 'recycle' });
const LAST_PASS: Move = Object.freeze({ type: 'last-pass' });
/** The moves on the stock's side of the table (R10, R11, R16). */
export const STOCK_MOVES: readonly Move[] = [DRAW, RECYCLE, LAST_PASS];
const TABLEAU_TO_TABLEAU: readonly (readonly (readonly Move[])[])[] = TABLEAU_PILES.map((from) =>
  TABLEAU_PILES.map((to) =>
    Array.from({ length: 14 }, (_, count) => Object.freeze({ type: 'move', from, to, count }) as Move),
  ),
);
const TABLEAU_TO_FOUNDATION: readonly (readonly Move[])[] = TABLEAU_PILES.map((from) =>
  FOUNDATION_PILES.map((to) => Object.freeze({ type: 'move', from, to, count: 1 }) as Move),
);
const WASTE_TO_FOUNDATION: readonly Move[] = FOUNDATION_PILES.map(
  (to) => Object.freeze({ type: 'move', from: 'waste', to, count: 1 }) as Move,
);
const WASTE_TO_TABLEAU: readonly Move[] = TABLEAU_PILES.map(
  (to) => Object.freeze({ type: 'move', from: 'waste', to, count: 1 }) as Move,
);
const FOUNDATION_TO_TABLEAU: readonly (readonly Move[])[] = FOUNDATION_PILES.map((from) =>
  TABLEAU_PILES.map((to) => Object.freeze({ type: 'move', from, to, count: 1 }) as Move),
);

/**
 * Every legal move from a state, in a fixed order: foundation moves first (tableau, then waste), then
 * tableau moves, waste to tableau, foundation to tableau (R9), draw, recycle, last pass (R16). Empty once
 * the game is over.
 * Every move returned applies with `applyMove`.
 */
export function legalMoves(state: GameState): Move[] {
  const out: Move[] = [];
  if (isOver(state)) return out;
  const { tableau, foundations, options } = state;
  // Tableau tops to foundations (R8).
  for (let i = 0; i < 7; i++) {
    const cards = (tableau[i] as TableauPile).cards;
    if (cards.length === 0) continue;
    const top = cards[cards.length - 1] as Card;
    if (fitsFoundation(top, foundations)) {
      out.push((TABLEAU_TO_FOUNDATION[i] as Move[])[SUIT_INDEX[top] as number] as Move);
    }
  }
  const w = state.waste.length;
  const wasteTop = w > 0 ? (state.waste[w - 1] as Card) : -1;
  if (wasteTop >= 0 && fitsFoundation(wasteTop, foundations)) {
    out.push(WASTE_TO_FOUNDATION[SUIT_INDEX[wasteTop] as number] as Move);
  }
  // Tableau to tableau (R4, R5, R7). The face-up cards of a pile always form one run.
  const wholePile = options.tableauMoves === 'wholePile';
  // Per target pile: the rank its next card must have (13 when empty) and the colour it must not have.
  const want = WANT_RANK;
  const wantRed = WANT_NOT_RED;
  for (let j = 0; j < 7; j++) {
    const cards = (tableau[j] as TableauPile).cards;
    const m = cards.length;
    if (m === 0) {
      want[j] = 13;
      wantRed[j] = 2; // any colour
    } else {
      const top = cards[m - 1] as Card;
      want[j] = (RANK[top] as number) - 1;
      wantRed[j] = IS_RED[top] as number;
    }
  }
  for (let i = 0; i < 7; i++) {
    const src = tableau[i] as TableauPile;
    const cards = src.cards;
    const n = cards.length;
    if (n === 0) continue;
    const topRank = RANK[cards[n - 1] as Card] as number;
    const faceUp = n - src.faceDown;
    const row = TABLEAU_TO_TABLEAU[i] as Move[][];
    for (let j = 0; j < 7; j++) {
      if (j === i) continue;
      const count = (want[j] as number) - topRank + 1; // cards from the wanted card up to the top
      if (count < 1 || count > faceUp) continue;
      if (wholePile && count !== faceUp) continue;
      if (IS_RED[cards[n - count] as Card] === wantRed[j]) continue;
      out.push((row[j] as Move[])[count] as Move);
    }
  }
  // Waste to tableau.
  if (wasteTop >= 0) {
    for (let j = 0; j < 7; j++) {
      if (fitsTableau(wasteTop, tableau[j] as TableauPile)) out.push(WASTE_TO_TABLEAU[j] as Move);
    }
  }
  // Foundation to tableau (R9).
  if (options.foundationToTableau) {
    for (let s = 0; s < 4; s++) {
      const h = foundations[s] as number;
      if (h === 0) continue;
      const card = makeCard(s, h);
      for (let j = 0; j < 7; j++) {
        if (fitsTableau(card, tableau[j] as TableauPile))
          out.push((FOUNDATION_TO_TABLEAU[s] as Move[])[j] as Move);
      }
    }
  }
  if (state.stock.length > 0) out.push(DRAW);
  else if (w > 0) {
    const left = redealsLeft(state); // 0 once the last pass is taken
    if (left === null || left > 0) {
      out.push(RECYCLE);
      if (options.finalSinglePass) out.push(LAST_PASS);
    }
  }
  return out;
}
