import { describe, expect, it } from 'vitest';
import {
  applyPileMove,
  canPlayToFoundation,
  canStackOnTableau,
  dragCount,
  drawCount,
  foundationMove,
  isLegalMove,
  isRun,
  legalTargets,
  nextFoundationMove,
  resolveCount,
  smartMove,
  stockMove,
} from '../src/lib/legal';
import { makeView } from './fixtures';

describe('tableau and foundation legality (client highlighting)', () => {
  it('R4: a card goes on one rank higher of the opposite colour', () => {
    expect(canStackOnTableau('8C', '9H')).toBe(true);
    expect(canStackOnTableau('8D', '9S')).toBe(true);
    expect(canStackOnTableau('8C', '9S')).toBe(false); // same colour
    expect(canStackOnTableau('8H', '9D')).toBe(false);
    expect(canStackOnTableau('7C', '9H')).toBe(false); // wrong rank
    expect(canStackOnTableau('TC', '9H')).toBe(false);
  });

  it('R7: only a King fills an empty column', () => {
    expect(canStackOnTableau('KS', null)).toBe(true);
    expect(canStackOnTableau('QS', null)).toBe(false);
  });

  it('R8: a foundation starts with its Ace and builds up in suit', () => {
    expect(canPlayToFoundation('AH', 'fH', null)).toBe(true);
    expect(canPlayToFoundation('AH', 'fS', null)).toBe(false);
    expect(canPlayToFoundation('2H', 'fH', null)).toBe(false);
    expect(canPlayToFoundation('2H', 'fH', 'AH')).toBe(true);
    expect(canPlayToFoundation('3H', 'fH', 'AH')).toBe(false);
  });

  it('R5: runs descend in alternating colours', () => {
    expect(isRun(['9H', '8C', '7D'])).toBe(true);
    expect(isRun(['9H', '8D'])).toBe(false);
    expect(isRun(['9H', '7C'])).toBe(false);
    expect(isRun(['5S'])).toBe(true);
  });
});

describe('drag-run extraction', () => {
  const view = makeView({
    tableau: [
      [2, ['9H', '8C', '7D']],
      [0, ['5S', '9D', '8S']],
    ],
    waste: ['2C', '3D'],
    foundations: { fS: '2S' },
  });

  it('picks up the card and every card above it when they form a run', () => {
    expect(dragCount(view, 't1', 0)).toBe(3);
    expect(dragCount(view, 't1', 1)).toBe(2);
    expect(dragCount(view, 't1', 2)).toBe(1);
  });

  it('refuses a pick-up that is not a run', () => {
    expect(dragCount(view, 't2', 0)).toBe(0);
    expect(dragCount(view, 't2', 1)).toBe(2);
  });

  it('takes only the top card of the waste and of a foundation', () => {
    expect(dragCount(view, 'waste', 1)).toBe(1);
    expect(dragCount(view, 'waste', 0)).toBe(0);
    expect(dragCount(view, 'fS', 0)).toBe(1);
  });

  it('R9: no pick-up from a foundation when foundationToTableau is off', () => {
    const v = makeView({ foundations: { fS: '2S' } });
    const off = { ...v, options: { ...v.options, foundationToTableau: false } };
    expect(dragCount(off, 'fS', 0)).toBe(0);
  });

  it('R5 wholePile: the whole face-up run or the top card alone', () => {
    const v = makeView({
      preset: 'bicycle',
      tableau: [
        [1, ['9H', '8C', '7D']],
        [0, ['8S']],
        [0, ['TS']],
      ],
    });
    expect(dragCount(v, 't1', 0)).toBe(3);
    expect(dragCount(v, 't1', 1)).toBe(0);
    expect(dragCount(v, 't1', 2)).toBe(1);
    // The top card alone may not go to another tableau pile under wholePile…
    expect(isLegalMove(v, { type: 'move', from: 't1', to: 't2', count: 1 })).toBe(false);
    // …but the whole run may.
    expect(isLegalMove(v, { type: 'move', from: 't1', to: 't3', count: 3 })).toBe(true);
  });
});

