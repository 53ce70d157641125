/**
 * The search engine: a compact mutable position, macro moves, exact position keys and an iterative
 * depth-first search with a transposition table. Internal to the package; `index.ts` is the public API.
 *
 * Cards use the rules package's ids: `suit * 13 + rank - 1`, suits C, D, H, S (D and H red).
 *
 * Every pruning rule used here is listed, with its proof, in the package README ("Pruning rules");
 * the comments below name them P1 … P12.
 */
import { deadlocked } from './deadlock.js';
import {
  FLAG_LAST_PASS,
  K_F2T,
  K_T2F,
  K_T2T,
  K_W2F,
  K_W2T,
  OTHER_SAME,
  OTHER_SUIT_1,
  OTHER_SUIT_2,
  PARTIAL_SCORE,
  PILE_CAP,
  RANK_OF,
  RED_OF,
  SUIT_OF,
  SWITCH_ALL,
  SWITCH_NONE,
  SWITCH_UNREACHED,
  encodeMove,
  talonReach,
} from './moves.js';
import { searchWin } from './search.js';
import { KeyTable } from './table.js';

export * from './moves.js';
export type { EnginePosition, EngineRules, EngineTuning, SearchOutcome } from './model.js';
import type { EnginePosition, EngineRules, EngineTuning, SearchOutcome } from './model.js';

/**
 * The mutable position plus the search. One instance per search; not re-entrant.
 */
export class Engine {
  readonly rules: EngineRules;
  private readonly autoMoves: boolean;
  private readonly greedyAuto: boolean;
  private readonly deadlockCheck: boolean;
  private readonly twinRule: boolean;
  private readonly talonRule: boolean;
  /** P12: foundation cards come down only when something could follow (used where P10 is off). */
  private readonly f2tRule: boolean;
  private readonly talonAuto: boolean;
  private readonly exactPointer: boolean;
  /** O9 of the minimal search: cards of rank ≤ the lowest foundation + 1 go up and never come down. */
  private readonly lowFoundation: boolean;
  /** O10 of the minimal search (one card per draw): the first low talon card that fits caps the talon moves. */
  private readonly lowTalon: boolean;
  /** O11 of the minimal search: O9 and O10 with the closed foundation heights (`closedHeights`). */
  private readonly safeFoundation: boolean;
  /** Scratch of `closedHeights`. */
  private readonly closed = new Int8Array(4);
  /** Draw 1 with unlimited redeals: every talon card is reachable at any time (P7). */
  private readonly freeTalon: boolean;
  /** P11: draw 3, unlimited redeals, no last pass (R16), pointer keyed under P7. */
  private readonly pointerDominance: boolean;
  // Position.
  readonly cards = new Int8Array(7 * PILE_CAP);
  readonly len = new Int8Array(7);
  readonly fd = new Int8Array(7);
  readonly found = new Int8Array(4);
  readonly tal = new Int8Array(25);
  talLen = 0;
  ptr = 0;
  recycles = 0;
  /** R16: 1 once the last pass is taken. */
  lastPass = 0;
  private readonly reach = new Int32Array(64);
  /** `generate`'s index of tableau tops: the pile whose top is card c, else −1. */
  private readonly topPile = new Int8Array(52).fill(-1);
  // Key scratch.
  readonly keyWidth: number;
  readonly key: Uint32Array;
  private readonly kw = new Uint32Array(4);
  /**
   * The 2-bit card codes of the key (words 0-3, `computeKey`), kept up to date by `apply` and `undo` so that
   * a key costs no walk over the piles.
   */
  private readonly kc = new Uint32Array(4);
  // Search stacks.
  private moves = new Int32Array(1 << 14);
  /** The current line: the move applied at each depth. */
  path = new Int32Array(1024);
  /** Length of `path` once `search` returned 'won'. */
  pathLength = 0;
  /** Positions generated (moves applied), including those already in the table. */
  nodes = 0;

