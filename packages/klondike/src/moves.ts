/**
 * Pile names and moves in the public notation (docs/protocol.md "Notation"), and the typed move errors.
 */

/** Tableau piles, t1 = the one-card pile of the deal. */
export const TABLEAU_PILES = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'] as const;
/** One tableau pile name. */
export type TableauPileId = (typeof TABLEAU_PILES)[number];

/** Foundations, one per suit, in engine suit order (C, D, H, S). */
export const FOUNDATION_PILES = ['fC', 'fD', 'fH', 'fS'] as const;
/** One foundation name. */
export type FoundationPileId = (typeof FOUNDATION_PILES)[number];

/** Every pile name. */
export const PILE_IDS = ['stock', 'waste', ...TABLEAU_PILES, ...FOUNDATION_PILES] as const;
/** One pile name. */
export type PileId = (typeof PILE_IDS)[number];

/** Turn cards from the stock onto the waste (docs/rules.md R10). */
export interface DrawMove {
  readonly type: 'draw';
}
/** Turn the whole waste back into the stock (docs/rules.md R11). */
export interface RecycleMove {
  readonly type: 'recycle';
}
/**
 * Take the last pass (R16, only with `finalSinglePass`): in place of a redeal, turn the whole waste back into
 * the stock; from then on every draw turns one card and no redeal is possible.
 */
export interface LastPassMove {
  readonly type: 'last-pass';
}
/** Move `count` cards from the top of `from` to `to` (count > 1 only between tableau piles, R5). */
export interface PileMove {
  readonly type: 'move';
  readonly from: PileId;
  readonly to: PileId;
  readonly count: number;
}
/** A move in the public notation. Turning up a face-down card is automatic (R6), never a move. */
export type Move = DrawMove | RecycleMove | LastPassMove | PileMove;

/** Reasons a move, undo or resignation is refused, each tied to the rule that refuses it. */
export const MOVE_ERROR_CODES = {
  'game-over': 'The game has ended (won or resigned).',
  'bad-move': 'The move is not well formed (unknown pile, bad count).',
  'same-pile': 'A card cannot move onto its own pile.',
  'empty-source': 'There is no card to move there.',
  'not-face-up': 'Only face-up cards can move (R5).',
  'not-a-run': 'The cards to move are not a descending run of alternating colours (R5).',
  'whole-pile-only': 'Under wholePile only the whole face-up run can move (R5).',
  'count-to-foundation': 'Only one card at a time goes to a foundation (R8).',
  'count-from-single': 'Only one card can move from the waste or a foundation.',
  'tableau-build': 'A tableau card takes one rank lower of the opposite colour (R4).',
  'king-to-empty': 'Only a King, or a run headed by a King, may fill an empty column (R7).',
  'foundation-build': 'A foundation is built up by suit from the Ace (R8).',
  'foundation-to-tableau-off': 'These rules do not let cards come back from a foundation (R9).',
  'to-stock-or-waste': 'Cards cannot be put on the stock or the waste.',
  'stock-empty': 'The stock is empty: recycle the waste first (R10, R11).',
  'stock-not-empty': 'The waste can only be recycled once the stock is empty (R11).',
  'waste-empty': 'There is nothing in the waste to recycle (R11).',
  'no-redeals-left': 'No redeals are left under these rules (R11).',
  'last-pass-off': 'These rules have no last pass (R16).',
  'last-pass-taken': 'The last pass has been taken: no more redeals (R16).',
  'nothing-to-undo': 'There is no move to undo (R14).',
  'undo-off': 'Undo is turned off for this game (R14).',
} as const;
/** One move error code. */
export type MoveErrorCode = keyof typeof MOVE_ERROR_CODES;

/** A refused move: a code from `MOVE_ERROR_CODES` and a human message. */
export interface MoveError {
  readonly code: MoveErrorCode;
  readonly message: string;
}

/** Builds a MoveError with the standard message for its code, or a more specific one. */
export function moveError(code: MoveErrorCode, message: string = MOVE_ERROR_CODES[code]): MoveError {
  return { code, message };
}

/** Public text of a move, e.g. `draw`, `recycle`, `last-pass`, `t3>fH`, `t2>t5x3` (for logs and test names). */
export function formatMove(move: Move): string {
  if (move.type !== 'move') return move.type;
  return `${move.from}>${move.to}${move.count > 1 ? `x${move.count}` : ''}`;
}

/** Two moves are the same move. */
export function sameMove(a: Move, b: Move): boolean {
  if (a.type !== 'move' || b.type !== 'move') return a.type === b.type;
  return a.from === b.from && a.to === b.to && a.count === b.count;
}
