import { describe, expect, it } from 'vitest';
import { keyAction } from '../src/lib/keyboard';
import { makeView } from './fixtures';

const view = makeView({
  tableau: [
    [0, ['TD', '9C']],
    [0, ['TH']],
    [0, []],
    [0, ['AH']],
  ],
  waste: ['8H'],
  stock: 4,
});

describe('keyboard mapping', () => {
  it('Space and D draw; U and Ctrl/Cmd+Z undo', () => {
    expect(keyAction({ key: ' ' }, null, view)).toEqual({ type: 'stock' });
    expect(keyAction({ key: 'd' }, null, view)).toEqual({ type: 'stock' });
    expect(keyAction({ key: 'u' }, null, view)).toEqual({ type: 'undo' });
    expect(keyAction({ key: 'z', ctrlKey: true }, null, view)).toEqual({ type: 'undo' });
    expect(keyAction({ key: 'Z', metaKey: true }, null, view)).toEqual({ type: 'undo' });
    expect(keyAction({ key: 'z', ctrlKey: true, shiftKey: true }, null, view)).toBeNull();
    expect(keyAction({ key: 'c', ctrlKey: true }, null, view)).toBeNull();
  });

  it('R16: L takes the last pass where it is legal, and says why not elsewhere', () => {
    const ready = makeView({ preset: 'draw3-last-pass', waste: ['2C'] });
    expect(keyAction({ key: 'l' }, null, ready)).toEqual({ type: 'move', move: { type: 'last-pass' } });
    expect(keyAction({ key: 'L' }, null, ready)).toEqual({ type: 'move', move: { type: 'last-pass' } });
    expect(
      keyAction({ key: 'l' }, null, makeView({ preset: 'draw3-last-pass', waste: ['2C'], stock: 2 })),
    ).toEqual({
      type: 'invalid',
      message: 'The last pass is taken in place of a redeal, once the stock is empty.',
    });
    expect(keyAction({ key: 'l' }, null, view)).toEqual({
      type: 'invalid',
      message: 'These rules have no last pass.',
    });
    const taken = makeView({ preset: 'draw3-last-pass', waste: ['2C'], lastPass: 'taken', redealsLeft: 0 });
    expect(keyAction({ key: 'l' }, null, taken)).toEqual({
      type: 'invalid',
      message: 'The last pass has already been taken.',
    });
  });

  it('a number selects a tableau pile, a second number moves the run that fits there', () => {
    expect(keyAction({ key: '1' }, null, view)).toEqual({ type: 'select', pile: 't1' });
    expect(keyAction({ key: '2' }, { pile: 't1' }, view)).toEqual({
      type: 'move',
      move: { type: 'move', from: 't1', to: 't2', count: 1 },
    });
    expect(keyAction({ key: '3' }, { pile: 't1' }, view)).toMatchObject({ type: 'invalid' });
    expect(keyAction({ key: '1' }, { pile: 't1' }, view)).toEqual({ type: 'cancel' });
    expect(keyAction({ key: '3' }, null, view)).toMatchObject({ type: 'invalid' });
  });

  it('W selects the waste, F sends the selection to its foundation', () => {
    expect(keyAction({ key: 'w' }, null, view)).toEqual({ type: 'select', pile: 'waste' });
    expect(keyAction({ key: 'f' }, { pile: 't4' }, view)).toEqual({
      type: 'move',
      move: { type: 'move', from: 't4', to: 'fH', count: 1 },
    });
    expect(keyAction({ key: 'f' }, { pile: 'waste' }, view)).toMatchObject({ type: 'invalid' });
    expect(keyAction({ key: 'f' }, null, view)).toMatchObject({ type: 'invalid' });
    expect(keyAction({ key: '2' }, { pile: 'waste' }, view)).toMatchObject({ type: 'invalid' });
  });

  it('Esc cancels a selection and is left alone without one', () => {
    expect(keyAction({ key: 'Escape' }, { pile: 't1' }, view)).toEqual({ type: 'cancel' });
    expect(keyAction({ key: 'Escape' }, null, view)).toBeNull();
  });

  it('A auto-completes only when the view allows it; N opens a new game', () => {
    expect(keyAction({ key: 'a' }, null, view)).toMatchObject({ type: 'invalid' });
    expect(keyAction({ key: 'a' }, null, { ...view, canAutoComplete: true })).toEqual({
      type: 'autocomplete',
    });
    expect(keyAction({ key: 'n' }, null, view)).toEqual({ type: 'new-game' });
  });

  it('H asks for a hint, unless the game has hints off', () => {
    expect(keyAction({ key: 'h' }, null, view)).toEqual({ type: 'hint' });
    expect(keyAction({ key: 'H', shiftKey: true }, null, view)).toEqual({ type: 'hint' });
    const ranked = { ...view, options: { ...view.options, hints: false } };
    expect(keyAction({ key: 'h' }, null, ranked)).toEqual({
      type: 'invalid',
      message: 'Hints are off for this game.',
    });
    expect(keyAction({ key: 'h' }, null, { ...view, status: 'won' })).toMatchObject({ type: 'invalid' });
    expect(keyAction({ key: 'h', ctrlKey: true }, null, view)).toBeNull();
  });

  it('ignores other keys, and play keys once the game is over', () => {
    expect(keyAction({ key: 'x' }, null, view)).toBeNull();
    expect(keyAction({ key: 'Tab' }, null, view)).toBeNull();
    expect(keyAction({ key: '1', altKey: true }, null, view)).toBeNull();
    const over = { ...view, status: 'won' as const };
    expect(keyAction({ key: '1' }, null, over)).toMatchObject({ type: 'invalid' });
    expect(keyAction({ key: 'n' }, null, over)).toEqual({ type: 'new-game' });
  });
});

describe('the shortcut sheet (lib/shortcuts.ts)', () => {
  it('every key it lists does something on the table ("?" is the sheet itself, handled by the play page)', async () => {
    const { SHORTCUTS } = await import('../src/lib/shortcuts');
    const keys = SHORTCUTS.filter((s) => s.press[0] !== '?').flatMap((s) => s.press);
    expect(keys.length).toBeGreaterThanOrEqual(12);
    for (const key of keys) {
      const input = key === 'z' ? { key, ctrlKey: true } : { key };
      const selection = key === 'f' || key === 'Escape' ? { pile: 't4' as const } : null;
      const onPreset = key === 'l' ? makeView({ preset: 'draw3-last-pass', waste: ['2C'] }) : view;
      expect(keyAction(input, selection, onPreset), key).not.toBeNull();
    }
  });
});
