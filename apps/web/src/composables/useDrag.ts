/**
 * Drag and drop of cards and runs with Pointer Events (mouse, touch, pen). The picked-up card elements
 * themselves follow the pointer (the drag ghost); on release the pile under the pointer is the target (or, when
 * the pointer is over no pile, the legal pile the lead card overlaps most). A refused drop animates back.
 * A press that does not move far enough is a click, reported to `click`.
 */
import type { PileId } from '@klondike/rules';
import { onBeforeUnmount, shallowRef, type Ref } from 'vue';

export interface DragState {
  readonly pile: PileId;
  readonly index: number;
  readonly count: number;
  /** Legal targets (for highlighting). */
  readonly targets: readonly PileId[];
  /** Pile under the pointer now. */
  readonly hover: PileId | null;
}

export interface DragCallbacks {
  /** Cards picked up by a drag starting on face-up card `index` of `pile` (0 = cannot drag). */
  count(pile: PileId, index: number): number;
  targets(pile: PileId, count: number): PileId[];
  /** Makes the move; false when it is refused (the cards go back). */
  drop(pile: PileId, count: number, to: PileId): boolean;
  /** A press without a drag on card `index` of `pile` (index −1: on the pile, not on a card). */
  click(pile: PileId, index: number, pointerType: string): void;
  /** A press on the table outside every pile. */
  background(): void;
}

interface Pending {
  readonly pointerId: number;
  readonly pointerType: string;
  readonly x0: number;
  readonly y0: number;
  readonly pile: PileId;
  readonly index: number;
  els: HTMLElement[];
  started: boolean;
  /** Moved, but the card cannot be dragged: neither a drag nor a click. */
  dead: boolean;
  count: number;
}

const SNAP_MS = 200;

/** Pile id of the drop zone at a point, ignoring the dragged elements. */
function pileAt(x: number, y: number, ignore: readonly HTMLElement[]): PileId | null {
  for (const el of document.elementsFromPoint(x, y)) {
    if (ignore.some((g) => g === el || g.contains(el))) continue;
    const zone = el.closest<HTMLElement>('[data-drop]');
    if (zone) return zone.dataset.drop as PileId;
  }
  return null;
}

