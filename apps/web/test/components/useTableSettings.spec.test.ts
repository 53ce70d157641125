// @vitest-environment happy-dom
/**
 * The settings that act on a game (composables/useTableSettings.ts): which sound a change of the table makes,
 * and the auto-move to foundation — made when the setting is on (R15 safe moves only), never when it is off,
 * and not made again right after the player undid it.
 */
import type { Move, PlayerView } from '@klondike/rules';
import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick, ref, shallowRef } from 'vue';
import type { Outcome, TableSource } from '../../src/composables/useGame';
import { useSettings } from '../../src/composables/useSettings';
import { soundFor, useTableSettings } from '../../src/composables/useTableSettings';
import { makeView } from '../fixtures';

const at = (v: PlayerView, moves: number, extra: Partial<PlayerView> = {}): PlayerView => ({
  ...v,
  moves,
  ...extra,
});

describe('soundFor', () => {
  const base = makeView({ stock: 10, tableau: [[0, ['AS']]] });
  it('names what happened: a draw, a card home, a move, a win; nothing for another game or no change', () => {
    expect(soundFor(base, at(base, 1, { stock: { count: 9 } }))).toBe('draw');
    expect(soundFor(base, at(base, 1, { foundations: { ...base.foundations, fS: 'AS' } }))).toBe(
      'foundation',
    );
    expect(soundFor(base, at(base, 1))).toBe('move');
    expect(soundFor(at(base, 5), at(base, 6, { status: 'won' }))).toBe('win');
    expect(soundFor(at(base, 5), at(base, 0))).toBeNull(); // a new deal
    expect(soundFor(base, base)).toBeNull();
    expect(soundFor(null, base)).toBeNull();
  });
});

describe('auto-move to foundation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    useSettings().reset();
  });

  function harness() {
    const view = shallowRef<PlayerView | null>(null);
    const sent: Move[] = [];
    const game: TableSource = {
      view,
      version: ref(0),
      busy: ref(false),
      dealSeq: ref(0),
      move(m): Outcome {
        sent.push(m);
        return 'sent';
      },
    };
    let api: ReturnType<typeof useTableSettings> | null = null;
    mount(
      defineComponent({
        setup() {
          api = useTableSettings(game);
          return () => h('div');
        },
      }),
    );
    return { view, sent, decline: () => api?.declineAutoMove() };
  }

  const safe = makeView({ tableau: [[0, ['AH']]] });
  const unsafe = makeView({ tableau: [[0, ['4D']]], foundations: { fD: '3D', fC: 'AC', fS: 'AS' } });

  it('off (the default): nothing is moved', async () => {
    const t = harness();
    t.view.value = safe;
    await nextTick();
    vi.advanceTimersByTime(1000);
    expect(t.sent).toEqual([]);
  });

  it('on: a safe card goes home after a moment; a card still needed does not', async () => {
    useSettings().set({ autoFoundation: true });
    const t = harness();
    t.view.value = unsafe;
    await nextTick();
    vi.advanceTimersByTime(1000);
    expect(t.sent).toEqual([]);
    t.view.value = safe;
    await nextTick();
    vi.advanceTimersByTime(1000);
    expect(t.sent).toEqual([{ type: 'move', from: 't1', to: 'fH', count: 1 }]);
  });

  it('on: after an undo, the move taken back is not made again until another one is due', async () => {
    useSettings().set({ autoFoundation: true });
    const t = harness();
    t.decline();
    t.view.value = safe; // the position after the undo
    await nextTick();
    vi.advanceTimersByTime(1000);
    t.view.value = at(safe, 1, { stock: { count: 3 } }); // the player draws: the same safe move is still declined
    await nextTick();
    vi.advanceTimersByTime(1000);
    expect(t.sent).toEqual([]);
    t.view.value = makeView({ tableau: [[0, ['AS']]] }); // another safe move comes up
    await nextTick();
    vi.advanceTimersByTime(1000);
    expect(t.sent).toEqual([{ type: 'move', from: 't1', to: 'fS', count: 1 }]);
  });
});
