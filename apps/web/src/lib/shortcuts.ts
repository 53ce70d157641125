/**
 * The keyboard shortcuts of the table in words, for the shortcut sheet ("?") and the help page. The keys
 * themselves are handled by `keyAction` (lib/keyboard.ts); test/keyboard.test.ts checks that each key listed
 * here does something there.
 */

/** One line of the sheet: the keys (as shown on a keyboard) and what they do. */
export interface Shortcut {
  readonly keys: readonly string[];
  /** The `KeyboardEvent.key` values a test presses (one per key shown). */
  readonly press: readonly string[];
  readonly does: string;
}

/** Every shortcut of the table, in the order a new player needs them. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Space', 'D'], press: [' ', 'd'], does: 'Draw from the stock (or turn the waste over)' },
  { keys: ['1', '…', '7'], press: ['1', '7'], does: 'Pick up a tableau pile; then 1–7 puts it on that pile' },
  { keys: ['W'], press: ['w'], does: 'Pick up the top card of the waste' },
  { keys: ['F'], press: ['f'], does: 'Send the picked-up card to its foundation' },
  { keys: ['Esc'], press: ['Escape'], does: 'Put the picked-up cards back' },
  { keys: ['U', 'Ctrl+Z'], press: ['u', 'z'], does: 'Undo (when the rules allow it)' },
  { keys: ['H'], press: ['h'], does: 'Hint: shows a good move (casual games)' },
  { keys: ['A'], press: ['a'], does: 'Auto-complete, once every card is face up' },
  { keys: ['L'], press: ['l'], does: 'Take the last pass, one card at a time (rules with a last pass)' },
  { keys: ['N'], press: ['n'], does: 'New game' },
  { keys: ['?'], press: ['?'], does: 'Show or hide this sheet' },
];