  constructor(rules: EngineRules, start: EnginePosition, tuning: EngineTuning = {}) {
    this.rules = rules;
    this.autoMoves = tuning.autoMoves ?? true;
    this.greedyAuto = tuning.greedyAuto ?? false;
    this.deadlockCheck = tuning.deadlock ?? true;
    this.twinRule = tuning.partialRule ?? true;
    this.talonAuto = tuning.talonAuto ?? true;
    this.exactPointer = tuning.exactPointer ?? false;
    this.lowFoundation = tuning.lowFoundation ?? false;
    this.lowTalon = tuning.lowTalon ?? false;
    this.safeFoundation = tuning.safeFoundation ?? false;
    // P7, P10 and the talon part of P2 rely on every talon card being reachable at any time: not after R16.
    const freeTalon = rules.draw === 1 && rules.redealLimit < 0 && start.lastPass !== true;
    this.talonRule = (tuning.talonRule ?? true) && freeTalon;
    this.f2tRule = (tuning.foundationRule ?? true) && !this.talonRule;
    for (let i = 0; i < 7; i++) {
      const pile = start.piles[i] as readonly number[];
      for (let k = 0; k < pile.length; k++) this.cards[i * PILE_CAP + k] = pile[k] as number;
      this.len[i] = pile.length;
      this.fd[i] = start.faceDown[i] as number;
    }
    for (let s = 0; s < 4; s++) this.found[s] = start.foundations[s] as number;
    for (let k = 0; k < start.talon.length; k++) this.tal[k] = start.talon[k] as number;
    this.talLen = start.talon.length;
    this.ptr = start.pointer;
    this.recycles = start.recycles;
    this.lastPass = start.lastPass === true ? 1 : 0;
    this.keyWidth = rules.redealLimit < 0 ? 5 : 6;
    this.freeTalon = freeTalon;
    this.pointerDominance =
      (tuning.pointerDominance ?? true) &&
      rules.draw === 3 &&
      rules.redealLimit < 0 &&
      rules.finalSinglePass !== true &&
      start.lastPass !== true &&
      !this.exactPointer;
    this.key = new Uint32Array(this.keyWidth);
    this.computeKeyFull();
    this.kc.set(this.kw);
  }

  /** Sets the 2-bit key code of card `c` (0 = not a face-up tableau card; see `computeKey`). */
  private setCode(c: number, v: number): void {
    const w = c >> 4;
    const sh = (c & 15) * 2;
    this.kc[w] = ((this.kc[w] as number) & ~(3 << sh)) | (v << sh);
  }

  /** The key code of the face-up card at height `k` of pile `i`: 1 when lowest face-up, else what it lies on. */
  private codeAt(i: number, k: number): number {
    if (k === (this.fd[i] as number)) return 1;
    return (this.cards[i * PILE_CAP + k - 1] as number) >= 26 ? 3 : 2;
  }

  /** A copy of the current position. */
  snapshot(): EnginePosition {
    const piles: number[][] = [];
    const faceDown: number[] = [];
    for (let i = 0; i < 7; i++) {
      piles.push(Array.from(this.cards.subarray(i * PILE_CAP, i * PILE_CAP + (this.len[i] as number))));
      faceDown.push(this.fd[i] as number);
    }
    return {
      piles,
      faceDown,
      foundations: Array.from(this.found),
      talon: Array.from(this.tal.subarray(0, this.talLen)),
      pointer: this.ptr,
      recycles: this.recycles,
      lastPass: this.lastPass === 1,
    };
  }

  /** True when all 52 cards are on the foundations (R12). */
  isWon(): boolean {
    const f = this.found;
    return f[0] === 13 && f[1] === 13 && f[2] === 13 && f[3] === 13;
  }

  /** P8: the static impossibility certificate (`deadlocked` in deadlock.ts). */
  deadlocked(): boolean {
    return deadlocked(this);
  }

  private redealsLeft(): boolean {
    if (this.lastPass === 1) return false; // R16: no redeal after the last pass
    const limit = this.rules.redealLimit;
    return limit < 0 || this.recycles < limit;
  }

  /** Cards a draw turns now: one after the last pass (R16), else the rules' draw (R10). */
  drawSize(): number {
    return this.lastPass === 1 ? 1 : this.rules.draw;
  }

  /** How `talonReach` offers the last pass (R16) from the current position. */
  private switchMode(): number {
    if (this.rules.finalSinglePass !== true || !this.redealsLeft()) return SWITCH_NONE;
    const limit = this.rules.redealLimit;
    return limit < 0 || this.recycles + 1 < limit ? SWITCH_UNREACHED : SWITCH_ALL;
  }

  // ---------- keys ----------

  /**
   * P7: the talon pointer as the key records it. With unlimited redeals, two pointers that reach the same
   * set of waste tops are interchangeable: draw 1 reaches every card from anywhere (pointer dropped); draw 3
   * reaches from a pointer that is a multiple of 3, or the end, exactly what it reaches from 0.
   */
  private keyPointer(): number {
    const p = this.ptr;
    if (this.exactPointer || this.rules.redealLimit >= 0 || this.lastPass === 1) return p;
    if (this.rules.draw === 1) return 0;
    return p % 3 === 0 || p === this.talLen ? 0 : p;
  }

