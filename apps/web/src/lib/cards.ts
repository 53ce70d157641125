/**
 * How the table names cards to a person: corner labels, spoken names, suit symbols, and the reading of a
 * pasted deal. Reading a card code itself is the rules package's (`cardInfo`, `parseDeal`); nothing here
 * parses a code on its own. Names are in the current language (src/i18n); no Vue.
 */
import { cardInfo, formatDeal, parseDeal, type CardCode, type Suit } from '@klondike/rules';
import { tr } from '../i18n';

/** Index label shown in a card's corner: A, 2 … 10, J, Q, K. */
export function rankLabel(rank: number): string {
  return ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'][rank] ?? '?';
}

/** Unicode suit symbols (for text, e.g. announcements and labels). */
export const SUIT_SYMBOL: Record<Suit, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };

/** Spoken name in the current language, e.g. "Ten of hearts" (the code itself when it is not a card). */
export function cardName(code: CardCode): string {
  const c = cardInfo(code);
  return c ? tr('card.name', { rank: tr(`card.rank.${c.rank}`), suit: suitName(c.suit) }) : code;
}

/** Name of a suit in the current language, e.g. "hearts". */
export function suitName(suit: Suit): string {
  return tr(`card.suit.${suit}`);
}

/**
 * Reads a pasted deal as people type it — any case, `10` for `T`, commas or white space between cards — and
 * checks it with the rules package's `parseDeal` (52 distinct codes). Returns the deal in the public notation
 * or the reason it is not one.
 */
export function parseDealText(text: string): { ok: true; deal: string } | { ok: false; error: string } {
  const tokens = text
    .trim()
    .split(/[\s,]+/)
    .filter((t) => t.length > 0)
    .map((t) => t.toUpperCase().replace(/^10/, 'T'));
  const deal = parseDeal(tokens.join(' '));
  if (!deal.ok) {
    const message = deal.error.message;
    return { ok: false, error: `${message.charAt(0).toUpperCase()}${message.slice(1)}.` };
  }
  return { ok: true, deal: formatDeal(deal.value) };
}
