/**
 * The minimal search on the engine (README.md "Minimal lines", O1 … O13): IDA* over the engine's compact
 * position and stock macro moves (P3), each move weighted by the public moves it stands for, with the
 * admissible, consistent bound of `BoundModel` and a packed transposition table (`KeyTable`) that keeps,
 * per position, a learned lower bound on the moves still needed and the depth of its last visit.
 *
 * Only reductions that keep a shortest public line are used: P2 for tableau cards (the exchange never
 * adds a move), P3 (draw blocks are rewritten without changing their length), P4–P6 (pile renaming), P8 at
 * the root (a proof that no win exists), P9 (O7: its counterpart line trades the pruned move for at most
 * one tableau move), O9 (no shortest line takes a card of rank ≤ the lowest foundation down, so such
 * low cards go up and stay up), O10 (one card per draw: talon moves stop at the first low talon card
 * that fits) and O11 (the same per suit, with the closed foundation heights of `Engine.closedHeights`). Not P7 (the pointer is keyed exactly: it decides the draws), not P10, P11 and not the talon
 * part of P2 (their exchanges change the draws a line needs).
 */
import {
  Engine,
  type EnginePosition,
  type EngineRules,
  K_T2F,
  K_T2T,
  K_W2T,
  PILE_CAP,
  RANK_OF,
  SUIT_OF,
  moveKind,
} from './engine.js';
import { KeyTable } from './table.js';

/** Positions per pile height and suit in `BoundModel`'s tables. */
const H = 8;
/** Rows of `BoundModel`'s memo of H6 + H7 (a power of two). */
const CYCLE_BITS = 14;
const CYCLE_MEMO = 1 << CYCLE_BITS;
/**
 * O12: the next threshold is the least one at which the children cut by the last iteration (counted by how
 * far their f exceeded its threshold) number at least this share of the positions it generated.
 */
const CUT_SHARE = 0.5;
/** O12: most a threshold rises above the last one (a larger rise risks a long branch-and-bound pass). */
const MAX_JUMP = 5;
/** "No win from here": a stored bound that never lets a position be expanded again. */
const INF = 4095;

/**
 * The lower bound h of the minimal search (README.md "Minimal lines", H1–H7), for positions reached from
 * one start position. Precomputes, from the start's face-down cards (which never change below the
 * face-down count), which face-down cards lie above a lower card of their own suit.
 */
export class BoundModel {
  /** `fdBlockers[i * H + f]`: face-down cards among heights 0 … f−1 of pile i lying above a lower card of their suit. */
  private readonly fdBlockers = new Int8Array(7 * H);
  /** `minBelow[(i * H + f) * 4 + s]`: lowest rank of suit s among heights 0 … f−1 of pile i (14 = none). */
  private readonly minBelow = new Int8Array(7 * H * 4);
  private readonly suitMin = new Int8Array(4);
  /** `fdBlocker[i * H + k]`: the start card at height k of pile i lies above a lower card of its suit. */
  private readonly fdBlocker = new Uint8Array(7 * H);
  /** Pile (−1: none) and height of each card face down at the start (face-down cards never move). */
  private readonly locPile = new Int8Array(52);
  private readonly locPos = new Int8Array(52);
  // Scratch for H6.
  private readonly lvCard = new Int8Array(32);
  private readonly lvPile = new Int8Array(32);
  private readonly lvPos = new Int8Array(32);
  private readonly lowNeed = new Int8Array(32 * 7);
  private readonly matched = new Uint8Array(32);
  private readonly up = new Int8Array(7);
  private readonly free = new Uint8Array(7);
  private readonly canHome = new Int8Array(4);
  /**
   * Exact memo of H6 + H7 (`cyclePairs`), direct-mapped, `CYCLE_MEMO` rows of 2 words: the state word
   * (face-down counts, 3 bits per pile, bits 0-20; the H4 flag of each pile, bits 21-27) and the
   * foundations word (4 bits per suit, bits 0-15) with the value in bits 16-23; −1 = empty row. H6 + H7
   * depend on nothing else (README.md "Minimal lines", H6), so a hit returns exactly what they compute.
   */
  private readonly memo = new Int32Array(CYCLE_MEMO * 2).fill(-1);
  /** Use H6 (the two-pile cycles). */
  readonly cycles: boolean;