  /**
   * Writes the exact key of the current position into `this.key` (P6: piles without face-down cards are
   * interchangeable, so the key does not say which pile they are in).
   *
   * Layout (packed, 5 words; 6 with limited redeals): 2 bits per card in words 0-3 (0 = not a face-up
   * tableau card, 1 = the lowest face-up card of its pile, 2/3 = lies on the clubs-or-diamonds /
   * hearts-or-spades card one rank higher); word 3 also holds the foundation heights (bits 8-23), the talon
   * pointer (bits 24-28) and whether the last pass (R16) was taken (bit 29); word 4 the face-down count of
   * each pile (3 bits per pile, bits 0-20); word 5 (limited redeals only) the recycles made. Bit 31 of the
   * last word stays free for the table (`KeyTable`).
   *
   * Why this determines the position (up to the order of the piles without face-down cards): the lowest
   * face-up card of a pile with `f > 0` face-down cards is always the card that lay at height `f` of that
   * pile at the start of the search — it can only leave the pile by uncovering the card below it, which
   * turns that card up and lowers `f` — so the face-down counts name those cards, and the codes chain the
   * rest of each pile upwards (of the two cards that may lie on a card, the code says which one does). The
   * talon's remaining cards are exactly the cards found nowhere else, in an order that never changes.
   */
  computeKey(): Uint32Array {
    let k4 = 0;
    const fd = this.fd;
    for (let i = 0; i < 7; i++) k4 |= (fd[i] as number) << (3 * i);
    return this.packKey(this.kc, k4);
  }

  /**
   * Writes `this.key` from the card-code words `codes` (words 0–3; word 3 uses bits 0–7), the face-down
   * counts `k4` (3 bits per pile), the foundations, the talon pointer, the last-pass flag and, with limited
   * redeals, the recycles made (layout: `computeKey`).
   */
  private packKey(codes: Uint32Array, k4: number): Uint32Array {
    const key = this.key;
    const fo = this.found;
    let k3 = codes[3] as number;
    k3 |= ((fo[0] as number) << 8) | ((fo[1] as number) << 12) | ((fo[2] as number) << 16);
    k3 |= ((fo[3] as number) << 20) | (this.keyPointer() << 24) | (this.lastPass << 29);
    key[0] = codes[0] as number;
    key[1] = codes[1] as number;
    key[2] = codes[2] as number;
    key[3] = k3;
    key[4] = k4;
    if (this.keyWidth === 6) key[5] = this.recycles;
    return key;
  }

  /**
   * The same key as `computeKey`, computed from scratch from the piles (the card codes are otherwise kept
   * up to date by `apply` and `undo`); for the constructor and tests.
   */
  computeKeyFull(): Uint32Array {
    const kw = this.kw;
    kw[0] = 0;
    kw[1] = 0;
    kw[2] = 0;
    kw[3] = 0;
    let k4 = 0;
    const cards = this.cards;
    for (let i = 0; i < 7; i++) {
      const l = this.len[i] as number;
      if (l === 0) continue;
      const f = this.fd[i] as number;
      const base = i * PILE_CAP;
      let prev = cards[base + f] as number;
      // code 1 for the lowest face-up card (a card id is 0 … 51, so its word `id >> 4` is 0 … 3 of `kw`)
      const w = prev >> 4;
      kw[w] = (kw[w] as number) | (1 << ((prev & 15) * 2));
      for (let k = base + f + 1; k < base + l; k++) {
        const c = cards[k] as number;
        // code 2 / 3: lies on the clubs-or-diamonds / hearts-or-spades card one rank higher
        const wc = c >> 4; // 0 … 3, as above
        kw[wc] = (kw[wc] as number) | ((prev >= 26 ? 3 : 2) << ((c & 15) * 2));
        prev = c;
      }
      k4 |= f << (3 * i);
    }
    return this.packKey(kw, k4);
  }

  // ---------- moves ----------

  /**
   * P2: a tableau top `c` that fits its foundation goes up automatically when that provably loses no win:
   * Aces and Twos always; other ranks only when foundation-to-tableau is off and both foundations of the
   * opposite colour hold the cards one rank below `c`.
   */
  isSafeAuto(c: number): boolean {
    const r = RANK_OF[c] as number;
    if (r <= 2) return true;
    const f = this.found;
    if (this.greedyAuto) {
      const red = RED_OF[c] === 1;
      const o1 = red ? (f[0] as number) : (f[1] as number);
      const o2 = red ? (f[3] as number) : (f[2] as number);
      const same = f[OTHER_SAME[SUIT_OF[c] as number] as number] as number;
      const opp = Math.min(o1, o2);
      return opp >= r - 1 || (opp >= r - 2 && same >= r - 3);
    }
    if (this.safeFoundation && this.closedSafe(c, -1)) return true; // O11
    if (this.lowFoundation) {
      // O9: every foundation holds the cards below c, so nothing can ever lie on c in a shortest line.
      const m = Math.min(f[0] as number, f[1] as number, f[2] as number, f[3] as number);
      if (r <= m + 1) return true;
    }
    if (this.rules.foundationToTableau) return false;
    if (RED_OF[c] === 1) return (f[0] as number) >= r - 1 && (f[3] as number) >= r - 1;
    return (f[1] as number) >= r - 1 && (f[2] as number) >= r - 1;
  }

