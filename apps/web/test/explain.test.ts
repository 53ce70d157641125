/** Refused moves in words (src/lib/explain.ts): the rule the rules package names, with the cards involved. */
import { describe, expect, it } from 'vitest';
import { explainIllegal } from '../src/lib/explain';
import { makeView } from './fixtures';

describe('why a move is refused', () => {
  const view = makeView({
    tableau: [
      [0, ['7S']],
      [0, ['9H']],
      [0, []],
      [0, ['8S']],
      [0, ['3H']],
      [0, ['9C', '8H']],
    ],
    foundations: { fH: 'AH' },
  });

  it('R4: a 7 goes on a red 8', () => {
    expect(explainIllegal(view, { type: 'move', from: 't1', to: 't2', count: 1 })).toBe(
      'A 7 goes on a red 8.',
    );
    expect(explainIllegal(view, { type: 'move', from: 't1', to: 't4', count: 1 })).toBe(
      'A 7 goes on a red 8.',
    );
  });

  it('R7: only a King fills an empty pile', () => {
    expect(explainIllegal(view, { type: 'move', from: 't1', to: 't3', count: 1 })).toContain('Only a King');
  });

  it('R8: a foundation builds up in suit from the Ace', () => {
    expect(explainIllegal(view, { type: 'move', from: 't5', to: 'fH', count: 1 })).toBe(
      'The hearts foundation takes the 2 next.',
    );
    expect(explainIllegal(view, { type: 'move', from: 't1', to: 'fS', count: 1 })).toBe(
      'A foundation starts with an Ace.',
    );
    expect(explainIllegal(view, { type: 'move', from: 't6', to: 'fH', count: 2 })).toBe(
      'Cards go to a foundation one at a time.',
    );
  });

  it('a legal move has nothing to explain', () => {
    const v = makeView({
      tableau: [
        [0, ['8H']],
        [0, ['9C']],
      ],
    });
    expect(explainIllegal(v, { type: 'move', from: 't1', to: 't2', count: 1 })).toBeNull();
    expect(explainIllegal(v, { type: 'move', from: 't2', to: 't1', count: 1 })).toBe('A 9 goes on a red 10.');
    expect(explainIllegal(view, { type: 'move', from: 't6', to: 't2', count: 1 })).toBe(
      'An 8 goes on a black 9.',
    );
  });
});
