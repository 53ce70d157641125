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
import { suitName } from './cards';

const SPOKEN = ['', 'Ace', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'Jack', 'Queen', 'King'];
const colourOf = (suit: Suit): 'red' | 'black' => (suit === 'D' || suit === 'H' ? 'red' : 'black');

/** The sentence for a refused `move` in `view`, or null when the move is legal. */
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
      if (card.rank === 13) return 'A King goes only on an empty pile.';
      const other = colourOf(card.suit) === 'red' ? 'black' : 'red';
      const article = card.rank === 8 || card.rank === 1 ? 'An' : 'A';
      return `${article} ${SPOKEN[card.rank]} goes on a ${other} ${SPOKEN[card.rank + 1]}.`;
    }
    case 'king-to-empty':
      return 'Only a King (or a run headed by one) can fill an empty pile.';
    case 'foundation-build': {
      if (!card || move.type !== 'move') break;
      const top = topCard(view, move.to);
      const topInfo = top ? cardInfo(top) : undefined;
      if (!topInfo && card.rank !== 1) return 'A foundation starts with an Ace.';
      if (topInfo && topInfo.suit !== card.suit) return `That foundation is for ${suitName(topInfo.suit)}.`;
      if (topInfo)
        return `The ${suitName(topInfo.suit)} foundation takes the ${SPOKEN[topInfo.rank + 1]} next.`;
      return 'A foundation takes one suit, from the Ace up.';
    }
    case 'count-to-foundation':
      return 'Cards go to a foundation one at a time.';
    case 'not-a-run':
      return 'Those cards do not form a run (down by one, colours alternating).';
    case 'whole-pile-only':
      return 'Under these rules only the whole face-up run of a pile moves.';
    case 'foundation-to-tableau-off':
      return 'These rules do not let cards come back from a foundation.';
    case 'no-redeals-left':
      return 'No redeals are left under these rules.';
    case 'game-over':
      return 'This game is over.';
    default:
      break;
  }
  return 'That move is not allowed.';
}
