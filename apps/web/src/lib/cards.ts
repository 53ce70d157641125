/**
 * Client-side card helpers: parse a card code (PRODUCT.md "Notation") into rank, suit and colour, and the
 * words and symbols the table shows. Pure; no Vue.
 */
import type { CardCode, FoundationPileId, Suit } from '@klondike/rules';

/** A parsed card. */
export interface CardInfo {
  readonly code: CardCode;
  /** 1 (Ace) … 13 (King). */
  readonly rank: number;
  readonly suit: Suit;
  readonly red: boolean;
}

const RANK_LETTERS = 'A23456789TJQK';
const SUIT_LETTERS = 'CDHS';

/** Rank (1..13) of a rank letter, or 0 when the letter is not a rank. */
export function rankOf(letter: string): number {
  return RANK_LETTERS.indexOf(letter) + 1;
}

/** Parses a card code such as `TH`; undefined when it is not one of the 52 codes. */
export function cardInfo(code: string): CardInfo | undefined {
  if (code.length !== 2) return undefined;
  const rank = rankOf(code[0] as string);
  const suit = code[1] as string;
  if (rank === 0 || !SUIT_LETTERS.includes(suit)) return undefined;
  return { code: code as CardCode, rank, suit: suit as Suit, red: suit === 'D' || suit === 'H' };
}

/** Like `cardInfo` but for codes already known to be valid (from a parsed view). */
export function card(code: CardCode): CardInfo {
  const info = cardInfo(code);
  if (!info) throw new Error(`not a card code: ${code}`);
  return info;
}

/** Code of a card from rank and suit. */
export function codeOf(rank: number, suit: Suit): CardCode {
  return `${RANK_LETTERS[rank - 1]}${suit}` as CardCode;
}

/** The foundation pile of a suit. */
export function foundationOf(suit: Suit): FoundationPileId {
  return `f${suit}` as FoundationPileId;
}

/** Index label shown in a card's corner: A, 2 … 10, J, Q, K. */
export function rankLabel(rank: number): string {
  return ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'][rank] ?? '?';
}

const RANK_NAMES = [
  '',
  'Ace',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Jack',
  'Queen',
  'King',
];
const SUIT_NAMES: Record<Suit, string> = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
/** Unicode suit symbols (for text, e.g. announcements and labels). */
export const SUIT_SYMBOL: Record<Suit, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };

/** Spoken name, e.g. "Ten of hearts". */
export function cardName(code: CardCode): string {
  const c = card(code);
  return `${RANK_NAMES[c.rank]} of ${SUIT_NAMES[c.suit]}`;
}

/** Name of a suit, e.g. "hearts". */
export function suitName(suit: Suit): string {
  return SUIT_NAMES[suit];
}

/**
 * Parses a pasted deal: 52 distinct card codes separated by white space or commas (case-insensitive).
 * Returns the normalised text (codes upper-case, single spaces) or an error message.
 */
export function parseDealText(text: string): { ok: true; deal: string } | { ok: false; error: string } {
  const tokens = text
    .trim()
    .split(/[\s,]+/)
    .filter((t) => t.length > 0)
    .map((t) => t.toUpperCase().replace(/^10/, 'T'));
  if (tokens.length !== 52) return { ok: false, error: `A deal has 52 cards; this has ${tokens.length}.` };
  const seen = new Set<string>();
  for (const t of tokens) {
    if (!cardInfo(t))
      return { ok: false, error: `"${t}" is not a card (use e.g. TH for the ten of hearts).` };
    if (seen.has(t)) return { ok: false, error: `${t} appears twice.` };
    seen.add(t);
  }
  return { ok: true, deal: tokens.join(' ') };
}
