/**
 * A puzzle's stored position (docs/puzzles.md): the whole position, hidden cards included, as JSON the
 * database keeps, and its unseen cards — exactly what the one view function (`playerView`) does not show:
 * the tableau's face-down cards and the stock. Pure.
 */
import {
  type Card,
  type CardCode,
  type GameOptions,
  type GameState,
  cardCode,
  formatDeal,
  parseCard,
  parseDeal,
} from '@klondike/rules';

/** A position as stored in `Puzzle.position`: card codes, never sent to a client. */
export interface StoredPosition {
  /** The source game's deal (52 card codes, space-separated): `GameState.deal`. */
  readonly deal: string;
  readonly options: GameOptions;
  /** t1 … t7: every card bottom first; the first `faceDown` are face down. */
  readonly tableau: readonly { readonly cards: readonly CardCode[]; readonly faceDown: number }[];
  /** Cards on each foundation, suits C, D, H, S. */
  readonly foundations: readonly number[];
  /** Stock, last = top. */
  readonly stock: readonly CardCode[];
  /** Waste, last = top. */
  readonly waste: readonly CardCode[];
  readonly recycles: number;
  readonly lastPass: boolean;
}

/** The stored form of `s` (score, move count and undo history dropped). */
export function storePosition(s: GameState): StoredPosition {
  return {
    deal: formatDeal(s.deal),
    options: { ...s.options },
    tableau: s.tableau.map((p) => ({ cards: p.cards.map(cardCode), faceDown: p.faceDown })),
    foundations: [...s.foundations],
    stock: s.stock.map(cardCode),
    waste: s.waste.map(cardCode),
    recycles: s.recycles,
    lastPass: s.lastPass,
  };
}

function card(code: string): Card {
  const c = parseCard(code);
  if (c === undefined) throw new Error(`stored position: bad card ${code}`);
  return c;
}

/**
 * The game state of a stored position: no move made (score 0, no history), not resigned.
 * Errors: throws on a malformed stored position (the server's own rows).
 */
export function loadPosition(p: StoredPosition): GameState {
  const deal = parseDeal(p.deal);
  if (!deal.ok) throw new Error(`stored position: ${deal.error.message}`);
  return {
    options: { ...p.options },
    deal: deal.value,
    tableau: p.tableau.map((t) => ({ cards: t.cards.map(card), faceDown: t.faceDown })),
    foundations: [...p.foundations],
    stock: p.stock.map(card),
    waste: p.waste.map(card),
    recycles: p.recycles,
    lastPass: p.lastPass,
    score: 0,
    moves: 0,
    resigned: false,
    history: null,
  };
}

/** Number of unseen cards of `s`: face-down tableau cards plus the stock. */
export function unseenCount(s: GameState): number {
  return s.tableau.reduce((n, p) => n + p.faceDown, s.stock.length);
}

/** The unseen cards of `s` in a fixed order of places: each pile's face-down cards bottom first, then the stock. */
export function unseenCards(s: GameState): Card[] {
  const out: Card[] = [];
  for (const p of s.tableau) out.push(...p.cards.slice(0, p.faceDown));
  out.push(...s.stock);
  return out;
}

/** `s` with its unseen places (in `unseenCards` order) filled with `cards` instead. */
export function withUnseen(s: GameState, cards: readonly Card[]): GameState {
  let i = 0;
  const tableau = s.tableau.map((p) => {
    if (p.faceDown === 0) return p;
    const down = cards.slice(i, i + p.faceDown);
    i += p.faceDown;
    return { cards: [...down, ...p.cards.slice(p.faceDown)], faceDown: p.faceDown };
  });
  const stock = cards.slice(i, i + s.stock.length);
  return { ...s, tableau, stock };
}

/** Every permutation of `items` (k! of them; the identity first). */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  const out: T[][] = [];
  items.forEach((head, i) => {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) out.push([head, ...tail]);
  });
  return out;
}

/** Every arrangement of the unseen cards of `s` (k! states; `s` itself first). */
export function arrangements(s: GameState): GameState[] {
  return permutations(unseenCards(s)).map((cards) => withUnseen(s, cards));
}