  /**
   * @param e an engine at the start position of the search.
   * @param cycles add H6 (default true; tests compare against the bound without it)
   */
  constructor(e: Engine, cycles = true) {
    this.cycles = cycles;
    this.locPile.fill(-1);
    for (let i = 0; i < 7; i++) {
      const base = i * PILE_CAP;
      for (let k = 0; k < (e.fd[i] as number); k++) {
        this.locPile[e.cards[base + k] as number] = i;
        this.locPos[e.cards[base + k] as number] = k;
      }
    }
    this.minBelow.fill(14);
    for (let i = 0; i < 7; i++) {
      const f0 = e.fd[i] as number;
      const base = i * PILE_CAP;
      let blockers = 0;
      for (let f = 1; f <= f0; f++) {
        const c = e.cards[base + f - 1] as number;
        const below = (i * H + f - 1) * 4;
        const here = (i * H + f) * 4;
        for (let s = 0; s < 4; s++) this.minBelow[here + s] = this.minBelow[below + s] as number;
        const s = SUIT_OF[c] as number;
        const r = RANK_OF[c] as number;
        if ((this.minBelow[below + s] as number) < r) {
          blockers++;
          this.fdBlocker[i * H + f - 1] = 1;
        } else this.minBelow[here + s] = r;
        this.fdBlockers[i * H + f] = blockers;
      }
    }
  }

  /**
   * h of the engine's current position: (H1) cards not on their foundations + (H2) draws the stock needs
   * + (H3) face-down cards above a lower card of their suit + (H4) per pile, 1 when a face-up card lies
   * above a face-down lower card of its suit + (H5) waste cards above a lower card of their suit (divided by
   * the cards per draw, rounded up) + (H6) disjoint pairs of leavers in two piles waiting for each other
   * + (H7) 1 when the other leavers still wait in a ring. Admissible (H1–H5 also consistent): see the README.
   */
  bound(e: Engine): number {
    const found = e.found;
    let h = 52 - (found[0] as number) - (found[1] as number) - (found[2] as number) - (found[3] as number);
    const d = e.drawSize();
    const stock = e.talLen - e.ptr;
    h += d === 1 ? stock : Math.ceil(stock / d);
    const m = this.suitMin;
    m.fill(14);
    let waste = 0;
    for (let j = 0; j < e.ptr; j++) {
      const c = e.tal[j] as number;
      const s = SUIT_OF[c] as number;
      const r = RANK_OF[c] as number;
      if ((m[s] as number) < r) waste++;
      else m[s] = r;
    }
    if (d === 1) h += waste;
    else {
      // H5 for the stock's draw groups of this pass: the next draws bring fixed groups of d cards, each card
      // of a group onto the one drawn before it, with no move in between.
      for (let g = e.ptr; g < e.talLen; g += d) {
        const end = Math.min(g + d, e.talLen);
        for (let j = g + 1; j < end; j++) {
          const c = e.tal[j] as number;
          for (let i = g; i < j; i++) {
            const b = e.tal[i] as number;
            if (SUIT_OF[b] === SUIT_OF[c] && (RANK_OF[b] as number) < (RANK_OF[c] as number)) {
              waste++;
              break;
            }
          }
        }
      }
      // Each such card goes to the tableau (one move each) or waits for a recycle (one move) and a new draw;
      // the deepest one that waits still lies on its lower card then, which is redrawn too (at most d
      // cards per draw).
      if (waste > 0) h += Math.min(waste, 1 + Math.ceil((waste + 1) / d));
    }
    let nl = 0;
    let shape = 0;
    const lvCard = this.lvCard;
    const lvPile = this.lvPile;
    const lvPos = this.lvPos;
    for (let i = 0; i < 7; i++) {
      const l = e.len[i] as number;
      const f = e.fd[i] as number;
      if (f === 0) continue;
      h += this.fdBlockers[i * H + f] as number;
      const base = i * PILE_CAP;
      const mb = (i * H + f) * 4;
      let faceUpBlocker = false;
      for (let k = f; k < l; k++) {
        const c = e.cards[base + k] as number;
        if ((RANK_OF[c] as number) > (this.minBelow[mb + (SUIT_OF[c] as number)] as number)) {
          h++;
          faceUpBlocker = true;
          break;
        }
      }
      if (!this.cycles) continue;
      shape |= (f << (3 * i)) | (faceUpBlocker ? 1 << (21 + i) : 0);
      // H6 leavers: cards at heights 1 … f not already counted by H3 / H4.
      for (let k = 1; k <= f; k++) {
        if (k < f ? this.fdBlocker[i * H + k] === 1 : faceUpBlocker) continue;
        lvCard[nl] = e.cards[base + k] as number;
        lvPile[nl] = i;
        lvPos[nl] = k;
        nl++;
      }
    }
    if (nl >= 2) {
      // H6 + H7 are a function of the face-down counts, the H4 flags and the foundations (the leavers are
      // start cards fixed by the counts and flags): look them up before computing them.
      const heights =
        (found[0] as number) |
        ((found[1] as number) << 4) |
        ((found[2] as number) << 8) |
        ((found[3] as number) << 12);
      const row = ((Math.imul(shape ^ (heights << 11), 0x9e3779b1) >>> 0) >>> (32 - CYCLE_BITS)) * 2;
      const memo = this.memo;
      if (memo[row] === shape && ((memo[row + 1] as number) & 0xffff) === heights) {
        h += (memo[row + 1] as number) >>> 16;
      } else {
        const c = this.cyclePairs(e, nl);
        memo[row] = shape;
        memo[row + 1] = heights | (c << 16);
        h += c;
      }
    }
    return h;
  }

