/**
 * Helpers of the embargo tests (embargo-oracle.test.ts, multi-node-embargo.test.ts): the positions of a deal
 * (R2) and the attacker's guesses, other arrangements of the cards a requester has not seen.
 */
import { expect } from 'vitest';

/** Deal positions (deal order, 0-based) of the top card of each tableau pile: face up at the deal (R2). */
export const FACE_UP = [0, 7, 13, 18, 22, 25, 27];
/** Deal positions of the 21 tableau cards dealt face down. */
export const FACE_DOWN = Array.from({ length: 28 }, (_, i) => i).filter((i) => !FACE_UP.includes(i));
/** Deal positions of the stock (card 29 drawn first). */
export const STOCK = Array.from({ length: 24 }, (_, i) => 28 + i);

/** `deal` (public notation) with the cards at `positions` put in the order `arrange` gives them. */
export function rearranged(
  deal: string,
  positions: number[],
  arrange: (cards: string[]) => string[],
): string {
  const codes = deal.split(' ');
  const moved = arrange(positions.map((p) => codes[p] as string));
  positions.forEach((p, i) => (codes[p] = moved[i] as string));
  return codes.join(' ');
}

/** An arrangement: cards i and j swapped. */
export const swap = (i: number, j: number) => (cards: string[]) => {
  const out = [...cards];
  [out[i], out[j]] = [out[j] as string, out[i] as string];
  return out;
};
/** An arrangement: every card one place on, the first last. */
export const rotate = (cards: string[]) => [...cards.slice(1), cards[0] as string];
/** An arrangement: the order reversed. */
export const reverse = (cards: string[]) => [...cards].reverse();

/**
 * The attacker's guesses: the true deal and four other arrangements of its face-down cards (the two
 * cards swapped, two others swapped, all rotated, all reversed). Everything else is the true deal's.
 */
export function faceDownArrangements(deal: string): string[] {
  const out = [
    deal,
    rearranged(deal, FACE_DOWN, swap(0, 1)),
    rearranged(deal, FACE_DOWN, swap(19, 20)),
    rearranged(deal, FACE_DOWN, rotate),
    rearranged(deal, FACE_DOWN, reverse),
  ];
  expect(new Set(out).size).toBe(out.length);
  return out;
}

/** Other arrangements of the stock (a draw-3 player, or one with few passes, may not have seen it all). */
export function stockArrangements(deal: string): string[] {
  return [rearranged(deal, STOCK, swap(0, 23)), rearranged(deal, STOCK, reverse)];
}
