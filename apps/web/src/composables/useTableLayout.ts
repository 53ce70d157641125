/**
 * The card table's geometry: the table element's size (a ResizeObserver), the card size and gaps that fit it,
 * and where each pile and card goes (the tableau's card tops squeezed to fit the height, the waste's fan, the
 * foundations' columns; stock and waste on the right in the left-handed layout). Pixels, relative to the table.
 */
import {
  cardInfo,
  codeOf,
  drawCount,
  TABLEAU_PILES,
  type CardCode,
  type FoundationPileId,
  type PlayerView,
} from '@klondike/rules';
import { computed, onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

/** The foundations, left to right. */
export const FOUNDATIONS: readonly FoundationPileId[] = ['fS', 'fH', 'fC', 'fD'];

/**
 * The layout of the table `root` for `view`; `leftHanded` mirrors it. Observes the element's size from mount
 * to unmount (call it in a component's setup).
 */
export function useTableLayout(
  root: Ref<HTMLElement | null>,
  view: Readonly<Ref<PlayerView | null>>,
  leftHanded: () => boolean,
) {
  const size = ref({ w: 0, h: 0 });
  let observer: ResizeObserver | null = null;

  onMounted(() => {
    const el = root.value;
    if (!el) return;
    size.value = { w: el.clientWidth, h: el.clientHeight };
    observer = new ResizeObserver(() => {
      size.value = { w: el.clientWidth, h: el.clientHeight };
    });
    observer.observe(el);
  });
  onBeforeUnmount(() => observer?.disconnect());

  const layout = computed(() => {
    const { w: W, h: H } = size.value;
    const pad = Math.round(Math.min(20, Math.max(6, W * 0.016)));
    const gap = Math.round(Math.min(18, Math.max(5, W * 0.013)));
    let cw = Math.floor((W - 2 * pad - 6 * gap) / 7);
    cw = Math.min(cw, 118, Math.floor((H - 2 * pad - gap) / 3.3 / 1.4));
    cw = Math.max(34, cw);
    const ch = Math.round(cw * 1.4);
    const compact = cw < 66;
    const tableW = 7 * cw + 6 * gap;
    const left = Math.max(pad, Math.floor((W - tableW) / 2));
    const top = pad;
    const tabTop = top + ch + Math.round(gap * 1.5);
    const tabH = Math.max(ch, H - tabTop - pad);
    return {
      cw,
      ch,
      gap,
      compact,
      left,
      top,
      tabTop,
      tabH,
      down: Math.max(4, Math.round(ch * 0.1)),
      up: Math.round(ch * (compact ? 0.3 : 0.255)),
      fan: Math.round(cw * (compact ? 0.3 : 0.22)),
      /** Left-handed layout (a setting): stock and waste on the right, foundations on the left. */
      mirror: leftHanded(),
    };
  });

  const colX = (i: number) => layout.value.left + i * (layout.value.cw + layout.value.gap);
  /** The stock's and the waste's columns: 0 and 1, or 6 and 4 in the left-handed layout (the waste fans right). */
  const stockX = computed(() => colX(layout.value.mirror ? 6 : 0));
  const wasteX = computed(() => colX(layout.value.mirror ? 4 : 1));

  const cssVars = computed(() => ({ '--cw': `${layout.value.cw}px`, '--ch': `${layout.value.ch}px` }));

  /** Card tops in a tableau pile, compressed to fit the table's height. */
  function pileTops(faceDown: number, faceUp: number): { down: number[]; up: number[] } {
    const L = layout.value;
    let od = L.down;
    let ou = L.up;
    const room = L.tabH - L.ch;
    const need = faceDown * od + Math.max(0, faceUp - 1) * ou;
    if (need > room && need > 0) {
      // Squeeze the face-down cards first, then everything.
      const odMin = Math.min(od, 3);
      const needMin = faceDown * odMin + Math.max(0, faceUp - 1) * ou;
      if (needMin <= room) od = faceDown > 0 ? (room - Math.max(0, faceUp - 1) * ou) / faceDown : od;
      else {
        od = odMin;
        const rest = room - faceDown * od;
        ou = faceUp > 1 ? Math.max(6, rest / (faceUp - 1)) : ou;
      }
    }
    const down = Array.from({ length: faceDown }, (_, i) => Math.round(i * od));
    const up = Array.from({ length: faceUp }, (_, j) => Math.round(faceDown * od + j * ou));
    return { down, up };
  }

  const tableau = computed(() => {
    const v = view.value;
    if (!v) return [];
    return TABLEAU_PILES.map((id, i) => {
      const t = v.tableau[i] ?? { faceDown: 0, faceUp: [] };
      const tops = pileTops(t.faceDown, t.faceUp.length);
      return { id, faceDown: t.faceDown, faceUp: t.faceUp, tops, x: colX(i) };
    });
  });

  const wasteCards = computed(() => {
    const v = view.value;
    if (!v) return [];
    const n = v.waste.length;
    const fanned = drawCount(v) === 3 ? 3 : 1;
    const shown = Math.min(n, fanned + 1);
    const out: { code: CardCode; index: number; x: number }[] = [];
    for (let k = n - shown; k < n; k++) {
      const fromTop = n - 1 - k; // 0 = top
      const slot = Math.max(0, Math.min(fanned, n) - 1 - fromTop);
      out.push({ code: v.waste[k] as CardCode, index: k, x: slot * layout.value.fan });
    }
    return out;
  });

  const foundations = computed(() => {
    const v = view.value;
    return FOUNDATIONS.map((id, i) => {
      const top = v?.foundations[id] ?? null;
      const info = top ? (cardInfo(top) ?? null) : null;
      const under = info && info.rank > 1 ? codeOf(info.rank - 1, info.suit) : null;
      return {
        id,
        top,
        under,
        suit: id.slice(1) as 'C' | 'D' | 'H' | 'S',
        x: colX(layout.value.mirror ? i : 3 + i),
      };
    });
  });

  return { size, layout, colX, stockX, wasteX, cssVars, pileTops, tableau, wasteCards, foundations };
}

/** The table's geometry (useTableLayout). */
export type TableLayout = ReturnType<typeof useTableLayout>;