function overlapArea(a: DOMRect, b: DOMRect): number {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

export function useDrag(root: Ref<HTMLElement | null | undefined>, cb: DragCallbacks) {
  const state = shallowRef<DragState | null>(null);
  let pending: Pending | null = null;

  function runElements(pile: PileId, index: number): HTMLElement[] {
    const r = root.value;
    if (!r) return [];
    return [...r.querySelectorAll<HTMLElement>(`[data-pile="${pile}"][data-index]`)]
      .filter((el) => Number(el.dataset.index) >= index)
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
  }

  function onPointerDown(e: PointerEvent): void {
    if (pending || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const target = e.target as Element | null;
    if (!target || target.closest('button, a, input, textarea, select')) return;
    const cardEl = target.closest<HTMLElement>('[data-pile][data-index]');
    const zone = target.closest<HTMLElement>('[data-drop]');
    if (!cardEl && !zone) {
      cb.background();
      return;
    }
    const pile = (cardEl?.dataset.pile ?? zone?.dataset.drop) as PileId;
    const index = cardEl ? Number(cardEl.dataset.index) : -1;
    pending = {
      pointerId: e.pointerId,
      pointerType: e.pointerType,
      x0: e.clientX,
      y0: e.clientY,
      pile,
      index,
      els: [],
      started: false,
      dead: false,
      count: 0,
    };
    if (e.pointerType === 'mouse') e.preventDefault(); // no text selection
    window.addEventListener('pointermove', onPointerMove);
    window.addEventListener('pointerup', onPointerUp);
    window.addEventListener('pointercancel', onPointerCancel);
  }

  function begin(p: Pending): boolean {
    if (p.index < 0) return false;
    const count = cb.count(p.pile, p.index);
    if (count === 0) return false;
    const els = runElements(p.pile, p.index);
    if (els.length === 0) return false;
    p.els = els;
    p.count = count;
    p.started = true;
    els.forEach((el, i) => {
      el.getAnimations().forEach((a) => a.cancel());
      el.style.transition = 'none';
      el.style.zIndex = String(1000 + i);
      el.style.pointerEvents = 'none';
    });
    state.value = { pile: p.pile, index: p.index, count, targets: cb.targets(p.pile, count), hover: null };
    return true;
  }

  function onPointerMove(e: PointerEvent): void {
    const p = pending;
    if (!p || e.pointerId !== p.pointerId) return;
    const dx = e.clientX - p.x0;
    const dy = e.clientY - p.y0;
    if (p.dead) return;
    if (!p.started) {
      const threshold = p.pointerType === 'mouse' ? 4 : 8;
      if (Math.hypot(dx, dy) < threshold) return;
      if (!begin(p)) {
        p.dead = true;
        return;
      }
    }
    e.preventDefault();
    for (const el of p.els) el.style.transform = `translate(${dx}px, ${dy}px)`;
    const hover = pileAt(e.clientX, e.clientY, p.els);
    const s = state.value;
    if (s && s.hover !== hover) state.value = { ...s, hover };
  }

  function detach(): void {
    window.removeEventListener('pointermove', onPointerMove);
    window.removeEventListener('pointerup', onPointerUp);
    window.removeEventListener('pointercancel', onPointerCancel);
  }

  function clearStyles(el: HTMLElement): void {
    el.style.transition = '';
    el.style.transform = '';
    el.style.zIndex = '';
    el.style.pointerEvents = '';
  }

  function snapBack(els: readonly HTMLElement[]): void {
    for (const el of els) {
      if (!el.isConnected) continue;
      el.style.transition = `transform ${SNAP_MS}ms cubic-bezier(.3,.7,.4,1)`;
      el.style.transform = '';
    }
    setTimeout(() => els.forEach(clearStyles), SNAP_MS + 20);
  }

  /** Legal target the lead card overlaps most (when the pointer is over no pile). */
  function overlapTarget(lead: HTMLElement, targets: readonly PileId[]): PileId | null {
    const r = root.value;
    if (!r) return null;
    const rect = lead.getBoundingClientRect();
    let best: PileId | null = null;
    let bestArea = 0;
    for (const t of targets) {
      const zone = r.querySelector<HTMLElement>(`[data-drop="${t}"]`);
      if (!zone) continue;
      const area = overlapArea(rect, zone.getBoundingClientRect());
      if (area > bestArea) {
        best = t;
        bestArea = area;
      }
    }
    return best;
  }

  function onPointerUp(e: PointerEvent): void {
    const p = pending;
    if (!p || e.pointerId !== p.pointerId) return;
    pending = null;
    detach();
    if (!p.started) {
      if (!p.dead) cb.click(p.pile, p.index, p.pointerType);
      return;
    }
    const s = state.value;
    state.value = null;
    const under = pileAt(e.clientX, e.clientY, p.els);
    const to = under ?? overlapTarget(p.els[0] as HTMLElement, s?.targets ?? []);
    if (to && to !== p.pile && cb.drop(p.pile, p.count, to)) {
      // The moved cards re-render in their new pile (and fly there from here); anything left behind goes back.
      const els = p.els;
      setTimeout(() => snapBack(els.filter((el) => el.isConnected)), 60);
      return;
    }
    snapBack(p.els);
  }

  function onPointerCancel(e: PointerEvent): void {
    const p = pending;
    if (!p || e.pointerId !== p.pointerId) return;
    pending = null;
    detach();
    state.value = null;
    if (p.started) snapBack(p.els);
  }

  onBeforeUnmount(detach);

  return { state, onPointerDown };
}
