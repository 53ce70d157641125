/**
 * Keyboard play: maps a key press, the current selection and the view to an action. Pure.
 *
 * Space / D draw (or recycle) · L the last pass, one card at a time (R16) · U or Ctrl+Z undo · 1–7 select a tableau pile, then 1–7 moves the selection
 * there (the run that fits) · W select the waste · F send the selection's top card to its foundation ·
 * A auto-complete · H hint (casual games) · N new game · Esc cancel.
 */
import {
  faceUpCards,
  foundationMove,
  isLegalViewMove,
  resolveCount,
  type Move,
  type PileId,
  type PlayerView,
} from '@klondike/rules';

/** What the keyboard has picked up: a pile whose top card(s) will move. */
export type Selection = { readonly pile: PileId } | null;

/** The parts of a KeyboardEvent the mapping reads. */
export interface KeyInput {
  readonly key: string;
  readonly ctrlKey?: boolean;
  readonly metaKey?: boolean;
  readonly altKey?: boolean;
  readonly shiftKey?: boolean;
}

export type KeyAction =
  | { readonly type: 'stock' }
  | { readonly type: 'undo' }
  | { readonly type: 'select'; readonly pile: PileId }
  | { readonly type: 'move'; readonly move: Move }
  | { readonly type: 'cancel' }
  | { readonly type: 'autocomplete' }
  | { readonly type: 'hint' }
  | { readonly type: 'new-game' }
  | { readonly type: 'invalid'; readonly message: string };

/** The action for a key press, or null when the key is not the game's (let the browser have it). */
export function keyAction(input: KeyInput, selection: Selection, view: PlayerView | null): KeyAction | null {
  const key = input.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  if (input.ctrlKey || input.metaKey) {
    return lower === 'z' && !input.shiftKey ? { type: 'undo' } : null;
  }
  if (input.altKey) return null;
  if (key === 'Escape') return selection ? { type: 'cancel' } : null;
  if (lower === 'n') return { type: 'new-game' };
  if (lower === 'u') return { type: 'undo' };
  if (!view) return null;
  if (view.status !== 'playing') {
    return /^[ 1-7dwfahl]$/.test(lower) ? { type: 'invalid', message: 'The game is over.' } : null;
  }
  if (lower === 'h') {
    return view.options.hints
      ? { type: 'hint' }
      : { type: 'invalid', message: 'Hints are off for this game.' };
  }
  if (key === ' ' || lower === 'd') return { type: 'stock' };
  if (lower === 'l') {
    const move: Move = { type: 'last-pass' };
    if (isLegalViewMove(view, move)) return { type: 'move', move };
    const message =
      view.lastPass === 'taken'
        ? 'The last pass has already been taken.'
        : view.lastPass === 'none'
          ? 'These rules have no last pass.'
          : 'The last pass is taken in place of a redeal, once the stock is empty.';
    return { type: 'invalid', message };
  }
  if (lower === 'a') {
    return view.canAutoComplete
      ? { type: 'autocomplete' }
      : { type: 'invalid', message: 'Auto-complete is not available yet.' };
  }
  if (/^[1-7]$/.test(key)) {
    const pile = `t${key}` as PileId;
    if (!selection) {
      return faceUpCards(view, pile).length > 0
        ? { type: 'select', pile }
        : { type: 'invalid', message: `Pile ${key} has no card to move.` };
    }
    if (selection.pile === pile) return { type: 'cancel' };
    const count = resolveCount(view, selection.pile, pile);
    return count === null
      ? { type: 'invalid', message: `That cannot go on pile ${key}.` }
      : { type: 'move', move: { type: 'move', from: selection.pile, to: pile, count } };
  }
  if (lower === 'w') {
    return view.waste.length > 0
      ? { type: 'select', pile: 'waste' }
      : { type: 'invalid', message: 'The waste is empty.' };
  }
  if (lower === 'f') {
    if (!selection) return { type: 'invalid', message: 'Select a card first (1–7 or W).' };
    const move = foundationMove(view, selection.pile);
    return move
      ? { type: 'move', move }
      : { type: 'invalid', message: 'That card cannot go to a foundation yet.' };
  }
  return null;
}
