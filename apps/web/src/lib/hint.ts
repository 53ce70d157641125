/**
 * Hints from the solver (GET /api/games/:id/hint): what a hinted move highlights on the table and how it is
 * said in words. Pure; no Vue.
 */
import {
  cardInfo,
  faceUpCards,
  isFoundationPile,
  isLegalViewMove,
  tableauIndex,
  topCard,
  type CardCode,
  type Move,
  type PileId,
  type PlayerView,
  type Suit,
} from '@klondike/rules';
import { suitName } from './cards';

/** What a hinted move lights up: the card(s) or pile to take from, and the pile they go to. */
export interface HintHighlight {
  /** The move it shows. */
  readonly move: Move;
  /** The pile the move starts from (`stock` for a draw, a recycle or the last pass, which lights its button). */
  readonly sourcePile: PileId;
  /** Cards that move, bottom first (empty for draw and recycle: the stock is highlighted instead). */
  readonly sourceCards: readonly CardCode[];
  /** The pile they go to (null for draw and recycle). */
  readonly targetPile: PileId | null;
}

/** Answers of the winnable check, as shown by the badge. */
export type Verdict = 'won' | 'impossible' | 'unknown';

const SPOKEN_RANKS = ['', 'ace', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'jack', 'queen', 'king'];

/** A card as said in a hint, e.g. "the 7 of hearts", "the queen of spades". */
export function spokenCard(code: CardCode): string {
  const c = cardInfo(code);
  return c ? `the ${SPOKEN_RANKS[c.rank]} of ${suitName(c.suit as Suit)}` : code;
}

/**
 * Which cards and piles a hinted move highlights in `view`: for a tableau move of `count` cards the run of
 * that many top cards, for the waste its top card, for a foundation its top card; for draw and recycle the
 * stock. Null when the move does not fit the view (a stale hint) or the game is no longer being played (a
 * blocked game still takes moves, R13, but a hint there has nothing to show).
 */
export function hintHighlight(move: Move, view: PlayerView): HintHighlight | null {
  if (view.status !== 'playing' || !isLegalViewMove(view, move)) return null;
  if (move.type !== 'move') return { move, sourcePile: 'stock', sourceCards: [], targetPile: null };
  const cards = faceUpCards(view, move.from);
  return {
    move,
    sourcePile: move.from,
    sourceCards: cards.slice(cards.length - move.count),
    targetPile: move.to,
  };
}

/**
 * A hinted move in words, read against the view it was given for: "Move the 7 of hearts onto the 8 of
 * spades", "Move the ace of clubs to its foundation", "Move the king of spades to empty pile 4",
 * "Draw from the stock", "Turn the waste over".
 */
export function describeHint(move: Move, view: PlayerView): string {
  if (move.type === 'draw') return 'Draw from the stock';
  if (move.type === 'recycle') return 'Turn the waste over';
  if (move.type === 'last-pass') return 'Take the last pass, one card at a time';
  const cards = faceUpCards(view, move.from);
  const lead = cards.length >= move.count ? cards[cards.length - move.count] : undefined;
  const t = tableauIndex(move.to);
  if (!lead) {
    const what = `${move.count} card${move.count > 1 ? 's' : ''}`;
    const from = tableauIndex(move.from) >= 0 ? `pile ${tableauIndex(move.from) + 1}` : `the ${move.from}`;
    const to = t >= 0 ? `pile ${t + 1}` : 'the foundation';
    return `Move ${what} from ${from} to ${to}`;
  }
  const rest = move.count - 1;
  const what =
    spokenCard(lead) + (rest === 1 ? ' and the card on it' : rest > 1 ? ` and the ${rest} cards on it` : '');
  if (isFoundationPile(move.to)) return `Move ${what} to its foundation`;
  const onto = t >= 0 ? topCard(view, move.to) : null;
  return onto ? `Move ${what} onto ${spokenCard(onto)}` : `Move ${what} to empty pile ${t + 1}`;
}

/** Badge text of a verdict. */
export function verdictText(verdict: Verdict): string {
  return verdict === 'won' ? 'Winnable' : verdict === 'impossible' ? 'No win' : '?';
}
