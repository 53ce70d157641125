/**
 * The screen-reader table's words and commands (src/lib/a11y.ts): piles said in full, typed moves read in
 * the command notation and the public notation, refusals in words (nothing is sent), the verbosity's details.
 */
import { applyViewMove, type Move, type PlayerView } from '@klondike/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  commandOf,
  describePile,
  describeTable,
  loadA11y,
  moveDetail,
  readCommand,
  type Command,
} from '../src/lib/a11y';
import { makeView } from './fixtures';

const view = makeView({
  tableau: [
    [4, ['9H', '8S']],
    [0, ['TS']],
    [0, []],
    [0, ['AH']],
  ],
  waste: ['7C'],
  stock: 12,
});

const move = (c: Command): Move | null => (c.kind === 'move' ? c.move : null);

describe('screen-reader table', () => {
  beforeAll(() => loadA11y());

  it('says a pile in full, bottom to top, and the whole table', () => {
    expect(describePile(view, 't1')).toBe('Tableau 1: 4 face down, then Nine of hearts, Eight of spades');
    expect(describePile(view, 't3')).toBe('Tableau 3: empty');
    expect(describePile(view, 'stock')).toBe('Stock: 12 cards');
    expect(describePile(view, 'waste')).toBe('Waste: 1 card, Seven of clubs');
    expect(describePile(view, 'fH')).toBe('Foundation hearts: empty');
    expect(describeTable(view).split('. ')).toHaveLength(13);
  });

  it('reads typed moves: command words, bare numbers and the public notation', () => {
    expect(move(readCommand('d', view))).toEqual({ type: 'draw' });
    expect(move(readCommand('t4 f', view))).toEqual({ type: 'move', from: 't4', to: 'fH', count: 1 });
    expect(move(readCommand('4 fH', view))).toEqual({ type: 'move', from: 't4', to: 'fH', count: 1 });
    expect(move(readCommand('t4>fH', view))).toEqual({ type: 'move', from: 't4', to: 'fH', count: 1 });
    expect(move(readCommand('T1 t2', view))).toEqual({
      type: 'move',
      from: 't1',
      to: 't2',
      count: 2,
    });
  });

  it('refuses what is not a legal move, in words (a player cannot send one by typing)', () => {
    for (const text of [
      'w t2',
      't2 t4',
      'stock t1',
      't1 waste',
      'fH t1',
      'x y',
      't1 t2 5',
      't1 t2 -1',
      'r',
      'l',
    ])
      expect(readCommand(text, view).kind, text).toBe('error');
    expect(readCommand('t1 t2', makeView({ tableau: [[0, ['9H']]], status: 'won' }))).toMatchObject({
      kind: 'error',
      message: 'The game is over.',
    });
    expect(readCommand('d', null).kind).toBe('error');
  });

  it('says, asks for help and sets the verbosity', () => {
    expect(readCommand('p', view)).toEqual({ kind: 'say', pile: null });
    expect(readCommand('p t3', view)).toEqual({ kind: 'say', pile: 't3' });
    expect(readCommand('?', view)).toEqual({ kind: 'help' });
    expect(readCommand('v full', view)).toEqual({ kind: 'verbosity', level: 'full' });
    expect(readCommand('v loud', view).kind).toBe('error');
  });

  it('commandOf writes what readCommand reads back', () => {
    for (const m of [
      { type: 'draw' },
      { type: 'move', from: 't4', to: 'fH', count: 1 },
      { type: 'move', from: 't1', to: 't2', count: 2 },
    ] as Move[])
      expect(move(readCommand(commandOf(m), view))).toEqual(m);
  });

  it('R6: after a move the card turned up is said (normal), with the stock and waste (full), not when brief', () => {
    const before = makeView({ tableau: [[1, ['AH']]], stock: 3, waste: ['7C'] });
    const m: Move = { type: 'move', from: 't1', to: 'fH', count: 1 };
    const moved = applyViewMove(before, m);
    expect(moved).not.toBeNull();
    // The server's view after the move: the card under the ace turned up (R6).
    const after: PlayerView = { ...(moved as PlayerView), tableau: [{ faceDown: 0, faceUp: ['KS'] }] };
    expect(moveDetail(m, before, after, 'brief')).toBe('');
    expect(moveDetail(m, before, after, 'normal')).toBe('Turned up King of spades.');
    expect(moveDetail(m, before, after, 'full')).toBe(
      'Turned up King of spades. Stock 3, waste Seven of clubs.',
    );
  });
});
