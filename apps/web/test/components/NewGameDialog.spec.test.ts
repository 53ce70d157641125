// @vitest-environment happy-dom
/**
 * NewGameDialog: a deal number or a pasted deal is checked before it can be dealt (the rules package reads
 * the deal), and "Deal" sends the body the server's POST /api/games takes.
 */
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import NewGameDialog from '../../src/components/NewGameDialog.vue';

const props = { preset: 'classic-draw1', busy: false, error: null } as const;
const ALL = 'A23456789TJQK'.split('').flatMap((r) => 'CDHS'.split('').map((s) => r + s));

describe('NewGameDialog', () => {
  it('a deal number outside 1 … 2^32−1 cannot be dealt; a good one is sent with the preset', async () => {
    const w = mount(NewGameDialog, { props, attachTo: document.body });
    await w.get('[data-testid=source-number]').setValue(true);
    await w.get('[data-testid=deal-number]').setValue('0');
    expect(w.get('[data-testid=deal]').attributes('disabled')).toBeDefined();
    await w.get('[data-testid=deal-number]').setValue('4242');
    await w.get('[data-testid=preset-classic-draw3]').setValue(true);
    expect(w.get('[data-testid=deal]').attributes('disabled')).toBeUndefined();
    await w.get('[data-testid=new-game-dialog]').trigger('submit');
    expect(w.emitted('start')?.[0]).toEqual([{ preset: 'classic-draw3', dealNumber: 4242 }]);
    w.unmount();
  });

  it('a pasted deal with a card twice cannot be dealt; 52 distinct cards in any case are', async () => {
    const w = mount(NewGameDialog, { props, attachTo: document.body });
    await w.get('[data-testid=source-paste]').setValue(true);
    await w.get('[data-testid=deal-text]').setValue([...ALL.slice(1), 'AD'].join(' '));
    expect(w.get('[data-testid=deal]').attributes('disabled')).toBeDefined();
    expect(w.text()).toContain('Card AD appears twice.');
    await w.get('[data-testid=deal-text]').setValue(ALL.join(', ').toLowerCase());
    expect(w.get('[data-testid=deal]').attributes('disabled')).toBeUndefined();
    await w.get('[data-testid=new-game-dialog]').trigger('submit');
    expect(w.emitted('start')?.[0]).toEqual([{ preset: 'classic-draw1', deal: ALL.join(' ') }]);
    w.unmount();
  });
});
