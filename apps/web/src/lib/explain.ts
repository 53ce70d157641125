/**
 * Why a move is refused, said briefly to a person ("A 7 goes on a red 8."). The rules package decides and
 * names the rule (`validateViewMove` → an error code); this only puts that code into words with the cards
 * involved. Pure.
 */
import {
  cardInfo,
  faceUpCards,
  topCard,
  validateViewMove,
  type Move,
  type PlayerView,
  type Suit,
} from '@klondike/rules';
import { tr } from '../i18n';
import { suitName } from './cards';

const colourOf = (suit: Suit): 'red' | 'black' => (suit === 'D' || suit === 'H' ? 'red' : 'black');

/** The sentence for a refused `move` in `view` in the current language, or null when the move is legal. */
export function explainIllegal(view: PlayerView, move: Move): string | null {
  const error = validateViewMove(view, move);
  if (!error) return null;
  const moving =
    move.type === 'move'
      ? faceUpCards(view, move.from).at(
          -Math.max(1, Math.min(move.count, faceUpCards(view, move.from).length)),
        )
      : undefined;
  const card = moving ? cardInfo(moving) : undefined;
  switch (error.code) {
    case 'tableau-build': {
      if (!card) break;
      if (card.rank === 13) return tr('explain.kingOnlyEmpty');
      const other = colourOf(card.suit) === 'red' ? 'black' : 'red';
      return tr('explain.build', {
        card: tr(`explain.subject.${card.rank}`),
        target: tr(`explain.on.${other}.${card.rank + 1}`),
      });
    }
    case 'king-to-empty':
      return tr('explain.kingToEmpty');
    case 'foundation-build': {
      if (!card || move.type !== 'move') break;
      const top = topCard(view, move.to);
      const topInfo = top ? cardInfo(top) : undefined;
      if (!topInfo && card.rank !== 1) return tr('explain.foundationAce');
      if (topInfo && topInfo.suit !== card.suit)
        return tr('explain.foundationSuit', { suit: suitName(topInfo.suit) });
      if (topInfo && topInfo.rank < 13)
        return tr('explain.foundationNext', {
          suit: suitName(topInfo.suit),
          rank: tr(`card.short.${topInfo.rank + 1}`),
        });
      return tr('explain.foundationOneSuit');
    }
    case 'count-to-foundation':
      return tr('explain.oneAtATime');
    case 'not-a-run':
      return tr('explain.notARun');
    case 'whole-pile-only':
      return tr('explain.wholePile');
    case 'foundation-to-tableau-off':
      return tr('explain.noBack');
    case 'no-redeals-left':
      return tr('explain.noRedeals');
    case 'game-over':
      return tr('explain.gameOver');
    default:
      break;
  }
  return tr('common.notAllowed');
}
