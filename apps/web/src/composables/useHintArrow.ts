/**
 * The curved arrow from a hint's cards to the pile they go to, in the table's coordinates: measured from the
 * rendered elements marked `data-hint="source"` and `data-hint="target"` inside `root` after each render that
 * changes the hint or the layout. Null while there is no hint (or nothing to point at).
 */
import { nextTick, ref, watch, type Ref } from 'vue';
import type { HintHighlight } from '../lib/hint';

/** An SVG path (`d`) and a key that changes with the hinted move (restarts its drawing animation). */
export interface HintArrow {
  readonly path: string;
  readonly key: string;
}

/** A rectangle on the screen (DOMRect's fields that the geometry needs), in px. */
export interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** Where the segment from the centre of `r` in direction (ux, uy) leaves `r`, scaled by `k`. */
function exitPoint(r: Box, ux: number, uy: number, k: number): { x: number; y: number } {
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  const tx = ux === 0 ? Infinity : r.width / 2 / Math.abs(ux);
  const ty = uy === 0 ? Infinity : r.height / 2 / Math.abs(uy);
  const t = Math.min(tx, ty) * k;
  return { x: cx + ux * t, y: cy + uy * t };
}

/**
 * The arrow's path from box `from` (the hinted cards) to box `to` (the target), relative to `base` (the table):
 * a quadratic curve from near the edge of one box to near the edge of the other, bowing upwards by up to 90 px.
 * Null when the boxes share their centre.
 */
export function arrowPath(from: Box, to: Box, base: { left: number; top: number }): string | null {
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const len = Math.hypot(dx, dy);
  if (len < 1) return null;
  const ux = dx / len;
  const uy = dy / len;
  const a = exitPoint(from, ux, uy, 0.55);
  const b = exitPoint(to, -ux, -uy, 0.45);
  // A gentle bow, always bulging upwards (over the table rather than into the piles below).
  const bend = Math.min(90, Math.hypot(b.x - a.x, b.y - a.y) * 0.22);
  let nx = -uy;
  let ny = ux;
  if (ny > 0) {
    nx = -nx;
    ny = -ny;
  }
  const mx = (a.x + b.x) / 2 + nx * bend;
  const my = (a.y + b.y) / 2 + ny * bend;
  const f = (n: number) => n.toFixed(1);
  return `M${f(a.x - base.left)} ${f(a.y - base.top)} Q${f(mx - base.left)} ${f(my - base.top)} ${f(b.x - base.left)} ${f(b.y - base.top)}`;
}

/** The hint arrow of the table in `root`, re-measured when `hint()` or `layout` changes. */
export function useHintArrow(
  root: Ref<HTMLElement | null>,
  hint: () => HintHighlight | null | undefined,
  layout: Ref<unknown>,
): Ref<HintArrow | null> {
  const arrow = ref<HintArrow | null>(null);

  function measure(): void {
    const h = hint();
    const r = root.value;
    if (!h || !h.targetPile || !r) {
      arrow.value = null;
      return;
    }
    const sources = [...r.querySelectorAll<HTMLElement>('[data-hint="source"]')];
    const target =
      r.querySelector<HTMLElement>(`[data-hint="target"] .glow`) ??
      r.querySelector<HTMLElement>('[data-hint="target"]');
    if (sources.length === 0 || !target) {
      arrow.value = null;
      return;
    }
    const rects = sources.map((el) => el.getBoundingClientRect());
    const left = Math.min(...rects.map((q) => q.left));
    const top = Math.min(...rects.map((q) => q.top));
    const from: Box = {
      left,
      top,
      width: Math.max(...rects.map((q) => q.right)) - left,
      height: Math.max(...rects.map((q) => q.bottom)) - top,
    };
    const path = arrowPath(from, target.getBoundingClientRect(), r.getBoundingClientRect());
    arrow.value = path ? { path, key: `${h.sourcePile}-${h.targetPile}-${h.sourceCards.length}` } : null;
  }

  watch([hint, layout], () => nextTick(measure), { flush: 'post' });
  return arrow;
}