  /**
   * O11: the closed foundation heights t of the position (with foundation `lowered` one card lower when it
   * is 0 … 3, else as it is), in a scratch array valid until the next call: the greatest t with t[s] ≤ the
   * height of foundation s and t[s] ≤ 1 + min(t of the two suits of the other colour) — so the cards of
   * rank ≤ t[s] of every suit s are on their foundations and every card that could lie on one of them (the
   * other colour, one rank lower) is one of them too. README.md "Minimal lines", O11.
   */
  closedHeights(lowered: number): Int8Array {
    const t = this.closed;
    for (let s = 0; s < 4; s++) t[s] = (this.found[s] as number) - (s === lowered ? 1 : 0);
    // Black suits are 0 and 3 (C, S), red ones 1 and 2 (D, H). Heights only fall, so this ends.
    for (;;) {
      const black = Math.min(t[0] as number, t[3] as number) + 1;
      const red = Math.min(t[1] as number, t[2] as number) + 1;
      let changed = false;
      for (let s = 0; s < 4; s++) {
        const cap = s === 0 || s === 3 ? red : black;
        if ((t[s] as number) > cap) {
          t[s] = cap;
          changed = true;
        }
      }
      if (!changed) return t;
    }
  }

  /**
   * O11: whether card c (rank r, suit s) would be safe on its foundation: with the closed heights t of the
   * position (foundation `lowered` one lower, see `closedHeights`), t[s] ≥ r − 1 and both suits of the
   * other colour have t ≥ r − 1 (the cards that could lie on c, and those under it, never come down in a
   * shortest line).
   */
  private closedSafe(c: number, lowered: number): boolean {
    const t = this.closedHeights(lowered);
    const r1 = (RANK_OF[c] as number) - 1;
    const red = RED_OF[c] as number;
    return (
      (t[SUIT_OF[c] as number] as number) >= r1 &&
      (t[OTHER_SUIT_1[red] as number] as number) >= r1 &&
      (t[OTHER_SUIT_2[red] as number] as number) >= r1
    );
  }

