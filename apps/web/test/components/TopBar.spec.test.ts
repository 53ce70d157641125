// @vitest-environment happy-dom
/** TopBar: the figures of the view, the rules and deal, and the buttons' events and states. */
import { dealFromNumber, newGame, playerView, resolveOptions } from '@klondike/rules';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import TopBar from '../../src/components/TopBar.vue';

function view(moves = 0) {
  const deal = dealFromNumber(5);
  if (!deal.ok) throw new Error('deal');
  return { ...playerView(newGame(deal.value, resolveOptions('classic-draw3')), 0), moves, score: 15 };
}
const base = {
  elapsedMs: 65_000,
  preset: 'classic-draw3',
  dealNumber: 5,
  connection: 'open',
  busy: false,
  autoCompleting: false,
  hintAvailable: true,
  hintPending: false,
  winnable: null,
} as const;

describe('TopBar', () => {
  it('shows score, moves, time, status, and the rules with the deal number', () => {
    const w = mount(TopBar, { props: { ...base, view: view(7) } });
    expect(w.get('[data-testid=score]').text()).toBe('15');
    expect(w.get('[data-testid=moves]').text()).toBe('7');
    expect(w.get('[data-testid=timer]').text()).toBe('1:05');
    expect(w.get('[data-testid=status]').text()).toBe('Playing');
    expect(w.get('[data-testid=phone-rules]').text()).toBe('Draw 3 · Deal #5');
  });

  it('its buttons send their events; undo is off while the view cannot undo, hint absent when off', async () => {
    const w = mount(TopBar, { props: { ...base, view: view() } });
    await w.get('[data-testid=new-game]').trigger('click');
    await w.get('[data-testid=hint]').trigger('click');
    expect(w.emitted('newGame')).toHaveLength(1);
    expect(w.emitted('hint')).toHaveLength(1);
    expect(w.get('[data-testid=undo]').attributes('disabled')).toBeDefined(); // canUndo is false at the start
    const noHints = mount(TopBar, { props: { ...base, view: view(), hintAvailable: false } });
    expect(noHints.find('[data-testid=hint]').exists()).toBe(false);
  });
});
