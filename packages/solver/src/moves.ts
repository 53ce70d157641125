/**
 * Card tables, the engine's move encoding (a small integer per move) and the talon's reachable waste tops
 * (P3). Shared by the engine, the searches and the line expansion; no state.
 *
 * Cards use the rules package's ids: `suit * 13 + rank - 1`, suits C, D, H, S (D and H red).
 */
/** Ordering score of a partial run move (P9 keeps only those that free a foundation card). */
export const PARTIAL_SCORE = 200;
/** Slots per tableau pile: at most 6 face-down cards + 13 face-up cards. */
export const PILE_CAP = 20;

/** The other suit of the same colour (C↔S, D↔H). */
export const OTHER_SAME = Int8Array.of(3, 2, 1, 0);
/** Rank 1..13 of each card. */
export const RANK_OF: Int8Array = Int8Array.from({ length: 52 }, (_, c) => (c % 13) + 1);
/** Suit 0..3 of each card. */
export const SUIT_OF: Int8Array = Int8Array.from({ length: 52 }, (_, c) => Math.floor(c / 13));
/** 1 for red cards (diamonds, hearts). */
export const RED_OF: Int8Array = Int8Array.from({ length: 52 }, (_, c) => {
  const s = Math.floor(c / 13);
  return s === 1 || s === 2 ? 1 : 0;
});

/**
 * The two suits of the other colour, indexed by `RED_OF` of a card: black (0) → D, H; red (1) → C, S. The
 * card of rank r of such a suit is `OTHER_SUIT_1[red] * 13 + r − 1` (R4: what a card may lie on or take).
 */
export const OTHER_SUIT_1: Int8Array = Int8Array.of(1, 0);
export const OTHER_SUIT_2: Int8Array = Int8Array.of(2, 3);

// ---- Move encoding (a small integer) ----
// bits 0-2 kind, 3-5 a (source pile or suit), 6-8 b (target pile or suit), 9-13 n (count, or talon
// position q = waste size at which the card is the waste top), bits 14-15 talon flag (1 = a recycle first,
// 2 = the last pass of R16 first), bits 16-26 ordering score (stripped before use).
/** Tableau top to its foundation. a = pile. */
export const K_T2F = 1;
/** Tableau run to tableau. a = from, b = to, n = count. */
export const K_T2T = 2;
/** Talon card (reached by draws, maybe one recycle or the last pass) to its foundation. n = q, flag. */
export const K_W2F = 3;
/** Talon card to tableau. b = to, n = q, flag. */
export const K_W2T = 4;
/** Foundation top back to the tableau (R9). a = suit, b = to. */
export const K_F2T = 5;

/** Builds an encoded move. */
export function encodeMove(kind: number, a: number, b: number, n: number, flag: number): number {
  return kind | (a << 3) | (b << 6) | (n << 9) | (flag << 14);
}
/** Kind of an encoded move. */
export const moveKind = (m: number): number => m & 7;
/** Field a of an encoded move. */
export const moveA = (m: number): number => (m >> 3) & 7;
/** Field b of an encoded move. */
export const moveB = (m: number): number => (m >> 6) & 7;
/** Field n of an encoded move. */
export const moveN = (m: number): number => (m >> 9) & 31;
/** Talon flag of an encoded move: 0 draws only, `FLAG_RECYCLE` or `FLAG_LAST_PASS` before the draws. */
export const moveFlag = (m: number): number => (m >> 14) & 3;
/** Talon flag: the waste is recycled (R11) before the draws. */
export const FLAG_RECYCLE = 1;
/** Talon flag: the last pass (R16) is taken before the draws, which then turn one card each. */
export const FLAG_LAST_PASS = 2;

/** `talonReach`: no last pass (R16) on offer. */
export const SWITCH_NONE = 0;
/** `talonReach`: the last pass is on offer for the targets that neither draws nor a recycle reach. */
export const SWITCH_UNREACHED = 1;
/**
 * `talonReach`: the last pass is on offer for every target that draws alone do not reach (used when a
 * recycle would leave the last pass available, but a redeal limit might forbid it afterwards).
 */
export const SWITCH_ALL = 2;

/**
 * P3: the waste tops reachable from a talon of `L` cards with `p` of them in the waste, by draws of `d`
 * cards and, when `canRecycle`, one recycle. Writes `q | flag << 5` entries to `out` (q = waste size at
 * which the card `talon[q-1]` is on top; flag = 1 when a recycle is needed), those without a recycle
 * first, in drawing order; returns how many. A second recycle never reaches anything new, and a target
 * reachable without a recycle is never listed again with one (fewer recycles dominate).
 *
 * R16 (`lastPass` other than `SWITCH_NONE`): then the targets reached by the last pass follow (flag 2): the
 * talon turns over and draws of one card reach every position 1 … L. A target that draws alone reach is
 * never listed with it (the position without the switch can still take it later); with `SWITCH_UNREACHED`
 * neither is a target a recycle reaches (the recycled position can still take the switch and reach it).
 */
export function talonReach(
  L: number,
  p: number,
  d: number,
  canRecycle: boolean,
  out: Int32Array,
  lastPass: number = SWITCH_NONE,
): number {
  let k = 0;
  if (L === 0) return 0;
  let set0 = 0;
  if (p > 0) {
    set0 |= 1 << p;
    out[k++] = p;
  }
  let q = p;
  while (q < L) {
    q = Math.min(q + d, L);
    set0 |= 1 << q;
    out[k++] = q;
  }
  let set1 = 0;
  if (canRecycle) {
    q = 0;
    while (q < L) {
      q = Math.min(q + d, L);
      set1 |= 1 << q;
      if ((set0 & (1 << q)) === 0) out[k++] = q | (1 << 5);
    }
  }
  if (lastPass !== SWITCH_NONE) {
    const skip = lastPass === SWITCH_UNREACHED ? set0 | set1 : set0;
    for (q = 1; q <= L; q++) if ((skip & (1 << q)) === 0) out[k++] = q | (FLAG_LAST_PASS << 5);
  }
  return k;
}