  /**
   * Appends the moves of the current position to `this.moves` from `at`; returns the end index.
   * A safe automatic move (P2), when there is one, is the only move returned.
   */
  generate(at: number): number {
    const cards = this.cards;
    const len = this.len;
    const fd = this.fd;
    const found = this.found;
    const out = this.moves;
    let n = at;
    let firstEmpty = -1;
    for (let i = 0; i < 7; i++) {
      const l = len[i] as number;
      if (l === 0) {
        if (firstEmpty < 0) firstEmpty = i;
        continue;
      }
      const c = cards[i * PILE_CAP + l - 1] as number;
      if ((found[SUIT_OF[c] as number] as number) === (RANK_OF[c] as number) - 1) {
        if (this.autoMoves && this.isSafeAuto(c)) {
          out[at] = encodeMove(K_T2F, i, 0, 0, 0);
          return at + 1;
        }
        out[n++] = encodeMove(K_T2F, i, 0, 0, 0) | (900 << 16);
      }
    }
    // P2 for the talon: with draw 1 and unlimited redeals every talon card can be reached at any time.
    if (this.autoMoves && this.talonAuto && this.freeTalon) {
      const tal = this.tal;
      for (let q = 1; q <= this.talLen; q++) {
        const c = tal[q - 1] as number;
        if ((found[SUIT_OF[c] as number] as number) === (RANK_OF[c] as number) - 1 && this.isSafeAuto(c)) {
          out[at] = encodeMove(K_W2F, 0, 0, q, q >= this.ptr ? 0 : 1);
          return at + 1;
        }
      }
    }
    // O10 (minimal search, one card per draw): the first talon card from the waste top on, in drawing
    // order, of rank ≤ the lowest foundation + 1 that fits: on the waste top it goes up as the only move;
    // deeper, no talon move reaches past it (none beyond it, none after a recycle).
    let talonCap = -1;
    if (this.autoMoves && this.lowTalon && this.drawSize() === 1) {
      const m1 = Math.min(found[0] as number, found[1] as number, found[2] as number, found[3] as number) + 1;
      const tal = this.tal;
      for (let q = Math.max(this.ptr, 1); q <= this.talLen; q++) {
        const c = tal[q - 1] as number;
        const r = RANK_OF[c] as number;
        if (
          (found[SUIT_OF[c] as number] as number) === r - 1 &&
          (r <= m1 || (this.safeFoundation && this.closedSafe(c, -1))) // O10, O11
        ) {
          if (q === this.ptr) {
            out[at] = encodeMove(K_W2F, 0, 0, q, 0);
            return at + 1;
          }
          talonCap = q;
          break;
        }
      }
    }
    // Index of the tableau tops: `topPile[c]` = the pile whose top card is c (cleared again below), so the
    // targets of a card — the two cards one rank higher of the other colour — are two look-ups.
    const topPile = this.topPile;
    for (let i = 0; i < 7; i++) {
      const l = len[i] as number;
      if (l > 0) topPile[cards[i * PILE_CAP + l - 1] as number] = i;
    }
    // Tableau to tableau (R4, R5, R7): every face-up card of a pile may head the run that moves.
    const wholePile = this.rules.wholePile;
    for (let i = 0; i < 7; i++) {
      const l = len[i] as number;
      if (l === 0) continue;
      const f = fd[i] as number;
      const faceUp = l - f;
      const base = i * PILE_CAP;
      for (let k = f; k < l; k++) {
        if (wholePile && k !== f) break;
        const count = l - k;
        const h = cards[base + k] as number;
        const r = RANK_OF[h] as number;
        if (r === 13) {
          // R7: a King-headed run; P4: only to the first empty pile; P5: never a whole pile.
          if (k === f && f > 0 && firstEmpty >= 0)
            out[n++] = encodeMove(K_T2T, i, firstEmpty, count, 0) | ((800 + f) << 16);
          continue;
        }
        // The cards one rank higher of the other colour: ids s * 13 + r for suits C, S (h red) or D, H.
        const red = RED_OF[h] as number;
        const j1 = topPile[(OTHER_SUIT_1[red] as number) * 13 + r] as number;
        const j2 = topPile[(OTHER_SUIT_2[red] as number) * 13 + r] as number;
        if (j1 < 0 && j2 < 0) continue;
        if (count < faceUp && this.twinRule) {
          // P9: a partial run leaves the face-up card y below it exposed; only worth it when y can go up.
          const y = cards[base + k - 1] as number;
          if ((found[SUIT_OF[y] as number] as number) !== (RANK_OF[y] as number) - 1) continue;
        }
        const score = count === faceUp ? (f > 0 ? 800 + f : 400) : PARTIAL_SCORE;
        if (j1 >= 0) out[n++] = encodeMove(K_T2T, i, j1, count, 0) | (score << 16);
        if (j2 >= 0) out[n++] = encodeMove(K_T2T, i, j2, count, 0) | (score << 16);
      }
    }
    // Talon (P3): every card that can be brought to the waste top by draws (and one recycle, or the last
    // pass of R16, if needed).
    const reach = this.reach;
    const k = talonReach(
      this.talLen,
      this.ptr,
      this.drawSize(),
      this.redealsLeft(),
      reach,
      this.switchMode(),
    );
    for (let x = 0; x < k; x++) {
      const e = reach[x] as number;
      const flag = e >> 5;
      if (talonCap >= 0 && (flag !== 0 || (e & 31) > talonCap)) continue; // O10
      // Ordering: the last pass gives up draw 3 for good, so its moves come after every other tableau move.
      n = this.talonMoves(n, e & 31, flag, x + (flag === FLAG_LAST_PASS ? 400 : flag * 8), firstEmpty);
    }
    // Foundation to tableau (R9).
    if (this.rules.foundationToTableau) {
      // O9: a card of rank ≤ the lowest foundation + 1 never comes down in a shortest line.
      const low = this.lowFoundation
        ? Math.min(found[0] as number, found[1] as number, found[2] as number, found[3] as number) + 1
        : 0;
      const t = this.safeFoundation ? this.closedHeights(-1) : null;
      let keep = 0; // O11: bit s set when the top of foundation s may come down
      for (let s = 0; s < 4; s++) {
        const h = found[s] as number;
        if (h > 0 && h > low && (t === null || h > (t[s] as number))) keep |= 1 << s;
      }
      if (t !== null) {
        // O11: nor a card that would be safe to send straight back up (its descent is on no shortest line).
        for (let s = 0; s < 4; s++)
          if ((keep & (1 << s)) !== 0 && this.closedSafe(s * 13 + (found[s] as number) - 1, s))
            keep &= ~(1 << s);
      }
      for (let s = 0; s < 4; s++) {
        const h = found[s] as number;
        if ((keep & (1 << s)) === 0) continue;
        if (h === 13) {
          if (firstEmpty >= 0) out[n++] = encodeMove(K_F2T, s, firstEmpty, 0, 0) | (100 << 16);
          continue;
        }
        const red = RED_OF[s * 13] as number;
        const j1 = topPile[(OTHER_SUIT_1[red] as number) * 13 + h] as number;
        const j2 = topPile[(OTHER_SUIT_2[red] as number) * 13 + h] as number;
        if (j1 < 0 && j2 < 0) continue;
        // P12: a card comes down only when, right after, something could go on it or the card below it
        // on its foundation could come down too.
        if (this.f2tRule && !this.f2tUseful(s, h)) continue;
        if (j1 >= 0) out[n++] = encodeMove(K_F2T, s, j1, 0, 0) | (100 << 16);
        if (j2 >= 0) out[n++] = encodeMove(K_F2T, s, j2, 0, 0) | (100 << 16);
      }
    }
    for (let i = 0; i < 7; i++) {
      const l = len[i] as number;
      if (l > 0) topPile[cards[i * PILE_CAP + l - 1] as number] = -1;
    }
    // Order: highest score first (insertion sort; lists are short).
    for (let x = at + 1; x < n; x++) {
      const v = out[x] as number;
      let y = x - 1;
      while (y >= at && (out[y] as number) < v) {
        out[y + 1] = out[y] as number;
        y--;
      }
      out[y + 1] = v;
    }
    for (let x = at; x < n; x++) out[x] = (out[x] as number) & 0xffff;
    return n;
  }

