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
} from '@klondike/rules';
import { tr } from '../i18n';
import { suitName } from './cards';
import { pileName } from './format';

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

/** A card as said in a hint (current language), e.g. "the 7 of hearts", "the queen of spades". */
export function spokenCard(code: CardCode): string {
  const c = cardInfo(code);
  return c ? tr('card.the', { rank: tr(`card.spoken.${c.rank}`), suit: suitName(c.suit) }) : code;
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
  if (move.type === 'draw') return tr('hint.draw');
  if (move.type === 'recycle') return tr('hint.recycle');
  if (move.type === 'last-pass') return tr('hint.lastPass');
  const cards = faceUpCards(view, move.from);
  const lead = cards.length >= move.count ? cards[cards.length - move.count] : undefined;
  const t = tableauIndex(move.to);
  if (!lead) {
    const what = tr('common.cards', {}, move.count);
    return tr('hint.moveFromTo', { what, from: pileName(move.from), to: pileName(move.to) });
  }
  const rest = move.count - 1;
  const card = spokenCard(lead);
  const what =
    rest === 1 ? tr('hint.andOne', { card }) : rest > 1 ? tr('hint.andMore', { card, n: rest }) : card;
  if (isFoundationPile(move.to)) return tr('hint.toFoundation', { what });
  const onto = t >= 0 ? topCard(view, move.to) : null;
  return onto ? tr('hint.onto', { what, onto: spokenCard(onto) }) : tr('hint.toEmpty', { what, n: t + 1 });
}

/** Badge text of a verdict. */
export function verdictText(verdict: Verdict): string {
  return verdict === 'won' ? tr('hint.winnable') : verdict === 'impossible' ? tr('hint.noWin') : '?';
}
