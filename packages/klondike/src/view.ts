/**
 * The types of what a player may see: `playerView` (player-view.ts) is the one function that builds them (hidden
 * information never leaves the server, docs/architecture.md). A `PlayerView` cannot hold a face-down card or
 * the stock order: face-down cards are a count, the stock is a count.
 */
import type { CardCode } from './cards.js';
import type { FoundationPileId } from './moves.js';
import type { GameOptions } from './options.js';

/** Status of a game. `blocked` is docs/rules.md R13, `won` R12. */
export const GAME_STATUSES = ['playing', 'won', 'blocked', 'resigned'] as const;
/** One game status. */
export type GameStatus = (typeof GAME_STATUSES)[number];

/**
 * The last pass of R16 as a player sees it: `available` (these rules have it and it has not been taken; it is
 * legal whenever a redeal would be), `taken` (every draw now turns one card, no redeal is left) or `none`
 * (these rules have no last pass, or no redeal is left to take it in place of).
 */
export const LAST_PASS_STATES = ['none', 'available', 'taken'] as const;
/** One last-pass state. */
export type LastPassState = (typeof LAST_PASS_STATES)[number];

/** A tableau pile as a player sees it. */
export interface TableauView {
  /** Number of face-down cards (their identity is never sent). */
  readonly faceDown: number;
  /** Face-up cards, bottom first. */
  readonly faceUp: readonly CardCode[];
}

/** Everything a player may see of a game. */
export interface PlayerView {
  readonly options: GameOptions;
  readonly tableau: readonly TableauView[];
  /** Top card of each foundation, or null when empty. */
  readonly foundations: Readonly<Record<FoundationPileId, CardCode | null>>;
  /** Cards left in the stock (a count only). */
  readonly stock: { readonly count: number };
  /** Waste cards, bottom first; the last is playable (they have all been seen face up). */
  readonly waste: readonly CardCode[];
  readonly status: GameStatus;
  /** Score in points under the game's scoring system, with S1's time element for `elapsedMs`. */
  readonly score: number;
  /** Moves made (an undo takes one back). */
  readonly moves: number;
  /** Times the waste was turned back into the stock. */
  readonly recycles: number;
  /** Redeals still allowed; null = unlimited (R11); 0 once the last pass (R16) is taken. */
  readonly redealsLeft: number | null;
  /** Whether the last pass (R16) can still be taken, or was taken. */
  readonly lastPass: LastPassState;
  /** Whether undo is possible now (R14). */
  readonly canUndo: boolean;
  /** Whether auto-complete applies now (R15). */
  readonly canAutoComplete: boolean;
  /** Game time in ms, as supplied by the caller (the server's clock). */
  readonly elapsedMs: number;
}