  private talonMoves(n: number, q: number, flag: number, cost: number, firstEmpty: number): number {
    const c = this.tal[q - 1] as number;
    const out = this.moves;
    const r = RANK_OF[c] as number;
    if ((this.found[SUIT_OF[c] as number] as number) === r - 1) {
      out[n++] = encodeMove(K_W2F, 0, 0, q, flag) | ((700 - cost) << 16);
    }
    const red = RED_OF[c] as number;
    const j1 = r === 13 ? firstEmpty : (this.topPile[(OTHER_SUIT_1[red] as number) * 13 + r] as number);
    const j2 = r === 13 ? -1 : (this.topPile[(OTHER_SUIT_2[red] as number) * 13 + r] as number);
    if (j1 < 0 && j2 < 0) return n;
    // P10 (draw 1, unlimited redeals): a talon card goes to the tableau only when a card can go on it.
    if (this.talonRule && !this.canCover(c)) return n;
    if (j1 >= 0) out[n++] = encodeMove(K_W2T, 0, j1, q, flag) | ((500 - cost) << 16);
    if (j2 >= 0) out[n++] = encodeMove(K_W2T, 0, j2, q, flag) | ((500 - cost) << 16);
    return n;
  }

  /**
   * P12: whether taking the top card c (rank `h`) of foundation `s` down to the tableau could be followed at
   * once by a move that puts a card on c, or by taking down the card under c (rank h − 1 of suit s). A
   * relaxed test (every condition that such a next move needs, not all of them): a card one rank below c of
   * the other colour is face up in the tableau, in the talon or on top of its foundation; or h ≥ 2 and a
   * card of rank h of the other colour is a tableau top.
   */
  private f2tUseful(s: number, h: number): boolean {
    if (h === 1) return false;
    const red = RED_OF[s * 13] as number;
    for (let k = 0; k < 2; k++) {
      const os = (k === 0 ? OTHER_SUIT_1[red] : OTHER_SUIT_2[red]) as number;
      const fh = this.found[os] as number;
      const x = os * 13 + h - 2; // rank h − 1 of suit os
      if (fh === h - 1) return true; // x is the top of its foundation
      if (fh < h - 1) {
        for (let q = 0; q < this.talLen; q++) if (this.tal[q] === x) return true;
        for (let i = 0; i < 7; i++) {
          const base = i * PILE_CAP;
          const l = this.len[i] as number;
          for (let k2 = this.fd[i] as number; k2 < l; k2++) if (this.cards[base + k2] === x) return true;
        }
      }
      // A tableau top of rank h of the other colour would take the card under c (rank h − 1 of suit s).
      if (this.topPile[os * 13 + h - 1] !== -1) return true;
    }
    return false;
  }

  /**
   * P10: some card could be put on `w` once `w` lies on the tableau: a card one rank lower of the other
   * colour that is face up in the tableau, in the talon, or (R9) a foundation top.
   */
  private canCover(w: number): boolean {
    const r = RANK_OF[w] as number;
    if (r === 1) return false;
    const red = RED_OF[w] as number;
    for (let s = 0; s < 4; s++) {
      const x = s * 13 + r - 2;
      if ((RED_OF[x] as number) === red) continue;
      const h = this.found[s] as number;
      if (h >= r - 1) {
        if (h === r - 1 && this.rules.foundationToTableau) return true;
        continue;
      }
      for (let q = 0; q < this.talLen; q++) if (this.tal[q] === x) return true;
      for (let i = 0; i < 7; i++) {
        const base = i * PILE_CAP;
        const l = this.len[i] as number;
        for (let k = this.fd[i] as number; k < l; k++) if (this.cards[base + k] === x) return true;
      }
    }
    return false;
  }

