/**
 * Client-side legality, from a PlayerView only, for highlighting targets, deciding whether a drop should
 * snap back, picking the move of a double-click/tap, optimistic display and auto-complete. The server
 * decides; these helpers only mirror RULES.md R4, R5, R7, R8, R9, R10, R11, R16 well enough to guide the UI.
 */
import type { CardCode, FoundationPileId, Move, PileId, PlayerView, TableauView } from '@klondike/rules';
import { card, foundationOf } from './cards';

export const TABLEAU_IDS = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'] as const;
export const FOUNDATION_IDS = ['fC', 'fD', 'fH', 'fS'] as const;
export type TableauId = (typeof TABLEAU_IDS)[number];

/** A pile's index in the tableau (0..6), or -1 when it is not a tableau pile. */
export function tableauIndex(pile: PileId | string): number {
  return (TABLEAU_IDS as readonly string[]).indexOf(pile);
}

export function isTableau(pile: PileId | string): pile is TableauId {
  return tableauIndex(pile) >= 0;
}

export function isFoundation(pile: PileId | string): pile is FoundationPileId {
  return (FOUNDATION_IDS as readonly string[]).includes(pile);
}

/** Cards a pile shows face up, bottom first (a foundation shows only its top card). */
export function faceUpCards(view: PlayerView, pile: PileId): readonly CardCode[] {
  const t = tableauIndex(pile);
  if (t >= 0) return (view.tableau[t] as TableauView).faceUp;
  if (pile === 'waste') return view.waste;
  if (isFoundation(pile)) {
    const top = view.foundations[pile];
    return top ? [top] : [];
  }
  return [];
}

/** Top face-up card of a pile, or null. */
export function topCard(view: PlayerView, pile: PileId): CardCode | null {
  const cards = faceUpCards(view, pile);
  return cards.length > 0 ? (cards[cards.length - 1] as CardCode) : null;
}

/** R4/R7: may `moving` be placed on a tableau pile whose top card is `target` (null = empty pile)? */
export function canStackOnTableau(moving: CardCode, target: CardCode | null): boolean {
  const m = card(moving);
  if (target === null) return m.rank === 13;
  const t = card(target);
  return t.rank === m.rank + 1 && t.red !== m.red;
}

/** R8: may `moving` go onto foundation `pile` whose top is `top` (null = empty)? */
export function canPlayToFoundation(moving: CardCode, pile: FoundationPileId, top: CardCode | null): boolean {
  const m = card(moving);
  if (foundationOf(m.suit) !== pile) return false;
  if (top === null) return m.rank === 1;
  return card(top).rank === m.rank - 1;
}

/** R5: the cards (bottom first) form a descending run of alternating colours. */
export function isRun(cards: readonly CardCode[]): boolean {
  for (let i = 1; i < cards.length; i++) {
    const below = card(cards[i - 1] as CardCode);
    const above = card(cards[i] as CardCode);
    if (below.rank !== above.rank + 1 || below.red === above.red) return false;
  }
  return true;
}

/**
 * How many cards a drag that starts on face-up card `index` of tableau pile `t` (0..6) picks up, or 0 when
 * that card cannot be picked up (not a run above it). Under `wholePile`, a tableau pick-up is either the whole
 * face-up run or (for a foundation) the top card alone (R5).
 */
export function dragCount(view: PlayerView, pile: PileId, index: number): number {
  const cards = faceUpCards(view, pile);
  if (index < 0 || index >= cards.length) return 0;
  if (!isTableau(pile)) {
    // Waste and foundations: only the top card moves.
    if (index !== cards.length - 1) return 0;
    if (isFoundation(pile) && !view.options.foundationToTableau) return 0;
    return 1;
  }
  const run = cards.slice(index);
  if (!isRun(run)) return 0;
  if (view.options.tableauMoves === 'wholePile' && index !== 0 && index !== cards.length - 1) return 0;
  return run.length;
}

/** Cards a draw turns now: one after the last pass (R16), else the game's draw (R10). */
export function drawCount(view: PlayerView): 1 | 3 {
  return view.lastPass === 'taken' ? 1 : view.options.draw;
}

/**
 * Whether `move` (a pile move) looks legal from the view. Draw, recycle and the last pass are checked too:
 * the last pass (R16) is offered in place of a redeal (stock empty, waste not) while the view says it is
 * `available`; after it no redeal is left.
 */
export function isLegalMove(view: PlayerView, move: Move): boolean {
  if (view.status !== 'playing') return false;
  if (move.type === 'draw') return view.stock.count > 0;
  if (move.type === 'recycle' || move.type === 'last-pass') {
    if (view.stock.count > 0 || view.waste.length === 0) return false;
    if (move.type === 'last-pass') return view.lastPass === 'available';
    return view.lastPass !== 'taken' && (view.redealsLeft === null || view.redealsLeft > 0);
  }
  const { from, to, count } = move;
  if (from === to || count < 1) return false;
  if (to === 'stock' || to === 'waste' || from === 'stock') return false;
  const source = faceUpCards(view, from);
  if (count > source.length) return false;
  if (count > 1 && !(isTableau(from) && isTableau(to))) return false;
  if (isFoundation(from) && !view.options.foundationToTableau) return false;
  const moving = source.slice(source.length - count);
  if (!isRun(moving)) return false;
  if (
    isTableau(from) &&
    isTableau(to) &&
    view.options.tableauMoves === 'wholePile' &&
    count !== source.length
  ) {
    return false;
  }
  const bottom = moving[0] as CardCode;
  if (isFoundation(to)) return count === 1 && canPlayToFoundation(bottom, to, view.foundations[to]);
  if (isTableau(to)) {
    const target = view.tableau[tableauIndex(to)] as TableauView;
    if (target.faceDown > 0 && target.faceUp.length === 0) return false; // cannot happen after R6
    return canStackOnTableau(bottom, topCard(view, to));
  }
  return false;
}

