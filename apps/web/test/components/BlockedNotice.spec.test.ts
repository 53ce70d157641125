// @vitest-environment happy-dom
/** BlockedNotice: what a blocked (R13) or resigned game offers, and the events its buttons send. */
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import BlockedNotice from '../../src/components/BlockedNotice.vue';

describe('BlockedNotice', () => {
  it('R13 blocked: offers undo when undo is possible, and a new game', async () => {
    const w = mount(BlockedNotice, { props: { kind: 'blocked', canUndo: true } });
    expect(w.text()).toContain('No more moves');
    await w.get('[data-testid="notice-undo"]').trigger('click');
    await w.get('[data-testid="notice-new-game"]').trigger('click');
    expect(w.emitted('undo')).toHaveLength(1);
    expect(w.emitted('newGame')).toHaveLength(1);
  });

  it('no undo button when undo is off, nor after resigning', () => {
    expect(
      mount(BlockedNotice, { props: { kind: 'blocked', canUndo: false } })
        .find('[data-testid="notice-undo"]')
        .exists(),
    ).toBe(false);
    const resigned = mount(BlockedNotice, { props: { kind: 'resigned', canUndo: true } });
    expect(resigned.text()).toContain('You resigned');
    expect(resigned.find('[data-testid="notice-undo"]').exists()).toBe(false);
  });
});
