/**
 * A game's status (docs/rules.md R12, R13): won, resigned, blocked or playing. Blocked is R13's search over
 * the positions reachable without progress, with the key of a position it needs and the shortcut that
 * carries the status over a move that cannot change it. Pure.
 */
import type { Card } from './cards.js';
import { applyMove } from './game.js';
import { STOCK_MOVES, legalMoves } from './legal-moves.js';
import { FOUNDATION_PILES, type Move, TABLEAU_PILES } from './moves.js';
import type { GameState, TableauPile } from './state.js';
import { PILE_REFS, fitsFoundation, fitsTableau, isOver, isWon, redealsLeft } from './table.js';
import type { GameStatus } from './view.js';

interface Measures {
  readonly foundation: number;
  readonly faceDown: number;
  readonly stockAndWaste: number;
  readonly empty: number;
}

function measures(state: GameState): Measures {
  let faceDown = 0;
  let empty = 0;
  for (const p of state.tableau) {
    faceDown += p.faceDown;
    if (p.cards.length === 0) empty++;
  }
  const f = state.foundations;
  return {
    foundation: (f[0] as number) + (f[1] as number) + (f[2] as number) + (f[3] as number),
    faceDown,
    stockAndWaste: state.stock.length + state.waste.length,
    empty,
  };
}

function progressed(m: Measures, start: Measures): boolean {
  return (
    m.foundation > start.foundation ||
    m.faceDown < start.faceDown ||
    m.stockAndWaste < start.stockAndWaste ||
    m.empty > start.empty
  );
}

/** positionKey's code units: a card (0…51) and a count (0…13) each as one character, and a separator. */
const KEY_CARD = 0x40;
const KEY_COUNT = 0x30;
const KEY_SEPARATOR = 0x7c; // '|'

/**
 * A text key of the position alone (tableau with face-down counts, foundations, stock and waste in order,
 * the redeals used when they are limited, the last pass taken — R16): two states with the same key have the
 * same legal moves and the same future, whatever moves led to them. Holds hidden cards: server-side only.
 * One character per card and per count (~70 in all), written in one go: the R13 search keys every position
 * it reaches, up to BLOCKED_SEARCH_LIMIT of them in one call.
 */
export function positionKey(state: GameState): string {
  const units: number[] = [];
  for (const p of state.tableau) {
    units.push(KEY_COUNT + p.faceDown);
    for (const c of p.cards) units.push(KEY_CARD + c);
    units.push(KEY_SEPARATOR);
  }
  for (const h of state.foundations) units.push(KEY_COUNT + h);
  units.push(KEY_SEPARATOR);
  for (const c of state.stock) units.push(KEY_CARD + c);
  units.push(KEY_SEPARATOR);
  for (const c of state.waste) units.push(KEY_CARD + c);
  let key = String.fromCharCode(...units);
  if (state.options.redeals !== null) key += `|${state.recycles}`;
  if (state.options.finalSinglePass) key += state.lastPass ? '|L' : '|-';
  return key;
}

/**
 * Whether `move` (legal in `state`) makes R13 progress, judged from the move alone when that is certain:
 * a card to a foundation (the foundations grow), a card off the waste (stock and waste shrink), or every
 * face-up card of a tableau pile that has face-down cards under them (R6 turns one up). False means
 * "not known without playing it", not "no progress".
 */
export function progressesAtOnce(state: GameState, move: Move): boolean {
  if (move.type !== 'move') return false;
  if (move.from === 'waste') return true;
  if ((FOUNDATION_PILES as readonly string[]).includes(move.to)) return true;
  const i = (TABLEAU_PILES as readonly string[]).indexOf(move.from);
  if (i < 0) return false;
  const pile = state.tableau[i] as TableauPile;
  return pile.faceDown > 0 && move.count === pile.cards.length - pile.faceDown;
}

/** Most positions the R13 search visits before it gives up and says "not blocked". */
export const BLOCKED_SEARCH_LIMIT = 4000;

/**
 * docs/rules.md R13: true when no sequence of moves can make progress — no card can reach a foundation, no
 * face-down card can be turned up, no tableau pile can be emptied and no stock or waste card can be played,
 * however often the stock is drawn or redealt. The positions reachable by the moves that make no progress
 * (tableau shuffles, foundation to tableau and back, draws, redeals and, under R16, the last pass, after which
 * draws turn one card: a card a draw-3 pass skips may be reached that way) are searched; when there are more
 * than `BLOCKED_SEARCH_LIMIT` of them the answer is false, so "blocked" is never said wrongly. False once won
 * or resigned.
 *
 * The search takes the two sides of the table apart. The stock's moves and the tableau's never change
 * each other's legality, and neither changes the other's cards. So the reachable positions are every
 * stock-and-waste position the draws, redeals and last pass reach, times every tableau-and-foundation
 * position the tableau's moves reach. The stock's side is walked once (`stockSide`: at most two passes and
 * the last pass). The tableau's side is searched on its own. At each of its positions the search asks
 * whether a card the stock can bring to the waste's top fits there. The answer is the same as that of a
 * search of every combined position, the limit included: the product of the two counts is their number.
 * It visits fewer positions by the stock side's count: 25 in draw 1 with 24 cards in the stock and waste.
 */