/** Every pile that `count` cards from the top of `from` may legally go to (for highlighting). */
export function legalTargets(view: PlayerView, from: PileId, count: number): PileId[] {
  const out: PileId[] = [];
  for (const to of [...FOUNDATION_IDS, ...TABLEAU_IDS]) {
    if (isLegalMove(view, { type: 'move', from, to, count })) out.push(to);
  }
  return out;
}

/** The foundation move of the top card of `from`, if legal. */
export function foundationMove(view: PlayerView, from: PileId): Move | null {
  const top = topCard(view, from);
  if (!top || isFoundation(from)) return null;
  const move: Move = { type: 'move', from, to: foundationOf(card(top).suit), count: 1 };
  return isLegalMove(view, move) ? move : null;
}

/**
 * The move a double-click or tap on face-up card `index` of `pile` makes: its foundation when it is the top
 * card and that is legal, else the first tableau pile that takes the run (non-empty piles before empty ones,
 * so a King does not hop between empty columns).
 */
export function smartMove(view: PlayerView, pile: PileId, index: number): Move | null {
  const count = dragCount(view, pile, index);
  if (count === 0) return null;
  if (count === 1) {
    const f = foundationMove(view, pile);
    if (f) return f;
  }
  const targets = legalTargets(view, pile, count).filter(isTableau);
  const sourceIsLoneKingRun =
    isTableau(pile) && index === 0 && (view.tableau[tableauIndex(pile)] as TableauView).faceDown === 0;
  const nonEmpty = targets.filter((t) => topCard(view, t) !== null);
  const empty = sourceIsLoneKingRun ? [] : targets.filter((t) => topCard(view, t) === null);
  const to = nonEmpty[0] ?? empty[0];
  return to ? { type: 'move', from: pile, to, count } : null;
}

/**
 * For a move between two piles chosen without a count (keyboard: "3 then 5"), the count that makes it
 * legal: the one run of the source whose bottom card fits the target. Null when none does.
 */
export function resolveCount(view: PlayerView, from: PileId, to: PileId): number | null {
  const source = faceUpCards(view, from);
  if (source.length === 0) return null;
  const max = isTableau(from) && isTableau(to) ? source.length : 1;
  for (let count = max; count >= 1; count--) {
    if (isLegalMove(view, { type: 'move', from, to, count })) return count;
  }
  return null;
}

/**
 * The view after a pile move, for optimistic display until the server's state arrives. A face-down card that
 * the move uncovers stays face down here (its identity is the server's to reveal). Null when the move does not
 * look legal. Draw and recycle are not applied (the stock's order is hidden).
 */
export function applyPileMove(view: PlayerView, move: Move): PlayerView | null {
  if (move.type !== 'move' || !isLegalMove(view, move)) return null;
  const { from, to, count } = move;
  const source = faceUpCards(view, from);
  const moving = source.slice(source.length - count);
  const tableau = view.tableau.map((t) => ({ faceDown: t.faceDown, faceUp: [...t.faceUp] }));
  const foundations = { ...view.foundations };
  let waste = [...view.waste];
  const fi = tableauIndex(from);
  if (fi >= 0) (tableau[fi] as { faceUp: CardCode[] }).faceUp.splice(source.length - count, count);
  else if (from === 'waste') waste = waste.slice(0, -1);
  else if (isFoundation(from)) {
    const c = card(moving[0] as CardCode);
    foundations[from] = c.rank > 1 ? (`${'A23456789TJQK'[c.rank - 2]}${c.suit}` as CardCode) : null;
  }
  const ti = tableauIndex(to);
  if (ti >= 0) (tableau[ti] as { faceUp: CardCode[] }).faceUp.push(...moving);
  else if (isFoundation(to)) foundations[to] = moving[0] as CardCode;
  return { ...view, tableau, foundations, waste, moves: view.moves + 1, canUndo: view.options.undo };
}

/**
 * The next auto-complete move (R15): the lowest-ranked top card (tableau or waste) that can go to its
 * foundation. Null when none can.
 */
export function nextFoundationMove(view: PlayerView): Move | null {
  let best: { move: Move; rank: number } | null = null;
  for (const from of ['waste', ...TABLEAU_IDS] as PileId[]) {
    const move = foundationMove(view, from);
    if (!move) continue;
    const rank = card(topCard(view, from) as CardCode).rank;
    if (!best || rank < best.rank) best = { move, rank };
  }
  return best?.move ?? null;
}

/** The stock click: draw when the stock has cards, else recycle when allowed; null when neither applies. */
export function stockMove(view: PlayerView): Move | null {
  if (view.stock.count > 0) return { type: 'draw' };
  const recycle: Move = { type: 'recycle' };
  return isLegalMove(view, recycle) ? recycle : null;
}

/** Cards left to play: 52 minus the cards on the foundations. */
export function cardsOnFoundations(view: PlayerView): number {
  let n = 0;
  for (const f of FOUNDATION_IDS) {
    const top = view.foundations[f];
    if (top) n += card(top).rank;
  }
  return n;
}
