/**
 * The engine's move generation: the moves of the current position in search order, with the pruning rules
 * that decide which are offered (P2 … P5, P9, P10, P12 of README.md "Pruning rules"; O9 … O11 of "Minimal
 * lines"). Internal to the package; typed-array reads as in engine.ts.
 */
import {
  FLAG_LAST_PASS as FLAG_LAST_PASS_,
  K_F2T as K_F2T_,
  K_T2F as K_T2F_,
  K_T2T as K_T2T_,
  K_W2F as K_W2F_,
  K_W2T as K_W2T_,
  OTHER_SAME as OTHER_SAME_,
  OTHER_SUIT_1 as OTHER_SUIT_1_,
  OTHER_SUIT_2 as OTHER_SUIT_2_,
  PARTIAL_SCORE as PARTIAL_SCORE_,
  PILE_CAP as PILE_CAP_,
  RANK_OF as RANK_OF_,
  RED_OF as RED_OF_,
  SUIT_OF as SUIT_OF_,
  encodeMove as encodeMove_,
  talonReach as talonReach_,
} from './moves.js';
import type { EnginePosition, EngineRules, EngineTuning } from './model.js';
import { PlayBoard } from './play.js';

// Local copies of what moves.ts exports: the hot loops read a constant of this module, not an imported live
// binding, which V8 reads several percent slower when the solver runs from its sources (tsx, tests); the
// bundle the server runs is the same either way (BENCHMARKS.md "Issue 56").
const FLAG_LAST_PASS = FLAG_LAST_PASS_;
const K_F2T = K_F2T_;
const K_T2F = K_T2F_;
const K_T2T = K_T2T_;
const K_W2F = K_W2F_;
const K_W2T = K_W2T_;
const OTHER_SAME = OTHER_SAME_;
const OTHER_SUIT_1 = OTHER_SUIT_1_;
const OTHER_SUIT_2 = OTHER_SUIT_2_;
const PARTIAL_SCORE = PARTIAL_SCORE_;
const PILE_CAP = PILE_CAP_;
const RANK_OF = RANK_OF_;
const RED_OF = RED_OF_;
const SUIT_OF = SUIT_OF_;
const encodeMove = encodeMove_;
const talonReach = talonReach_;

/** A `PlayBoard` that lists its moves under the search's pruning rules (set by the tuning). */
export class MoveGenerator extends PlayBoard {
  private readonly autoMoves: boolean;
  private readonly greedyAuto: boolean;
  private readonly twinRule: boolean;
  private readonly talonRule: boolean;
  /** P12: foundation cards come down only when something could follow (used where P10 is off). */
  private readonly f2tRule: boolean;
  private readonly talonAuto: boolean;
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
  private readonly reach = new Int32Array(64);
  /** `generate`'s index of tableau tops: the pile whose top is card c, else −1. */
  private readonly topPile = new Int8Array(52).fill(-1);
  /** The move lists `generate` writes, one after another (grown by `moveBuffer`). */
  private moves = new Int32Array(1 << 14);

  /** The pruning rules of `tuning` (defaults: what `solve` uses) on the position `start` under `rules`. */
  constructor(rules: EngineRules, start: EnginePosition, tuning: EngineTuning = {}) {
    super(rules, start, tuning);
    this.autoMoves = tuning.autoMoves ?? true;
    this.greedyAuto = tuning.greedyAuto ?? false;
    this.twinRule = tuning.partialRule ?? true;
    this.talonAuto = tuning.talonAuto ?? true;
    this.lowFoundation = tuning.lowFoundation ?? false;
    this.lowTalon = tuning.lowTalon ?? false;
    this.safeFoundation = tuning.safeFoundation ?? false;
    // P7, P10 and the talon part of P2 rely on every talon card being reachable at any time: not after R16.
    const freeTalon = rules.draw === 1 && rules.redealLimit < 0 && start.lastPass !== true;
    this.talonRule = (tuning.talonRule ?? true) && freeTalon;
    this.f2tRule = (tuning.foundationRule ?? true) && !this.talonRule;
    this.freeTalon = freeTalon;
  }

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

  /** The moves `generate` gives for the current position, in search order (for tests). */
  listMoves(): number[] {
    const end = this.generate(0);
    return Array.from(this.moves.subarray(0, end));
  }
}