describe('targets and moves', () => {
  const view = makeView({
    tableau: [
      [0, ['9H', '8C']],
      [3, ['9C']],
      [0, []],
      [1, ['KD']],
      [0, ['AH']],
      [0, ['7H']],
      [0, ['TS']],
    ],
    waste: ['7D'],
    foundations: { fC: 'AC' },
    stock: 5,
  });

  it('highlights every legal target of a run', () => {
    expect(legalTargets(view, 't1', 2)).toEqual(['t7']);
    expect(legalTargets(view, 't1', 1)).toEqual([]);
    expect(legalTargets(view, 't4', 1)).toEqual(['t3']);
    expect(legalTargets(view, 'waste', 1)).toEqual(['t1']);
    expect(legalTargets(view, 't5', 1)).toEqual(['fH']);
  });

  it('refuses moves onto the stock or waste, and runs to foundations', () => {
    expect(isLegalMove(view, { type: 'move', from: 't5', to: 'waste', count: 1 })).toBe(false);
    expect(isLegalMove(view, { type: 'move', from: 't1', to: 'fC', count: 2 })).toBe(false);
    expect(isLegalMove(view, { type: 'move', from: 't1', to: 't1', count: 1 })).toBe(false);
  });

  it('double-click/tap: foundation first, else a tableau pile, non-empty before empty', () => {
    expect(smartMove(view, 't5', 0)).toEqual({ type: 'move', from: 't5', to: 'fH', count: 1 });
    expect(smartMove(view, 'waste', 0)).toEqual({ type: 'move', from: 'waste', to: 't1', count: 1 });
    expect(smartMove(view, 't4', 0)).toEqual({ type: 'move', from: 't4', to: 't3', count: 1 });
    expect(smartMove(view, 't6', 0)).toEqual({ type: 'move', from: 't6', to: 't1', count: 1 });
    expect(smartMove(view, 't7', 0)).toBeNull();
  });

  it('does not shuffle a lone King run between empty columns', () => {
    const v = makeView({
      tableau: [
        [0, ['KD']],
        [0, []],
      ],
    });
    expect(smartMove(v, 't1', 0)).toBeNull();
  });

  it('resolves the count of a keyboard move from the target', () => {
    const v = makeView({
      tableau: [
        [0, ['TD', '9C', '8H']],
        [0, ['TH']],
        [0, ['9S']],
        [0, []],
      ],
    });
    expect(resolveCount(v, 't1', 't2')).toBe(2);
    expect(resolveCount(v, 't1', 't3')).toBe(1);
    expect(resolveCount(v, 't1', 't4')).toBeNull();
  });

  it('foundation move of a top card', () => {
    expect(foundationMove(view, 't5')).toEqual({ type: 'move', from: 't5', to: 'fH', count: 1 });
    expect(foundationMove(view, 't1')).toBeNull();
  });

  it('R10/R11: the stock draws, then recycles while redeals remain', () => {
    expect(stockMove(view)).toEqual({ type: 'draw' });
    expect(stockMove(makeView({ waste: ['2C'] }))).toEqual({ type: 'recycle' });
    expect(stockMove(makeView({ waste: ['2C'], redealsLeft: 0 }))).toBeNull();
    expect(stockMove(makeView())).toBeNull();
  });

  it('R16: the last pass is offered in place of a redeal while available; after it, one card per draw', () => {
    const lp = { type: 'last-pass' } as const;
    const ready = makeView({ preset: 'draw3-last-pass', waste: ['2C', '3C'] });
    expect(isLegalMove(ready, lp)).toBe(true);
    expect(isLegalMove(ready, { type: 'recycle' })).toBe(true);
    expect(stockMove(ready)).toEqual({ type: 'recycle' }); // a click on the stock still redeals
    expect(drawCount(ready)).toBe(3);
    expect(isLegalMove(makeView({ preset: 'draw3-last-pass', waste: ['2C'], stock: 3 }), lp)).toBe(false);
    expect(isLegalMove(makeView({ preset: 'draw3-last-pass' }), lp)).toBe(false);
    expect(isLegalMove(makeView({ preset: 'classic-draw3', waste: ['2C'] }), lp)).toBe(false);
    const taken = makeView({ preset: 'draw3-last-pass', stock: 5, lastPass: 'taken', redealsLeft: 0 });
    expect(drawCount(taken)).toBe(1);
    const over = makeView({ preset: 'draw3-last-pass', waste: ['2C'], lastPass: 'taken', redealsLeft: 0 });
    expect(isLegalMove(over, lp)).toBe(false);
    expect(isLegalMove(over, { type: 'recycle' })).toBe(false);
    expect(stockMove(over)).toBeNull();
  });

  it('nothing is legal once the game is over', () => {
    const won = makeView({ tableau: [[0, ['AH']]], status: 'won' });
    expect(isLegalMove(won, { type: 'move', from: 't1', to: 'fH', count: 1 })).toBe(false);
  });
});

describe('optimistic application', () => {
  it('moves a run and leaves the uncovered face-down card for the server to reveal', () => {
    const v = makeView({
      tableau: [
        [2, ['9H', '8C']],
        [0, ['TS']],
      ],
    });
    const after = applyPileMove(v, { type: 'move', from: 't1', to: 't2', count: 2 });
    expect(after?.tableau[0]).toEqual({ faceDown: 2, faceUp: [] });
    expect(after?.tableau[1]?.faceUp).toEqual(['TS', '9H', '8C']);
    expect(after?.moves).toBe(1);
    expect(v.tableau[1]?.faceUp).toEqual(['TS']); // input untouched
  });

  it('plays to and back from a foundation', () => {
    const v = makeView({
      tableau: [
        [0, ['2H']],
        [0, ['3S']],
      ],
      foundations: { fH: 'AH' },
    });
    const up = applyPileMove(v, { type: 'move', from: 't1', to: 'fH', count: 1 });
    expect(up?.foundations.fH).toBe('2H');
    const back = up && applyPileMove(up, { type: 'move', from: 'fH', to: 't2', count: 1 });
    expect(back?.foundations.fH).toBe('AH');
    expect(back?.tableau[1]?.faceUp).toEqual(['3S', '2H']);
  });

  it('does not apply illegal moves, draws or recycles', () => {
    const v = makeView({ tableau: [[0, ['2H']]], stock: 3 });
    expect(applyPileMove(v, { type: 'move', from: 't1', to: 'fS', count: 1 })).toBeNull();
    expect(applyPileMove(v, { type: 'draw' })).toBeNull();
  });

  it('R15: auto-complete plays the lowest card first', () => {
    const v = makeView({
      tableau: [
        [0, ['3H']],
        [0, ['2C']],
        [0, ['2H']],
      ],
      foundations: { fH: 'AH', fC: 'AC' },
    });
    expect(nextFoundationMove(v)).toEqual({ type: 'move', from: 't2', to: 'fC', count: 1 });
  });
});