  /**
   * H6: the number of disjoint pairs of leavers (cards that must leave their pile as its lowest face-up
   * card before the card below turns up) in two different piles, each of which can only go to its
   * foundation after the other has left (each needs a lower card of its suit that lies face down below the
   * other). One of each pair must leave by a tableau move.
   */
  private cyclePairs(e: Engine, nl: number): number {
    // Face-down cards never move: a start face-down card is still face down while its height is below its
    // pile's face-down count.
    const locPile = this.locPile;
    const locPos = this.locPos;
    const lowNeed = this.lowNeed;
    lowNeed.fill(99, 0, nl * 7);
    for (let x = 0; x < nl; x++) {
      const c = this.lvCard[x] as number;
      const s = SUIT_OF[c] as number;
      const home = e.found[s] as number;
      const pile = this.lvPile[x] as number;
      for (let r = home + 1; r < (RANK_OF[c] as number); r++) {
        const y = s * 13 + r - 1;
        const j = locPile[y] as number;
        if (j < 0 || j === pile) continue;
        const m = locPos[y] as number;
        if (m >= (e.fd[j] as number)) continue;
        if (m < (lowNeed[x * 7 + j] as number)) lowNeed[x * 7 + j] = m;
      }
    }
    const matched = this.matched;
    matched.fill(0, 0, nl);
    let pairs = 0;
    for (let x = 0; x < nl; x++) {
      if (matched[x] === 1) continue;
      const px = this.lvPile[x] as number;
      const kx = this.lvPos[x] as number;
      for (let y = x + 1; y < nl; y++) {
        if (matched[y] === 1) continue;
        const py = this.lvPile[y] as number;
        if (py === px) continue;
        if (
          (this.lvPos[y] as number) > (lowNeed[x * 7 + py] as number) &&
          kx > (lowNeed[y * 7 + px] as number)
        ) {
          matched[x] = 1;
          matched[y] = 1;
          pairs++;
          break;
        }
      }
    }
    return pairs + (this.stuck(e, nl) ? 1 : 0);
  }

