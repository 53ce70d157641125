// @vitest-environment happy-dom
/**
 * GameTable over a fake TableSource (a real game's view): it lays out every pile, shows no face-down card's
 * identity, and turns a click on the stock into the rules' stock move (R10) — the table decides nothing itself.
 */
import {
  dealFromNumber,
  newGame,
  playerView,
  resolveOptions,
  type CardCode,
  type Move,
  type PlayerView,
} from '@klondike/rules';
import { mount } from '@vue/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextTick, ref } from 'vue';
import GameTable from '../../src/components/GameTable.vue';
import type { Outcome, TableSource } from '../../src/composables/useGame';
import { cardName } from '../../src/lib/cards';

// happy-dom lays nothing out: give every element a laptop-sized box so the table renders its piles.
const BOX = { clientWidth: 1200, clientHeight: 760 } as const;
beforeAll(() => {
  for (const [key, value] of Object.entries(BOX))
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
});
afterAll(() => {
  for (const key of Object.keys(BOX)) Reflect.deleteProperty(HTMLElement.prototype, key);
});

function source(view: PlayerView) {
  const moves: Move[] = [];
  const game: TableSource = {
    view: ref(view),
    version: ref(0),
    busy: ref(false),
    dealSeq: ref(0),
    move: (m: Move): Outcome => {
      moves.push(m);
      return 'sent';
    },
  };
  return { game, moves };
}

/** A mouse click as the table hears it: pointer down on the element, pointer up on the window, no movement. */
function tap(el: Element): void {
  const init = { bubbles: true, pointerId: 1, pointerType: 'mouse', button: 0, clientX: 10, clientY: 10 };
  el.dispatchEvent(new PointerEvent('pointerdown', init));
  window.dispatchEvent(new PointerEvent('pointerup', init));
}

function startView(): PlayerView {
  const deal = dealFromNumber(11);
  if (!deal.ok) throw new Error('deal');
  return playerView(newGame(deal.value, resolveOptions('classic-draw1')), 0);
}

describe('GameTable', () => {
  it('shows the 28 tableau cards with only the 7 top ones face up, and the stock as a count', async () => {
    const view = startView();
    const w = mount(GameTable, { props: { game: source(view).game }, attachTo: document.body });
    await nextTick(); // the table renders once it has measured its box
    const faces = w.findAll('.card.face').map((f) => f.attributes('aria-label'));
    expect(faces).toHaveLength(7);
    expect(faces).toContain(cardName(view.tableau[6]?.faceUp[0] as CardCode));
    expect(w.findAll('.card.back').length).toBeGreaterThanOrEqual(21); // 21 face-down tableau cards (+ the stock)
    expect(w.get('[data-drop="stock"]').text()).toContain('24');
    w.unmount();
  });

  it('a click on the stock sends the stock move of the rules (R10: draw)', async () => {
    const { game, moves } = source(startView());
    const w = mount(GameTable, { props: { game }, attachTo: document.body });
    await nextTick(); // the table renders once it has measured its box
    tap(w.get('[data-drop="stock"]').element);
    expect(moves).toEqual([{ type: 'draw' }]);
    w.unmount();
  });

  it('keys typed between / and the focus of the command line go to the command line, not to the shortcuts', async () => {
    const { game, moves } = source(startView());
    const w = mount(GameTable, { props: { game }, attachTo: document.body });
    await nextTick();
    const shortcuts: string[] = []; // what a page's own key handler (window, bubbling) would hear
    const page = (e: KeyboardEvent) => shortcuts.push(e.key);
    window.addEventListener('keydown', page);
    const press = (key: string) =>
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    // At once, before the command line's code has loaded: `d` and Enter (draw), then `4` left in the input.
    for (const key of ['/', 'd', 'Enter', '4']) press(key);
    expect(w.find('[data-testid=command-input]').exists()).toBe(false);
    await vi.waitFor(() => expect(w.find('[data-testid=command-input]').exists()).toBe(true), {
      timeout: 5000,
    });
    expect(moves).toEqual([{ type: 'draw' }]);
    expect((w.get('[data-testid=command-input]').element as HTMLInputElement).value).toBe('4');
    expect(shortcuts).toEqual(['/']);
    window.removeEventListener('keydown', page);
    w.unmount();
  });

  it('read-only (a replay): clicks send nothing', async () => {
    const { game, moves } = source(startView());
    const w = mount(GameTable, { props: { game, readonly: true }, attachTo: document.body });
    await nextTick(); // the table renders once it has measured its box
    tap(w.get('[data-drop="stock"]').element);
    expect(moves).toEqual([]);
    w.unmount();
  });
});
