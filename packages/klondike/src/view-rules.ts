/**
 * The rules from the player's side: legality answered from a `PlayerView` alone, for a client that must
 * highlight drop targets, decide what a drag picks up, pick the move of a double-click, show a move before the
 * server confirms it and play auto-complete — without a second implementation of the rules.
 *
 * How: `viewState` rebuilds an engine `GameState` from the view, putting the cards the view does not show
 * (face-down tableau cards and the stock) in their places in an arbitrary order. No rule looks at the identity
 * of a hidden card — a pile move takes face-up cards only and lands on a face-up card or an empty pile, and
 * draw, recycle and the last pass depend on counts (docs/rules.md R4–R11, R16) — so every question below is
 * answered by the engine itself (`applyMove`, `legalMoves`) and agrees with the server on every position; the
 * property test `view-rules.test.ts` checks that on thousands of random positions.
 */
import { type Card, type CardCode, RANK, SUIT_INDEX, cardCode, parseCard } from './cards.js';
import { canAutoComplete, safeAutoMove } from './auto.js';
import { applyMove } from './game.js';
import {
  FOUNDATION_PILES,
  type FoundationPileId,
  type Move,
  type MoveError,
  type PileId,
  TABLEAU_PILES,
  type TableauPileId,
  moveError,
} from './moves.js';
import type { GameState, TableauPile } from './state.js';
import type { PlayerView, TableauView } from './view.js';

/** Index 0…6 of a tableau pile name, or -1 when `pile` is not a tableau pile. */
export function tableauIndex(pile: string): number {
  return (TABLEAU_PILES as readonly string[]).indexOf(pile);
}

/** True when `pile` names a tableau pile (`t1` … `t7`). */
export function isTableauPile(pile: string): pile is TableauPileId {
  return tableauIndex(pile) >= 0;
}

/** True when `pile` names a foundation (`fC`, `fD`, `fH`, `fS`). */
export function isFoundationPile(pile: string): pile is FoundationPileId {
  return (FOUNDATION_PILES as readonly string[]).includes(pile);
}

/** Cards on a view's foundations, 0 … 52 (a foundation's top card's rank is its height; R8). */
export function foundationCount(foundations: Readonly<Record<FoundationPileId, string | null>>): number {
  let n = 0;
  for (const f of FOUNDATION_PILES) {
    const top = foundations[f];
    const card = top === null ? undefined : parseCard(top);
    if (card !== undefined) n += RANK[card] as number;
  }
  return n;
}

/** The cards a pile shows face up, bottom first; a foundation shows its top card only, the stock none. */
export function faceUpCards(view: PlayerView, pile: PileId): readonly CardCode[] {
  const t = tableauIndex(pile);
  if (t >= 0) return (view.tableau[t] as TableauView).faceUp;
  if (pile === 'waste') return view.waste;
  if (isFoundationPile(pile)) {
    const top = view.foundations[pile];
    return top ? [top] : [];
  }
  return [];
}

/** The top face-up card of a pile, or null. */
export function topCard(view: PlayerView, pile: PileId): CardCode | null {
  const cards = faceUpCards(view, pile);
  return cards.length > 0 ? (cards[cards.length - 1] as CardCode) : null;
}

/** Cards a draw turns now: one after the last pass (R16), else the game's draw (R10). */
export function drawCount(view: PlayerView): 1 | 3 {
  return view.lastPass === 'taken' ? 1 : view.options.draw;
}

/**
 * An engine state with the view's visible cards where the view shows them and the cards it hides (face-down
 * tableau cards, the stock) filled in from the rest of the pack in an arbitrary fixed order. Legality never
 * depends on which hidden card is where (see the module comment). The state has no history: undo is not
 * asked of it. Never show a hidden card of this state: its identity is made up.
 */
