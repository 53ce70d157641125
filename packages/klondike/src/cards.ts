/**
 * Cards and their notation (docs/rules.md R1, docs/protocol.md "Notation").
 *
 * Inside the engine a card is a small integer `0..51`: `suitIndex * 13 + (rank - 1)`, suits in the order
 * clubs, diamonds, hearts, spades. Outside it is a two-character code, rank then suit (`TH` = ten of hearts).
 */

/** Suit letters in engine order (clubs, diamonds, hearts, spades). docs/rules.md R1. */
export const SUITS = ['C', 'D', 'H', 'S'] as const;
/** One suit letter. */
export type Suit = (typeof SUITS)[number];

/** Rank letters, Ace low (index 0 = rank 1). docs/rules.md R1. */
export const RANK_CODES = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
/** One rank letter. */
export type RankCode = (typeof RANK_CODES)[number];

/** A card's public two-character code, e.g. `"TH"`, `"AS"`. */
export type CardCode = `${RankCode}${Suit}`;

/** Engine card id, `0..51` (`suitIndex * 13 + rank - 1`). */
export type Card = number;

/** Colour of each suit: clubs and spades black, diamonds and hearts red. docs/rules.md R1. */
export const SUIT_COLOR = { C: 'black', D: 'red', H: 'red', S: 'black' } as const satisfies Record<
  Suit,
  'black' | 'red'
>;

/** Rank 1..13 of each engine card. */
export const RANK: Uint8Array = Uint8Array.from({ length: 52 }, (_, c) => (c % 13) + 1);
/** Suit index 0..3 of each engine card. */
export const SUIT_INDEX: Uint8Array = Uint8Array.from({ length: 52 }, (_, c) => Math.floor(c / 13));
/** 1 if the card is red (diamonds, hearts), 0 if black. */
export const IS_RED: Uint8Array = Uint8Array.from({ length: 52 }, (_, c) => {
  const s = Math.floor(c / 13);
  return s === 1 || s === 2 ? 1 : 0;
});

/** All 52 codes in engine order (index = engine card id). */
export const CARD_CODES: readonly CardCode[] = Array.from(
  { length: 52 },
  (_, c) => `${RANK_CODES[c % 13]}${SUITS[Math.floor(c / 13)]}` as CardCode,
);

const CODE_TO_CARD: ReadonlyMap<string, Card> = new Map(CARD_CODES.map((code, c) => [code, c]));

/** Engine id of a card from its suit index and rank (1..13). */
export function makeCard(suitIndex: number, rank: number): Card {
  return suitIndex * 13 + rank - 1;
}

/** Public code of an engine card, e.g. `cardCode(9) === "TC"`. */
export function cardCode(card: Card): CardCode {
  return CARD_CODES[card] as CardCode;
}

/** Engine id of a code, or `undefined` when the text is not one of the 52 codes (case-sensitive). */
export function parseCard(code: string): Card | undefined {
  return CODE_TO_CARD.get(code);
}

/** True when `text` is one of the 52 card codes. */
export function isCardCode(text: string): text is CardCode {
  return CODE_TO_CARD.has(text);
}

/** A card code read for display: rank 1 (Ace) … 13 (King), suit letter, and colour (R1). */
export interface CardInfo {
  readonly code: CardCode;
  /** 1 (Ace) … 13 (King). */
  readonly rank: number;
  readonly suit: Suit;
  /** Diamonds and hearts (R1). */
  readonly red: boolean;
}

/** Reads a card code such as `TH`; undefined when `code` is not one of the 52 codes. */
export function cardInfo(code: string): CardInfo | undefined {
  const card = parseCard(code);
  if (card === undefined) return undefined;
  return {
    code: code as CardCode,
    rank: RANK[card] as number,
    suit: SUITS[SUIT_INDEX[card] as number] as Suit,
    red: IS_RED[card] === 1,
  };
}

/** The code of the card of `rank` (1…13) and `suit`, e.g. `codeOf(10, 'H') === "TH"`. */
export function codeOf(rank: number, suit: Suit): CardCode {
  return cardCode(makeCard(SUITS.indexOf(suit), rank));
}
