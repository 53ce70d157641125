// @vitest-environment happy-dom
/** PlayingCard: a face shows its rank, suit colour and spoken name; no code is a face-down back. */
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import PlayingCard from '../../src/components/PlayingCard.vue';

describe('PlayingCard', () => {
  it('a face: corner label, colour and the name a screen reader says', () => {
    const w = mount(PlayingCard, { props: { code: 'TH' } });
    expect(w.classes()).toContain('red');
    expect(w.attributes('aria-label')).toBe('Ten of hearts');
    expect(w.text()).toContain('10');
    const spade = mount(PlayingCard, { props: { code: 'QS' } });
    expect(spade.classes()).toContain('black');
    expect(spade.attributes('aria-label')).toBe('Queen of spades');
  });

  it('no code: a back, named as face down, showing no rank', () => {
    const w = mount(PlayingCard, { props: { code: null } });
    expect(w.classes()).toContain('back');
    expect(w.attributes('aria-label')).toBe('Face-down card');
    expect(w.text()).toBe('');
  });
});