export function viewState(view: PlayerView): GameState {
  const seen = new Uint8Array(52);
  const mark = (code: CardCode): Card => {
    const card = parseCard(code) ?? 0;
    seen[card] = 1;
    return card;
  };
  const faceUp = view.tableau.map((p) => p.faceUp.map(mark));
  const waste = view.waste.map(mark);
  const foundations = FOUNDATION_PILES.map((f) => {
    const top = view.foundations[f];
    if (top === null) return 0;
    const card = parseCard(top);
    if (card === undefined) return 0;
    const height = RANK[card] as number;
    for (let r = 1; r <= height; r++) seen[(SUIT_INDEX[card] as number) * 13 + r - 1] = 1;
    return height;
  });
  const hidden: Card[] = [];
  for (let c = 0; c < 52; c++) if (seen[c] === 0) hidden.push(c);
  // A consistent view hides exactly `hidden.length` cards; a hand-made one may not, and then cards repeat.
  let next = 0;
  const take = (): Card => (hidden.length === 0 ? 0 : (hidden[next++ % hidden.length] as Card));
  const tableau: TableauPile[] = view.tableau.map((p, i) => {
    const down: Card[] = Array.from({ length: p.faceDown }, take);
    return { cards: [...down, ...(faceUp[i] as Card[])], faceDown: p.faceDown };
  });
  const stock: Card[] = Array.from({ length: view.stock.count }, take);
  return {
    options: view.options,
    deal: [],
    tableau,
    foundations,
    stock,
    waste,
    recycles: view.recycles,
    lastPass: view.lastPass === 'taken',
    score: view.score,
    moves: view.moves,
    resigned: view.status === 'resigned',
    history: null,
  };
}

/**
 * Why the server would refuse `move` in the position the view shows, or null when it would accept it: the
 * engine's own answer (`applyMove`, R4–R11, R16), with the same error codes. One case exists only in a view
 * made by `applyViewMove`: a pile whose uncovered card the server has not revealed yet takes nothing
 * (`not-face-up`) until the server's view arrives.
 */
export function validateViewMove(view: PlayerView, move: Move): MoveError | null {
  if (view.status === 'won' || view.status === 'resigned') return moveError('game-over');
  if (move.type === 'move') {
    const to = tableauIndex(move.to);
    const target = to >= 0 ? (view.tableau[to] as TableauView) : undefined;
    if (target && target.faceDown > 0 && target.faceUp.length === 0)
      return moveError('not-face-up', 'The card turned up there is not shown yet.');
  }
  const r = applyMove(viewState(view), move);
  return r.ok ? null : r.error;
}

/** True when the server would accept `move` in the position the view shows (`validateViewMove`). */
export function isLegalViewMove(view: PlayerView, move: Move): boolean {
  return validateViewMove(view, move) === null;
}

/**
 * How many cards a pick-up on face-up card `index` (0 = bottom face-up card) of `pile` takes, or 0 when
 * nothing may be picked up there: the card and every card above it when they may move together to some pile
 * (R5, under `wholePile` the whole face-up run or the top card alone); from the waste or a foundation the top
 * card alone (a foundation only when R9 lets cards come back).
 */
export function dragCount(view: PlayerView, pile: PileId, index: number): number {
  const cards = faceUpCards(view, pile);
  if (index < 0 || index >= cards.length) return 0;
  const count = cards.length - index;
  // Targets that say something about the picked-up cards: a foundation judges a single card only, and a
  // foundation never takes from another foundation.
  const targets: PileId[] = [...TABLEAU_PILES];
  if (count === 1 && !isFoundationPile(pile)) targets.push(...FOUNDATION_PILES);
  const canMoveSomewhere = targets.some((to) => {
    if (to === pile) return false;
    const e = validateViewMove(view, { type: 'move', from: pile, to, count });
    // The pick-up itself is fine when the refusal is about the target only.
    return e === null || TARGET_ERRORS.has(e.code);
  });
  return canMoveSomewhere ? count : 0;
}

/** Refusals about where cards land, not about the cards picked up. */
const TARGET_ERRORS: ReadonlySet<MoveError['code']> = new Set([
  'tableau-build',
  'king-to-empty',
  'foundation-build',
]);

/** Every foundation and tableau pile that `count` cards from the top of `from` may legally go to. */
export function legalTargets(view: PlayerView, from: PileId, count: number): PileId[] {
  return [...FOUNDATION_PILES, ...TABLEAU_PILES].filter((to) =>
    isLegalViewMove(view, { type: 'move', from, to, count }),
  );
}

/** The move of the top card of `from` to its foundation, when legal (R8); null otherwise. */
export function foundationMove(view: PlayerView, from: PileId): Move | null {
  const top = topCard(view, from);
  if (top === null || isFoundationPile(from)) return null;
  const card = parseCard(top);
  if (card === undefined) return null;
  const move: Move = {
    type: 'move',
    from,
    to: FOUNDATION_PILES[SUIT_INDEX[card] as number] as PileId,
    count: 1,
  };
  return isLegalViewMove(view, move) ? move : null;
}

/**
 * The move a double-click or tap on face-up card `index` of `pile` makes: to its foundation when it is a single
 * card that may go there, else to the first tableau pile that takes it, non-empty piles before empty ones (and
 * a run already heading an otherwise empty pile never hops to another empty one). Null when none applies.
 */
