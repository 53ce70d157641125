/**
 * The keyboard shortcuts of the table in words, for the shortcut sheet ("?") and the help page. The keys
 * (keys of the messages, src/i18n) themselves are handled by `keyAction` (lib/keyboard.ts); test/keyboard.test.ts checks that each key listed
 * here does something there.
 */

import { i18n, tr } from '../i18n';

/** One line of the sheet: the keys (as shown on a keyboard) and what they do. */
export interface Shortcut {
  readonly keys: readonly string[];
  /** The `KeyboardEvent.key` values a test presses (one per key shown). */
  readonly press: readonly string[];
  /** What it does: a message key (src/i18n/locales, `shortcut.*`). */
  readonly does: string;
}

/** Every shortcut of the table, in the order a new player needs them. */
/** A key as its cap reads in the current language ("Space" → "Leertaste"); letters and digits as they are. */
export function keyCap(key: string): string {
  return i18n.global.te(`shortcut.key.${key}`, 'en') ? tr(`shortcut.key.${key}`) : key;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Space', 'D'], press: [' ', 'd'], does: 'shortcut.draw' },
  { keys: ['1', '…', '7'], press: ['1', '7'], does: 'shortcut.pile' },
  { keys: ['W'], press: ['w'], does: 'shortcut.waste' },
  { keys: ['F'], press: ['f'], does: 'shortcut.foundation' },
  { keys: ['Esc'], press: ['Escape'], does: 'shortcut.cancel' },
  { keys: ['U', 'Ctrl+Z'], press: ['u', 'z'], does: 'shortcut.undo' },
  { keys: ['H'], press: ['h'], does: 'shortcut.hint' },
  { keys: ['A'], press: ['a'], does: 'shortcut.auto' },
  { keys: ['L'], press: ['l'], does: 'shortcut.lastPass' },
  { keys: ['N'], press: ['n'], does: 'shortcut.new' },
  { keys: ['?'], press: ['?'], does: 'shortcut.sheet' },
];
