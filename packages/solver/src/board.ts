/**
 * The engine's mutable position and its exact key: seven piles in one array with lengths and face-down
 * counts, four foundation heights, the talon with its pointer (README.md "How it searches"), and the 2-bit
 * card codes of the key (P1), which `PlayBoard.apply` / `undo` (play.ts) keep up to date. Internal to the
 * package: `Engine` (engine.ts) builds on it; typed-array reads as explained there.
 *
 * Cards use the rules package's ids: `suit * 13 + rank - 1`, suits C, D, H, S (D and H red).
 */
import {
  PILE_CAP as PILE_CAP_,
  SWITCH_ALL as SWITCH_ALL_,
  SWITCH_NONE as SWITCH_NONE_,
  SWITCH_UNREACHED as SWITCH_UNREACHED_,
} from './moves.js';
import type { EnginePosition, EngineRules, EngineTuning } from './model.js';

// Local copies of what moves.ts exports: the hot loops read a constant of this module, not an imported live
// binding, which V8 reads several percent slower when the solver runs from its sources (tsx, tests); the
// bundle the server runs is the same either way (BENCHMARKS.md "Issue 56").
const PILE_CAP = PILE_CAP_;
const SWITCH_ALL = SWITCH_ALL_;
const SWITCH_NONE = SWITCH_NONE_;
const SWITCH_UNREACHED = SWITCH_UNREACHED_;

/** A position the engine searches from: its cards, talon, redeals and key. One per search. */
export class Board {
  readonly rules: EngineRules;
  protected readonly exactPointer: boolean;
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
  // Key scratch.
  readonly keyWidth: number;
  readonly key: Uint32Array;
  private readonly kw = new Uint32Array(4);
  /**
   * The 2-bit card codes of the key (words 0-3, `computeKey`), kept up to date by `apply` and `undo` so that
   * a key costs no walk over the piles.
   */
  private readonly kc = new Uint32Array(4);

  /** Reads `start` under `rules`; of `tuning`, only `exactPointer` matters here (the key's pointer, P7). */
  constructor(rules: EngineRules, start: EnginePosition, tuning: EngineTuning = {}) {
    this.rules = rules;
    this.exactPointer = tuning.exactPointer ?? false;
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
    this.key = new Uint32Array(this.keyWidth);
    this.computeKeyFull();
    this.kc.set(this.kw);
  }

  /** Sets the 2-bit key code of card `c` (0 = not a face-up tableau card; see `computeKey`). */
  protected setCode(c: number, v: number): void {
    const w = c >> 4;
    const sh = (c & 15) * 2;
    this.kc[w] = ((this.kc[w] as number) & ~(3 << sh)) | (v << sh);
  }

  /** The key code of the face-up card at height `k` of pile `i`: 1 when lowest face-up, else what it lies on. */
  protected codeAt(i: number, k: number): number {
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

  protected redealsLeft(): boolean {
    if (this.lastPass === 1) return false; // R16: no redeal after the last pass
    const limit = this.rules.redealLimit;
    return limit < 0 || this.recycles < limit;
  }

  /** Cards a draw turns now: one after the last pass (R16), else the rules' draw (R10). */
  drawSize(): number {
    return this.lastPass === 1 ? 1 : this.rules.draw;
  }

  /** How `talonReach` offers the last pass (R16) from the current position. */
  protected switchMode(): number {
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
}