export function smartMove(view: PlayerView, pile: PileId, index: number): Move | null {
  const count = dragCount(view, pile, index);
  if (count === 0) return null;
  if (count === 1) {
    const f = foundationMove(view, pile);
    if (f) return f;
  }
  const targets = legalTargets(view, pile, count).filter(isTableauPile);
  const t = tableauIndex(pile);
  const loneRun = t >= 0 && index === 0 && (view.tableau[t] as TableauView).faceDown === 0;
  const nonEmpty = targets.filter((p) => topCard(view, p) !== null);
  const empty = loneRun ? [] : targets.filter((p) => topCard(view, p) === null);
  const to = nonEmpty[0] ?? empty[0];
  return to ? { type: 'move', from: pile, to, count } : null;
}

/**
 * For a move between two piles chosen without a count (keyboard: "3 then 5"), the count that makes it legal —
 * the longest run of the source that fits the target — or null when none does.
 */
export function resolveCount(view: PlayerView, from: PileId, to: PileId): number | null {
  const source = faceUpCards(view, from);
  const max = isTableauPile(from) && isTableauPile(to) ? source.length : Math.min(1, source.length);
  for (let count = max; count >= 1; count--) {
    if (isLegalViewMove(view, { type: 'move', from, to, count })) return count;
  }
  return null;
}

/** The stock's click: draw while the stock has cards (R10), else recycle when allowed (R11); else null. */
export function stockMove(view: PlayerView): Move | null {
  if (view.stock.count > 0) return { type: 'draw' };
  const recycle: Move = { type: 'recycle' };
  return isLegalViewMove(view, recycle) ? recycle : null;
}

/**
 * The next auto-complete move (R15): of the waste's and the tableau's top cards that may go to their
 * foundation, the lowest-ranked one. Null when none may.
 */
export function nextFoundationMove(view: PlayerView): Move | null {
  let best: { move: Move; rank: number } | null = null;
  for (const from of ['waste', ...TABLEAU_PILES] as const) {
    const move = foundationMove(view, from);
    if (!move) continue;
    const rank = RANK[parseCard(topCard(view, from) as CardCode) as Card] as number;
    if (!best || rank < best.rank) best = { move, rank };
  }
  return best?.move ?? null;
}

/**
 * The client's "auto-move to foundation" setting: a foundation move that can never be needed on the tableau
 * (R15's safe moves, `safeAutoMove`), asked of the view. Null when the game is not being played, when no such
 * move exists, or when the card it names is not face up in the view (a card the server has not revealed yet).
 */
export function safeViewAutoMove(view: PlayerView): Move | null {
  if (view.status !== 'playing') return null;
  const move = safeAutoMove(viewState(view));
  if (!move || move.type !== 'move') return null;
  return topCard(view, move.from) !== null && isLegalViewMove(view, move) ? move : null;
}

/**
 * The view after a pile move, for showing it before the server confirms it; null when the move is illegal
 * (`validateViewMove`) or is not a pile move (a draw's cards are the server's to reveal). A card the move
 * uncovers (R6) stays face down here: its identity comes with the server's view. The score changes by the
 * move's points (S1, S2); the time element stays the server's.
 */
export function applyViewMove(view: PlayerView, move: Move): PlayerView | null {
  if (move.type !== 'move' || validateViewMove(view, move) !== null) return null;
  const before = viewState(view);
  const r = applyMove(before, move);
  if (!r.ok) return null;
  const after = r.value;
  const tableau: TableauView[] = after.tableau.map((p, i) => {
    const turnedUp = p.faceDown < (before.tableau[i] as TableauPile).faceDown;
    const faceDown = turnedUp ? p.faceDown + 1 : p.faceDown;
    return { faceDown, faceUp: p.cards.slice(faceDown).map(cardCode) };
  });
  const foundationTop = (suit: number): CardCode | null => {
    const h = after.foundations[suit] as number;
    return h === 0 ? null : cardCode(suit * 13 + h - 1);
  };
  return {
    ...view,
    tableau,
    foundations: { fC: foundationTop(0), fD: foundationTop(1), fH: foundationTop(2), fS: foundationTop(3) },
    waste: after.waste.map(cardCode),
    score: view.score + (after.score - before.score),
    moves: after.moves,
    canUndo: view.options.undo,
    canAutoComplete: canAutoComplete(after) && tableau.every((p) => p.faceDown === 0),
  };
}