  /**
   * H7: whether, with every H3/H4 card and every leaver of an H6 pair allowed to leave by a tableau move,
   * the other leavers still cannot all leave by foundation moves. Fixpoint, per pile from the top down (a
   * leaver leaves after the leavers above it): a leaver leaves when it is allowed a tableau move, or when its
   * foundation can reach the rank below it — every lower card of its suit is on its foundation, in the talon
   * or face up (relaxed: assumed reachable), or face down below leavers that have all left.
   */
  private stuck(e: Engine, nl: number): boolean {
    const up = this.up;
    const free = this.free;
    for (let i = 0; i < 7; i++) {
      const f = e.fd[i] as number;
      up[i] = f > 0 ? f + 1 : 0;
      free[i] = 0xff; // every height may leave by a tableau move…
    }
    for (let x = 0; x < nl; x++) {
      // …except the leavers not in an H6 pair
      if (this.matched[x] === 0) {
        const pile = this.lvPile[x] as number; // a leaver's pile, 0 … 6: an index of `free`
        free[pile] = (free[pile] as number) & ~(1 << (this.lvPos[x] as number));
      }
    }
    const canHome = this.canHome;
    const locPile = this.locPile;
    const locPos = this.locPos;
    let changed = true;
    while (changed) {
      changed = false;
      for (let s = 0; s < 4; s++) {
        let r = e.found[s] as number;
        while (r < 13) {
          const c = s * 13 + r;
          const j = locPile[c] as number;
          if (j >= 0 && (up[j] as number) > (locPos[c] as number) + 1) break;
          r++;
        }
        canHome[s] = r;
      }
      for (let i = 0; i < 7; i++) {
        const u = up[i] as number;
        if (u <= 1) continue;
        const k = u - 1;
        const c = e.cards[i * PILE_CAP + k] as number;
        if (
          ((free[i] as number) & (1 << k)) !== 0 ||
          (canHome[SUIT_OF[c] as number] as number) >= (RANK_OF[c] as number) - 1
        ) {
          up[i] = k;
          changed = true;
        }
      }
    }
    for (let i = 0; i < 7; i++) if ((up[i] as number) > 1) return true;
    return false;
  }
}

/** Result of `optimalSearch`. */
export interface OptimalResult {
  /** `won`: `path` is a shortest line; `exhausted`: no win exists; `aborted`: a limit was reached. */
  readonly outcome: 'won' | 'exhausted' | 'aborted';
  /**
   * The engine moves (expand with `toPublicLine`) of a shortest line with `won`; with `aborted`, of the
   * cheapest line an unfinished branch-and-bound iteration (O12) had found, when it had: a winning line,
   * not proven shortest (an upper bound).
   */
  readonly path?: number[];
  /** A proven lower bound on the public moves of every winning line (the line's length when `won`). */
  readonly lowerBound: number;
  /** Positions generated (moves applied), over all iterations. */
  readonly nodes: number;
  /** Positions in the table at the end. */
  readonly states: number;
  /** Most bytes the table's arrays held. */
  readonly tableBytes: number;
  /** IDA* iterations run (thresholds tried). */
  readonly iterations: number;
}

// Table value: bits 0-11 the learned bound (INF = no win), bits 12-21 g of the last visit, 22-31 the
// iteration of that visit (+1, so 0 = never visited).
const packValue = (b: number, g: number, it: number): number => (b | (g << 12) | (it << 22)) >>> 0;

/**
 * Settings of `optimalSearch`. Every switch defaults to on; tests turn one off to compare the search with and
 * without it (same minimum, more positions).
 */
export interface OptimalOptions {
  /** w of f = g + w·h (default 1: the proof; above 1: the weighted passes of O6). */
  readonly weight?: number;
  /**
   * Polled every 4096 positions; when it returns true the search stops as at a limit (a CPU budget for
   * benchmarks; the bound reached is still proven). Default: never.
   */
  readonly stop?: () => boolean;
  /** O7: P9, partial runs only to free a foundation card. */
  readonly partialRule?: boolean;
  /** O9: cards of rank ≤ the lowest foundation + 1 go up automatically and never come down. */
  readonly lowFoundation?: boolean;
  /** O10: one card per draw, talon moves stop at the first low talon card that fits. */
  readonly lowTalon?: boolean;
  /** O11: O9 and O10 with the closed foundation heights of `Engine.closedHeights`. */
  readonly safeFoundation?: boolean;
  /**
   * O12: thresholds may rise by more than the least f above the last one, and an iteration that finds a
   * line searches on, depth first, for a cheaper one only. Only with `weight` 1.
   */
  readonly jumps?: boolean;
  /** O13: a position is stored only when it is expanded; a cut child is looked up, never inserted. */
  readonly leaves?: boolean;
}

