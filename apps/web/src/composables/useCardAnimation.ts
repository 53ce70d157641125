/**
 * The table's card animations, FLIP style (first, last, invert, play): every card that changes place glides
 * from where it was; a card drawn flies in from the stock; a card turned up flips; a new deal flies out from the
 * stock pile by pile. Cards are the elements with `data-key` inside `root` (`data-pile`, and `data-deal` for the
 * dealing order). Durations scale with the animation-speed setting; nothing moves under reduced motion (the
 * setting, or `prefers-reduced-motion` when it follows the system), while a card is dragged, or on a resize.
 */
import { tableauIndex, type PlayerView } from '@klondike/rules';
import { nextTick, watch, type Ref } from 'vue';
import { useSettings } from './useSettings';

/** What the animation follows. */
export interface AnimatedTable {
  /** The view shown (each change animates). */
  readonly view: () => PlayerView | null;
  /** Bumped on each fresh deal (plays the deal animation). */
  readonly dealSeq: () => number;
  /** The table's layout: when it changes (a resize) cards move without animation. */
  readonly layout: Ref<unknown>;
}

/** Animates the cards of the table in `root` as `table` changes. */
export function useCardAnimation(root: Ref<HTMLElement | null>, table: AnimatedTable): void {
  /** The factor on every duration and delay; 0 = reduced motion (useSettings). */
  const factor = useSettings().motionFactor;
  let before: Map<string, DOMRect> | null = null;
  let wasteBefore = 0;
  /** Waste length as last rendered (to tell a draw from a card played off the waste). */
  let renderedWaste = 0;
  let lastDeal = table.dealSeq();

  function snapshot(): Map<string, DOMRect> {
    const m = new Map<string, DOMRect>();
    root.value
      ?.querySelectorAll<HTMLElement>('[data-key]')
      .forEach((el) => m.set(el.dataset.key as string, el.getBoundingClientRect()));
    return m;
  }

  function fly(el: HTMLElement, from: DOMRect, delay = 0, duration = 220): void {
    const now = el.getBoundingClientRect();
    const dx = from.left - now.left;
    const dy = from.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    el.style.zIndex = '900';
    const anim = el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], {
      duration: duration * factor.value,
      delay: delay * factor.value,
      easing: 'cubic-bezier(.25,.75,.35,1)',
      fill: 'backwards',
    });
    const done = () => {
      if (!el.style.transform) el.style.zIndex = '';
    };
    anim.onfinish = done;
    anim.oncancel = done;
  }

  function animate(): void {
    const r = root.value;
    const prev = before;
    before = null;
    const view = table.view();
    const wasteGrew = (view?.waste.length ?? 0) > wasteBefore;
    renderedWaste = view?.waste.length ?? 0;
    if (!r || factor.value === 0) return;
    const stock = r.querySelector<HTMLElement>('[data-drop="stock"]')?.getBoundingClientRect();
    const dealt = table.dealSeq() !== lastDeal;
    lastDeal = table.dealSeq();
    const els = [...r.querySelectorAll<HTMLElement>('[data-key]')];
    if (dealt) {
      if (!stock) return;
      // Deal animation: every card flies out from the stock, pile by pile.
      els
        .filter((el) => el.dataset.deal !== undefined)
        .sort((a, b) => Number(a.dataset.deal) - Number(b.dataset.deal))
        .forEach((el, i) => fly(el, stock, i * 18, 260));
      return;
    }
    if (!prev) return;
    for (const el of els) {
      if (el.style.transform) continue; // being dragged or snapping back
      const key = el.dataset.key as string;
      const from = prev.get(key);
      if (from) fly(el, from);
      else if (el.dataset.pile === 'waste' && stock && wasteGrew) fly(el, stock, 0, 200);
      else if (el.dataset.pile && tableauIndex(el.dataset.pile) >= 0 && prev.size > 0) {
        el.animate([{ transform: 'perspective(600px) rotateY(90deg)' }, { transform: 'none' }], {
          duration: 200 * factor.value,
          easing: 'ease-out',
        });
      }
    }
  }

  watch(
    [table.view, table.dealSeq, table.layout],
    (_n, [_v, _d, oldLayout]) => {
      // A resize re-lays out without animation.
      before = oldLayout === table.layout.value || oldLayout === undefined ? snapshot() : null;
      wasteBefore = renderedWaste;
    },
    { flush: 'pre' },
  );
  watch([table.view, table.dealSeq], () => nextTick(animate), { flush: 'post' });
}