  /**
   * The move buffer `generate(at)` writes to, grown first so that it holds at least `at + 512` entries (the
   * minimal search keeps one list per depth in it).
   */
  moveBuffer(at: number): Int32Array {
    if (at + 512 > this.moves.length) {
      const bigger = new Int32Array(Math.max(this.moves.length * 2, at + 512));
      bigger.set(this.moves);
      this.moves = bigger;
    }
    return this.moves;
  }

  /**
   * Public moves an encoded move stands for, from the current position (before it is applied): 1 for a
   * tableau or foundation move; for a talon move (P3) its draws, the recycle or last pass (R11, R16) if
   * flagged, and the waste move itself — exactly what `toPublicLine` in index.ts expands it into.
   */
  moveCost(m: number): number {
    const kind = m & 7;
    if (kind !== K_W2F && kind !== K_W2T) return 1;
    const q = (m >> 9) & 31;
    const flag = (m >> 14) & 3;
    const L = this.talLen;
    let p = this.ptr;
    let d = this.drawSize();
    let k = 1;
    if (flag !== 0) {
      while (p < L) {
        p = Math.min(p + d, L);
        k++;
      }
      k++;
      p = 0;
      if (flag === FLAG_LAST_PASS) d = 1;
    }
    while (p !== q) {
      p = Math.min(p + d, L);
      k++;
    }
    return k;
  }

  /** The moves `generate` gives for the current position, in search order (for tests). */
  listMoves(): number[] {
    const end = this.generate(0);
    return Array.from(this.moves.subarray(0, end));
  }

  /** Applies an encoded move; returns the undo word for `undo`. */
  apply(m: number): number {
    const kind = m & 7;
    const cards = this.cards;
    switch (kind) {
      case K_T2F: {
        const i = (m >> 3) & 7;
        const l = (this.len[i] as number) - 1;
        const c = cards[i * PILE_CAP + l] as number;
        const s = SUIT_OF[c] as number; // a suit, 0 … 3: an index of `found`
        this.found[s] = (this.found[s] as number) + 1;
        this.len[i] = l;
        this.setCode(c, 0);
        if (l > 0 && l === this.fd[i]) {
          this.fd[i] = l - 1;
          this.setCode(cards[i * PILE_CAP + l - 1] as number, 1);
          return 1 | (c << 8);
        }
        return c << 8;
      }
      case K_T2T: {
        const i = (m >> 3) & 7;
        const j = (m >> 6) & 7;
        const count = (m >> 9) & 31;
        const li = this.len[i] as number;
        const lj = this.len[j] as number;
        const from = i * PILE_CAP + li - count;
        const to = j * PILE_CAP + lj;
        for (let k = 0; k < count; k++) cards[to + k] = cards[from + k] as number;
        const l = li - count;
        this.len[i] = l;
        this.len[j] = lj + count;
        this.setCode(cards[to] as number, this.codeAt(j, lj));
        if (l > 0 && l === this.fd[i]) {
          this.fd[i] = l - 1;
          this.setCode(cards[i * PILE_CAP + l - 1] as number, 1);
          return 1;
        }
        return 0;
      }
      case K_W2F:
      case K_W2T: {
        const q = (m >> 9) & 31;
        const flag = (m >> 14) & 3;
        const tal = this.tal;
        const c = tal[q - 1] as number;
        const old = this.ptr;
        for (let k = q - 1; k < this.talLen - 1; k++) tal[k] = tal[k + 1] as number;
        this.talLen--;
        this.ptr = q - 1;
        if (flag !== 0) this.recycles++; // the last pass counts as a recycle (R16)
        if (flag === FLAG_LAST_PASS) this.lastPass = 1;
        if (kind === K_W2F) {
          const s = SUIT_OF[c] as number; // a suit, 0 … 3: an index of `found`
          this.found[s] = (this.found[s] as number) + 1;
        } else {
          const j = (m >> 6) & 7;
          const lj = this.len[j] as number;
          cards[j * PILE_CAP + lj] = c;
          this.len[j] = lj + 1;
          this.setCode(c, this.codeAt(j, lj));
        }
        return old | (c << 8);
      }
      default: {
        // K_F2T
        const s = (m >> 3) & 7;
        const j = (m >> 6) & 7;
        const h = this.found[s] as number;
        const lj = this.len[j] as number;
        cards[j * PILE_CAP + lj] = s * 13 + h - 1;
        this.len[j] = lj + 1;
        this.found[s] = h - 1;
        this.setCode(s * 13 + h - 1, this.codeAt(j, lj));
        return 0;
      }
    }
  }

