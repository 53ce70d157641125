/**
 * The engine's game state. It holds hidden information (face-down cards, the stock order), so it never
 * leaves the server: clients get `playerView` (view.ts) instead.
 */
import type { Card } from './cards.js';
import type { Deal } from './deal.js';
import type { Move } from './moves.js';
import type { GameOptions } from './options.js';

/** A tableau pile: `cards[0]` at the bottom; the first `faceDown` cards are face down. */
export interface TableauPile {
  readonly cards: readonly Card[];
  readonly faceDown: number;
}

/** What undo needs to revert one move whole (docs/rules.md R14). */
export interface UndoRecord {
  /** The move as applied. */
  readonly move: Move;
  /** Whether the move turned up a face-down card (R6). */
  readonly turnedUp: boolean;
  /** Score before the move (the floor at 0 makes score changes not invertible). */
  readonly scoreBefore: number;
  /** Cards a draw turned onto the waste (0 for other moves). */
  readonly drawn: number;
}

/**
 * A persistent (shared-tail) list of undo records, newest first: each node is its record (one object per move
 * made, which the server keeps for every live game: fewer objects, less for the garbage collector to mark).
 */
export interface History extends UndoRecord {
  readonly previous: History | null;
  readonly length: number;
}

/** The whole state of one game. Immutable: every rules function returns a new state. */
export interface GameState {
  readonly options: GameOptions;
  /** The deal this game started from (deal order). */
  readonly deal: Deal;
  /** Seven tableau piles, t1 … t7. */
  readonly tableau: readonly TableauPile[];
  /** Cards on each foundation (= rank of its top card), in engine suit order C, D, H, S. */
  readonly foundations: readonly number[];
  /** Stock, last element on top (drawn next). */
  readonly stock: readonly Card[];
  /** Waste, last element on top (playable). */
  readonly waste: readonly Card[];
  /** Times the waste has been turned back into the stock (R11), the last pass (R16) included. */
  readonly recycles: number;
  /** True once the last pass (R16) has been taken: every draw turns one card and no redeal is left. */
  readonly lastPass: boolean;
  /** Points from moves under S1/S2 (without the time element of S1); 0 under S3. */
  readonly score: number;
  /** Moves applied (undo takes one back). */
  readonly moves: number;
  /** True once the player resigned (R13). */
  readonly resigned: boolean;
  /** Undo records, newest first; null when no move has been made. */
  readonly history: History | null;
}
