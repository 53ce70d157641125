/**
 * Test fixtures shared by the rules, server and web tests (import from `@klondike/rules/testing`).
 * Pure, like the rest of the package.
 */
import { type Card, type CardCode, makeCard } from './cards.js';
import { type Deal, dealRandom, formatDeal, parseDeal } from './deal.js';
import { applyMove, newGame } from './game.js';
import { legalMoves } from './legal-moves.js';
import { gameStatus } from './status.js';
import type { FoundationPileId, Move } from './moves.js';
import { type GameOptions, type PresetName, resolveOptions } from './options.js';
import type { GameState } from './state.js';
import type { PlayerView } from './view.js';

/** Inverse of R2's cross-wise deal: the deal order that puts `piles[p]` (bottom first) on pile p. */
function dealOrder(piles: readonly (readonly Card[])[], stockDrawOrder: readonly Card[]): Deal {
  const out: Card[] = [];
  for (let round = 0; round < 7; round++)
    for (let p = round; p < 7; p++) out.push((piles[p] as Card[])[round] as Card);
  return out.concat(stockDrawOrder);
}

/**
 * A deal that greedy play wins: the 24 lowest cards (Aces to Sixes) come out of the stock in foundation
 * order (for draw 3 in reversed triples, so the top of each draw is the next card needed) and every tableau
 * pile holds Sevens to Kings, highest at the bottom. Returned in the public notation.
 */
export function winnableDeal(draw: 1 | 3): string {
  const order: Card[] = [];
  for (let rank = 1; rank <= 13; rank++) for (let s = 0; s < 4; s++) order.push(makeCard(s, rank));
  const low = order.slice(0, 24);
  const stock: Card[] = [];
  if (draw === 1) stock.push(...low);
  else for (let i = 0; i < 24; i += 3) stock.push(low[i + 2] as Card, low[i + 1] as Card, low[i] as Card);
  // Sevens..Kings, dealt so that every pile descends from bottom to top.
  const high = order.slice(24).reverse(); // KS KH KD KC QS ... 7C
  const piles: Card[][] = [[], [], [], [], [], [], []];
  let k = 0;
  for (let p = 6; p >= 0; p--) for (let i = 0; i <= p; i++) (piles[p] as Card[]).push(high[k++] as Card);
  return formatDeal(dealOrder(piles, stock));
}

/**
 * Plays greedily: any foundation move, else draw, else recycle. Returns the moves made and the end state;
 * stops after `maxMoves`. With `winnableDeal` it always reaches `won`.
 */
export function greedyLine(start: GameState, maxMoves = 500): { moves: Move[]; end: GameState } {
  const moves: Move[] = [];
  let state = start;
  while (moves.length < maxMoves && gameStatus(state) === 'playing') {
    const legal = legalMoves(state);
    const move =
      legal.find((m) => m.type === 'move' && m.to.startsWith('f')) ??
      legal.find((m) => m.type === 'draw') ??
      legal.find((m) => m.type === 'recycle');
    if (move === undefined) break;
    const r = applyMove(state, move);
    if (!r.ok) break;
    moves.push(move);
    state = r.value;
  }
  return { moves, end: state };
}

/**
 * A winning line for `winnableDeal(options.draw)` under `options` (greedy play: foundation moves, draws).
 * Errors: throws when the fixture deal does not parse (a bug in this module).
 */
export function winningLine(options: GameOptions): Move[] {
  const deal = parseDeal(winnableDeal(options.draw));
  if (!deal.ok) throw new Error(deal.error.message);
  return greedyLine(newGame(deal.value, options)).moves;
}

/**
 * A seeded random number generator of floats in [0, 1) for tests and benchmarks: the documented deal
 * generator (SplitMix64 → xoshiro128**, deal.ts) seeded with `seed` (any integer), so runs repeat exactly.
 */
export function testRandom(seed: number): () => number {
  const next = dealRandom(Math.trunc(seed));
  return () => next() / 0x1_0000_0000;
}

/** Describes a player view for `makeView`: tableau piles as `[faceDown, faceUp codes]`, missing ones empty. */
export interface ViewSpec {
  tableau?: Array<[number, CardCode[]]>;
  foundations?: Partial<Record<FoundationPileId, CardCode | null>>;
  stock?: number;
  waste?: CardCode[];
  preset?: PresetName;
  status?: PlayerView['status'];
  redealsLeft?: number | null;
  /** R16; default: `available` when the preset has the last pass, else `none`. */
  lastPass?: PlayerView['lastPass'];
}

/** A hand-made player view (it need not hide exactly the cards it does not show). */
export function makeView(spec: ViewSpec = {}): PlayerView {
  const tableau = Array.from({ length: 7 }, (_, i) => {
    const t = spec.tableau?.[i] ?? [0, []];
    return { faceDown: t[0], faceUp: t[1] };
  });
  const options = resolveOptions(spec.preset ?? 'classic-draw1');
  return {
    options,
    tableau,
    foundations: { fC: null, fD: null, fH: null, fS: null, ...spec.foundations },
    stock: { count: spec.stock ?? 0 },
    waste: spec.waste ?? [],
    status: spec.status ?? 'playing',
    score: 0,
    moves: 0,
    recycles: 0,
    redealsLeft: spec.redealsLeft === undefined ? null : spec.redealsLeft,
    lastPass: spec.lastPass ?? (options.finalSinglePass ? 'available' : 'none'),
    canUndo: false,
    canAutoComplete: false,
    elapsedMs: 0,
  };
}
