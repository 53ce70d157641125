/** Display formatting. Pure. */
import { faceUpCards, isFoundationPile, tableauIndex, type Move, type PlayerView } from '@klondike/rules';
import { cardName } from './cards';

/** `m:ss`, or `h:mm:ss` past an hour. */
export function formatTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Human name of a pile. */
export function pileName(pile: string): string {
  const t = tableauIndex(pile);
  if (t >= 0) return `pile ${t + 1}`;
  if (isFoundationPile(pile)) return 'the foundation';
  return `the ${pile}`;
}

/**
 * Sentence for the screen-reader live region about a move, read against the view *before* the move
 * (`before`) and after it (`after`).
 */
export function describeMove(move: Move, before: PlayerView | null, after: PlayerView): string {
  if (move.type === 'draw') {
    const top = after.waste[after.waste.length - 1];
    return top ? `Drew ${cardName(top)}.` : 'Drew from the stock.';
  }
  if (move.type === 'recycle') return 'Turned the waste over into the stock.';
  if (move.type === 'last-pass')
    return 'Last pass: the waste is turned over. From now on each draw turns one card, and no redeal follows.';
  const cards = before ? faceUpCards(before, move.from) : [];
  const bottom = cards[cards.length - move.count];
  const what = bottom
    ? `${cardName(bottom)}${move.count > 1 ? ` and ${move.count - 1} more` : ''}`
    : `${move.count} card${move.count > 1 ? 's' : ''}`;
  return `Moved ${what} to ${isFoundationPile(move.to) ? 'its foundation' : pileName(move.to)}.`;
}
