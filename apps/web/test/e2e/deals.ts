/**
 * Deals the browser tests play, in the public notation (52 card codes in deal order: cross-wise, round by
 * round, then the stock).
 */
import type { CardCode } from '@klondike/rules';

/** Cards `from`…`to` (1 = ace … 13 = king) of one suit, low first. */
export const run = (suit: string, from: number, to: number): CardCode[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${'A23456789TJQK'[from + i - 1]}${suit}` as CardCode);

/** Seven piles (bottom card first) and a stock in drawing order, as deal text. */
export function dealText(piles: readonly (readonly CardCode[])[], stock: readonly CardCode[]): string {
  const out: CardCode[] = [];
  for (let round = 0; round < 7; round++)
    for (let p = round; p < 7; p++) out.push(piles[p]?.[round] as CardCode);
  out.push(...stock);
  return out.join(' ');
}

/**
 * A deal that plays itself home (R15): the stock holds A–6 of every suit in order (draw and send home), and
 * every pile, read from the top down, climbs 7…K in one suit, so sending its top card home turns up the next.
 */
export const AUTO_PILES: CardCode[][] = [
  run('H', 7, 7),
  run('D', 7, 8).reverse(),
  run('C', 7, 9).reverse(),
  run('C', 10, 13).reverse(),
  run('D', 9, 13).reverse(),
  run('H', 8, 13).reverse(),
  run('S', 7, 13).reverse(),
];
/** The stock of the auto-complete deal, in drawing order: A–6 of clubs, diamonds, hearts, spades. */
export const AUTO_STOCK: CardCode[] = ['C', 'D', 'H', 'S'].flatMap((s) => run(s, 1, 6));