/**
 * IDA* for a shortest winning line in public moves (README.md "Minimal lines"). Thresholds start at h of
 * the start and rise at least to the least f that exceeded the last one (O12: by up to 5 when few children
 * were cut close above it); an iteration that finds a line keeps it and searches on, depth first, for a
 * cheaper one only (branch and bound), so the line kept when it finishes is shortest. Within an iteration
 * a position already visited at the same or a smaller depth is not searched again, and after a position's
 * subtree fails its stored bound rises to the least (cost + bound) of its moves. Once the table holds
 * `maxStates` positions, new ones are searched without being stored. Stops with `aborted` after `maxNodes`
 * positions; the least f above the last finished iteration (h of the start before one finished) is then a
 * proven lower bound, and a line an unfinished iteration found is returned as an upper bound. No clock:
 * answers depend only on the limits.
 *
 * @param rules the rules of the search; the caller guarantees the last pass (R16) is not on offer (its
 *   macro moves skip targets that draws reach, which is not length-preserving).
 * @param maxNodes most positions generated (moves applied) over all iterations
 * @param maxStates most positions the table stores (its memory: ~28 bytes each)
 * @param options weight, stop, and the switches of `OptimalOptions` (all on by default)
 */
export function optimalSearch(
  rules: EngineRules,
  start: EnginePosition,
  maxNodes: number,
  maxStates: number,
  options: OptimalOptions = {},
): OptimalResult {
  const weight = options.weight ?? 1;
  const stop = options.stop ?? ((): boolean => false);
  const partialRule = options.partialRule ?? true;
  const lowFoundation = options.lowFoundation ?? true;
  const lowTalon = options.lowTalon ?? true;
  const safeFoundation = options.safeFoundation ?? true;
  const jumps = options.jumps ?? true;
  const leaves = options.leaves ?? true;
  const e = new Engine(rules, start, {
    partialRule, // O7: P9 keeps a shortest line
    talonRule: false,
    foundationRule: false, // P12 is not used by the minimal search
    talonAuto: false,
    exactPointer: true,
    lowFoundation, // O9
    lowTalon, // O10
    safeFoundation, // O11
  });
  const empty = { nodes: 0, states: 0, tableBytes: 0, iterations: 0 };
  if (e.isWon()) return { outcome: 'won', path: [], lowerBound: 0, ...empty };
  if (e.deadlocked()) return { outcome: 'exhausted', lowerBound: INF, ...empty };
  const model = new BoundModel(e);
  // Grows 4× at a time: each growth re-inserts every entry, and proofs store millions.
  const table = new KeyTable(e.keyWidth, maxStates, true, 4);
  const h0 = model.bound(e);
  let nodes = 0;
  let iter = 0;
  let threshold = weight === 1 ? h0 : Math.floor(weight * h0);
  let next = INF;
  let aborted = false;
  const path: number[] = [];
  const FOUND = -1;
  /** Every line costs at least this: the start's h, then the least f above the last finished iteration. */
  let proven = threshold;
  /** Cost of the line that ended the search with FOUND. */
  let foundCost = INF;
  /** O12: the moves on the current path, by depth. */
  const cur: number[] = [];
  /** O12: the cheapest line found in this iteration (weight 1), and its cost. */
  let bestLine: number[] | null = null;
  let bestCost = INF;
  /** O12: children cut in this iteration, by how far their f exceeded the threshold (1 … 63). */
  const cut = new Float64Array(64);

  /** Searches below the current position (depth `g`, list storage from `at`); returns FOUND or a bound. */
  const dfs = (g: number, at: number, lastCard: number, depth: number): number => {
    let moves = e.moveBuffer(at);
    const end = e.generate(at);
    let best = INF;
    for (let x = at; x < end; x++) {
      const m = moves[x] as number;
      const c = e.moveCost(m);
      const kind = moveKind(m);
      // O4: the card the last move put on the tableau is not moved again (as a run's head) right away.
      const wasteful = lastCard >= 0 && (kind === K_T2T || kind === K_T2F) && e.cardOfMove(m) === lastCard;
      const placed = kind === K_T2T || kind === K_W2T ? e.cardOfMove(m) : -1;
      const u = e.apply(m);
      nodes++;
      const cg = g + c;
      if (e.isWon()) {
        if (cg <= threshold && (weight !== 1 || cg <= proven)) {
          // Weighted passes take the first line; a proof stops at a line as cheap as the proven bound.
          foundCost = cg;
          path.push(m);
          e.undo(m, u);
          return FOUND;
        }
        if (cg <= threshold) {
          // O12: keep the line and search on for a cheaper one only.
          bestLine = cur.slice(0, depth);
          bestLine.push(m);
          bestCost = cg;
          threshold = cg - 1;
        } else if (cg < next) next = cg;
        if (c < best) best = c;
        e.undo(m, u);
        continue;
      }
      // O13: a position is stored when it is expanded, not when it is cut (a cut position's learned bound is
      // its h until it is expanded). Once the table is full new positions are searched without being stored
      // (no skip of a repeat, no learned bound kept): slower, never wrong.
      const key = e.computeKey();
      let slot = leaves || table.full ? table.find(key) : table.insert(key);
      const fresh = leaves || table.full ? slot < 0 : table.inserted;
      let v = fresh ? model.bound(e) : table.value(slot);
      let b = v & 4095;
      if (fresh && slot >= 0) table.setValue(slot, b);
      const f = weight === 1 ? cg + b : Math.floor(cg + weight * b);
      if (wasteful) {
        // Not searched, but its bound still counts towards this position's learned bound (which must hold
        // for every path to it).
      } else if (f > threshold) {
        if (f < next) next = f;
        const over = f - threshold;
        if (over < 64) cut[over] = (cut[over] as number) + 1;
      } else if (!fresh && v >>> 22 === iter && ((v >>> 12) & 1023) <= cg) {
        // Visited in this iteration at the same or a smaller depth: searched already (or on the path).
      } else {
        if (slot < 0 && !table.full) slot = table.insert(key);
        if (slot >= 0) table.setValue(slot, packValue(b, cg, iter));
        const growths = table.growths;
        cur[depth] = m;
        const r = dfs(cg, end, placed, depth + 1);
        moves = e.moveBuffer(at); // the buffer may have grown below
        if (r === FOUND) {
          path.push(m);
          e.undo(m, u);
          return FOUND;
        }
        if (aborted) {
          e.undo(m, u);
          return 0;
        }
        if (r > b) {
          b = r;
          if (slot >= 0) {
            if (table.growths !== growths) slot = table.find(e.computeKey()); // it moved the entries
            v = table.value(slot);
            table.setValue(slot, ((v & ~4095) | b) >>> 0);
          }
        }
      }
      if (c + b < best) best = Math.min(INF, c + b);
      e.undo(m, u);
      if (nodes >= maxNodes || ((nodes & 4095) === 0 && stop())) {
        aborted = true;
        return 0;
      }
    }
    return best;
  };

  table.insert(e.computeKey());
  for (;;) {
    iter++;
    if (iter >= 1024 || threshold >= 1023) break;
    next = INF;
    cut.fill(0);
    const root = table.insert(e.computeKey());
    table.setValue(root, packValue(h0, 0, iter));
    const n0 = nodes;
    const r = dfs(0, 0, -1, 0);
    const stats = { nodes, states: table.size, tableBytes: table.peakBytes, iterations: iter };
    if (r === FOUND) return { outcome: 'won', path: path.reverse(), lowerBound: foundCost, ...stats };
    if (aborted)
      return {
        outcome: 'aborted',
        lowerBound: proven,
        ...(bestLine !== null ? { path: bestLine } : {}),
        ...stats,
      };
    // O12: the iteration finished with every line of cost below bestCost excluded.
    if (bestLine !== null) return { outcome: 'won', path: bestLine, lowerBound: bestCost, ...stats };
    if (next >= INF) return { outcome: 'exhausted', lowerBound: INF, ...stats };
    proven = next;
    // O12: skip thresholds while the positions they would add are few against those re-walked.
    const grew = nodes - n0;
    let jump = 1;
    if (weight === 1 && jumps) {
      let sum = 0;
      for (jump = 1; jump < MAX_JUMP; jump++) {
        sum += cut[jump] as number;
        if (sum >= CUT_SHARE * grew) break;
      }
    }
    threshold = Math.max(next, threshold + jump);
  }
  return {
    outcome: 'aborted',
    lowerBound: proven,
    nodes,
    states: table.size,
    tableBytes: table.peakBytes,
    iterations: iter,
  };
}