export function isBlocked(state: GameState): boolean {
  if (isOver(state)) return false;
  // Cheapest first: a legal move that visibly makes progress settles it without playing any move.
  const first = legalMoves(state);
  for (const move of first) if (progressesAtOnce(state, move)) return false;
  const stock = stockSide(state);
  if (stock.positions > BLOCKED_SEARCH_LIMIT) return false;
  const start = measures(state);
  const seen = new Set<string>([positionKey(state)]);
  const queue: GameState[] = [state];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as GameState;
    // Progress from the waste: a card some draw turns up fits this tableau or these foundations.
    for (const card of stock.tops) {
      if (fitsFoundation(card, current.foundations)) return false;
      for (const pile of current.tableau) if (fitsTableau(card, pile)) return false;
    }
    for (const move of head === 0 ? first : legalMoves(current)) {
      // The tableau's side only: the stock's moves are stockSide's, and a card off the waste is progress.
      if (move.type !== 'move' || move.from === 'waste') continue;
      const r = applyMove(current, move);
      if (!r.ok) continue;
      if (progressed(measures(r.value), start)) return false;
      const key = positionKey(r.value);
      if (seen.has(key)) continue;
      if ((seen.size + 1) * stock.positions > BLOCKED_SEARCH_LIMIT) return false;
      seen.add(key);
      queue.push(r.value);
    }
  }
  return true;
}

/**
 * The stock's side of the R13 search from `state`: how many stock-and-waste positions the draws, redeals and
 * the last pass reach (R10, R11, R16), counted as `positionKey` counts them with the tableau left as it is,
 * and the cards that lie on the waste's top in one of them.
 */
function stockSide(state: GameState): { positions: number; tops: readonly Card[] } {
  const seen = new Set<number>([stockKey(state)]);
  const tops = new Set<Card>();
  const queue: GameState[] = [state];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as GameState;
    const w = current.waste.length;
    if (w > 0) tops.add(current.waste[w - 1] as Card);
    for (const move of STOCK_MOVES) {
      const r = applyMove(current, move);
      if (!r.ok) continue;
      const key = stockKey(r.value);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(r.value);
    }
  }
  return { positions: seen.size, tops: [...tops] };
}

/**
 * The stock-and-waste part of `positionKey` among positions the stock's moves reach from one another: the
 * stock's size, the redeals used when they are limited, and the last pass (R16). The stock and the waste
 * together always hold the same cards in the same order (a pass turns them over, unshuffled, R11), so the
 * stock's size says where the split between them lies.
 */
function stockKey(state: GameState): number {
  const { redeals, finalSinglePass } = state.options;
  const recycles = redeals === null ? 0 : state.recycles;
  return state.stock.length + 64 * (recycles * 2 + (finalSinglePass && state.lastPass ? 1 : 0));
}

/** The status of a game: `resigned`, `won` (R12), `blocked` (R13) or `playing`. */
export function gameStatus(state: GameState): GameStatus {
  if (state.resigned) return 'resigned';
  if (isWon(state)) return 'won';
  if (isBlocked(state)) return 'blocked';
  return 'playing';
}

/**
 * `gameStatus(after)`, where `after` is `before` with `move` applied and `beforeStatus` is
 * `gameStatus(before)`. It skips the R13 search (docs/rules.md R13) when the move cannot have changed the
 * answer, and always returns the same value as `gameStatus(after)`.
 *
 * Why the answer can be carried over. R13 asks whether any position reachable by moves that make no
 * progress has a move that does. Progress is measured against the start position: foundation cards, face-down
 * cards, stock and waste size, and empty piles. Some moves leave all four measures as they were and can be
 * undone by such moves again; such a move is reversible:
 * - a draw or a redeal while redeals are unlimited (R11) and the last pass (R16) has not been taken. Drawing
 *   on through the stock and redealing comes back to the same stock and waste. One exception: in draw 3,
 *   a position whose waste size is not a multiple of 3 (a waste card was played during this pass) is never
 *   reached again, because every later pass turns the cards three at a time from the start;
 * - a tableau-to-tableau move that turns up no card and leaves the number of empty piles as it was. That is
 *   either a run lifted off a face-up card onto another pile's top, which can go back onto that card (the
 *   face-up cards of a pile are always one run, R4), or a King's whole pile with nothing under it moved
 *   onto an empty pile, which can move back the same way. Under `tableauMoves: wholePile` only the second
 *   kind exists.
 *
 * For a reversible move, `before` and `after` have the same measures and can each reach the other without
 * progress. So they reach the same set of positions, and the search gives the same answer from either. That
 * holds even at `BLOCKED_SEARCH_LIMIT`: "blocked" needs the whole set explored, and the set is the same.
 * Every other move (to or from a foundation, from the waste, a turn-up, an undo, the last pass, a move
 * under a redeal limit) runs the search. Nothing is carried over from a game that is `won` or `resigned`.
 *
 * This matters when a player is stuck and cycles the stock: every draw is a new position, and a search can
 * visit up to BLOCKED_SEARCH_LIMIT positions, tens of ms, on the server's one thread.
 */
export function statusAfterMove(
  before: GameState,
  beforeStatus: GameStatus,
  move: Move,
  after: GameState,
): GameStatus {
  if (
    (beforeStatus === 'playing' || beforeStatus === 'blocked') &&
    reversibleWithoutProgress(before, move, after)
  )
    return beforeStatus;
  return gameStatus(after);
}

/** Whether `move` took `before` to `after` without changing R13's measures, and can be undone by such moves. */
function reversibleWithoutProgress(before: GameState, move: Move, after: GameState): boolean {
  switch (move.type) {
    case 'draw':
      return redealsLeft(before) === null && before.waste.length % before.options.draw === 0;
    case 'recycle':
      return redealsLeft(before) === null;
    case 'last-pass':
      return false;
    case 'move': {
      if (PILE_REFS[move.from]?.kind !== 'tableau' || PILE_REFS[move.to]?.kind !== 'tableau') return false;
      const a = measures(before);
      const b = measures(after);
      return a.faceDown === b.faceDown && a.empty === b.empty;
    }
  }
}