  /** Reverts `apply(m)`, given the undo word it returned. */
  undo(m: number, u: number): void {
    const kind = m & 7;
    const cards = this.cards;
    switch (kind) {
      case K_T2F: {
        const i = (m >> 3) & 7;
        const l = this.len[i] as number; // `i` is a pile, 0 … 6, read just above
        if ((u & 1) === 1) {
          this.fd[i] = (this.fd[i] as number) + 1;
          this.setCode(cards[i * PILE_CAP + l - 1] as number, 0);
        }
        const c = u >> 8;
        cards[i * PILE_CAP + l] = c;
        this.len[i] = l + 1;
        const s = SUIT_OF[c] as number; // a suit, 0 … 3: an index of `found`
        this.found[s] = (this.found[s] as number) - 1;
        this.setCode(c, this.codeAt(i, l));
        return;
      }
      case K_T2T: {
        const i = (m >> 3) & 7;
        const j = (m >> 6) & 7;
        const count = (m >> 9) & 31;
        const li = this.len[i] as number; // `i` is a pile, 0 … 6, read just above
        if (u === 1) {
          this.fd[i] = (this.fd[i] as number) + 1;
          this.setCode(cards[i * PILE_CAP + li - 1] as number, 0);
        }
        const lj = (this.len[j] as number) - count;
        const from = j * PILE_CAP + lj;
        const to = i * PILE_CAP + li;
        for (let k = 0; k < count; k++) cards[to + k] = cards[from + k] as number;
        this.len[i] = li + count;
        this.len[j] = lj;
        this.setCode(cards[to] as number, this.codeAt(i, li));
        return;
      }
      case K_W2F:
      case K_W2T: {
        const q = (m >> 9) & 31;
        const flag = (m >> 14) & 3;
        let c: number;
        if (kind === K_W2F) {
          c = u >> 8;
          const s = SUIT_OF[c] as number; // a suit, 0 … 3: an index of `found`
          this.found[s] = (this.found[s] as number) - 1;
        } else {
          const j = (m >> 6) & 7;
          const lj = (this.len[j] as number) - 1;
          c = cards[j * PILE_CAP + lj] as number;
          this.len[j] = lj;
          this.setCode(c, 0);
        }
        const tal = this.tal;
        for (let k = this.talLen; k > q - 1; k--) tal[k] = tal[k - 1] as number;
        tal[q - 1] = c;
        this.talLen++;
        this.ptr = u & 255;
        if (flag !== 0) this.recycles--;
        if (flag === FLAG_LAST_PASS) this.lastPass = 0;
        return;
      }
      default: {
        const s = (m >> 3) & 7;
        const j = (m >> 6) & 7;
        // `j` is a pile (0 … 6) and `s` a suit (0 … 3) of a move `generate` made.
        this.len[j] = (this.len[j] as number) - 1;
        const h = (this.found[s] as number) + 1;
        this.found[s] = h;
        this.setCode(s * 13 + h - 1, 0);
      }
    }
  }

  /** The card a move carries (before it is applied). */
  cardOfMove(m: number): number {
    switch (m & 7) {
      case K_T2F: {
        const i = (m >> 3) & 7;
        return this.cards[i * PILE_CAP + (this.len[i] as number) - 1] as number;
      }
      case K_T2T: {
        const i = (m >> 3) & 7;
        return this.cards[i * PILE_CAP + (this.len[i] as number) - ((m >> 9) & 31)] as number;
      }
      case K_W2F:
      case K_W2T:
        return this.tal[((m >> 9) & 31) - 1] as number;
      default: {
        const s = (m >> 3) & 7;
        return s * 13 + (this.found[s] as number) - 1;
      }
    }
  }

  /**
   * Depth-first search from the current position with the transposition table `seen` (P1, P11); see
   * `searchWin` in search.ts. On 'won', `path[0 .. pathLength-1]` is the line.
   */
  search(
    seen: { add(key: Uint32Array): boolean; has?(key: Uint32Array): boolean },
    stop: () => boolean,
  ): SearchOutcome {
    return searchWin(this, seen, stop, this.deadlockCheck);
  }

  /** True when `search` with `table` would group pointers (P11 on, and a `KeyTable` with values). */
  groupsPointers(table: object): boolean {
    return this.pointerDominance && table instanceof KeyTable && table.hasValues;
  }

  /** Whether P11 (talon pointer dominance) is used by this search. */
  get usesPointerDominance(): boolean {
    return this.pointerDominance;
  }
}
