/**
 * Playing the engine's encoded moves (moves.ts) on a `Board`: apply and undo in place (keeping the key's card
 * codes up to date), the card a move carries and the public moves it stands for. Internal to the package;
 * typed-array reads as in engine.ts.
 */
import { Board } from './board.js';
import {
  FLAG_LAST_PASS as FLAG_LAST_PASS_,
  K_T2F as K_T2F_,
  K_T2T as K_T2T_,
  K_W2F as K_W2F_,
  K_W2T as K_W2T_,
  PILE_CAP as PILE_CAP_,
  SUIT_OF as SUIT_OF_,
} from './moves.js';

// Local copies of what moves.ts exports: the hot loops read a constant of this module, not an imported live
// binding, which V8 reads several percent slower when the solver runs from its sources (tsx, tests); the
// bundle the server runs is the same either way (BENCHMARKS.md "Issue 56").
const FLAG_LAST_PASS = FLAG_LAST_PASS_;
const K_T2F = K_T2F_;
const K_T2T = K_T2T_;
const K_W2F = K_W2F_;
const K_W2T = K_W2T_;
const PILE_CAP = PILE_CAP_;
const SUIT_OF = SUIT_OF_;

/** A `Board` that plays encoded moves. */
export class PlayBoard extends Board {
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
}
