/** Display formatting. Pure. */
import { faceUpCards, isFoundationPile, tableauIndex, type Move, type PlayerView } from '@klondike/rules';
import { tr } from '../i18n';
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

/** Human name of a pile in the current language ("pile 3", "the foundation", "the waste"). */
export function pileName(pile: string): string {
  const t = tableauIndex(pile);
  if (t >= 0) return tr('move.pile', { n: t + 1 });
  if (isFoundationPile(pile)) return tr('move.foundation');
  return tr(pile === 'stock' ? 'move.stock' : 'move.waste');
}

/**
 * Words added after every move's sentence, once the screen-reader table (lib/a11y.ts `moveDetail`: the card
 * turned up, the stock and waste, at the player's verbosity) has loaded; null until then.
 */
export const moveExtra: {
  fn: ((move: Move, before: PlayerView | null, after: PlayerView) => string) | null;
} = {
  fn: null,
};

/**
 * Sentence (current language) for the screen-reader live region about a move, read against the view *before* the move
 * (`before`) and after it (`after`).
 */
export function describeMove(move: Move, before: PlayerView | null, after: PlayerView): string {
  const extra = moveExtra.fn?.(move, before, after);
  return extra ? `${moveSentence(move, before, after)} ${extra}` : moveSentence(move, before, after);
}

function moveSentence(move: Move, before: PlayerView | null, after: PlayerView): string {
  if (move.type === 'draw') {
    const top = after.waste[after.waste.length - 1];
    return top ? tr('move.drew', { card: cardName(top) }) : tr('move.drewStock');
  }
  if (move.type === 'recycle') return tr('move.recycled');
  if (move.type === 'last-pass') return tr('move.lastPass');
  const cards = before ? faceUpCards(before, move.from) : [];
  const bottom = cards[cards.length - move.count];
  const what = bottom
    ? move.count > 1
      ? tr('move.cardAndMore', { card: cardName(bottom), n: move.count - 1 })
      : cardName(bottom)
    : tr('common.cards', {}, move.count);
  return tr('move.moved', {
    what,
    to: isFoundationPile(move.to) ? tr('move.itsFoundation') : pileName(move.to),
  });
}

/** A rating change with its sign: "+12", "−8" (a minus sign), "±0". */
export function signedDelta(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}
