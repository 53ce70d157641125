/**
 * A* search for a shortest winning line under the project's move counting: every public move counts one
 * (`draw`, `recycle`, `last-pass`, a run move of any length, a foundation move). It searches the rules
 * package's own positions with `legalMoves` / `applyMove` — no macro moves and none of the engine's pruning
 * rules P2, P3, P9, P10 (they keep wins but not shortest lines) — so the only reductions are the ones proven
 * to keep optimality in README.md "Minimal lines" (M1 exact keys, M2 pile symmetry).
 */
import { type Card, type GameState, type Move, applyMove, isWon, legalMoves } from '@klondike/rules';

/** Result of the A* search alone (see `solveMinimal` in index.ts for the public answer). */
export interface AStarResult {
  /** `won`: `line` is a shortest line; `exhausted`: no win exists; `aborted`: a limit was reached. */
  readonly outcome: 'won' | 'exhausted' | 'aborted';
  /** Only with `won`: a shortest winning line of public moves. */
  readonly line?: Move[];
  /**
   * A proven lower bound on the number of public moves of any winning line from the start: the line's
   * length when `won`, otherwise the least f = g + h over the positions still open (≥ h(start)).
   */
  readonly lowerBound: number;
  /** Positions generated (children built with `applyMove`). */
  readonly nodes: number;
  /** Distinct positions stored. */
  readonly states: number;
}

const ch = (c: Card): string => String.fromCharCode(48 + c);

/**
 * The search key of a position (M1, M2 in README.md): tableau, foundations, stock, waste, the last-pass flag
 * and — with limited redeals only — the recycles made. Move counter, score and history are left out: they
 * do not change which moves are legal. Piles without face-down cards are sorted (M2, pile symmetry).
 */
export function minimalKey(state: GameState): string {
  const fixed: string[] = [];
  const free: string[] = [];
  for (const pile of state.tableau) {
    let s = '';
    for (const c of pile.cards) s += ch(c);
    if (pile.faceDown > 0) fixed.push(`${pile.faceDown}${s}`);
    else {
      fixed.push('*');
      free.push(s);
    }
  }
  free.sort();
  let stock = '';
  for (const c of state.stock) stock += ch(c);
  let waste = '';
  for (const c of state.waste) waste += ch(c);
  const recycles = state.options.redeals === null ? '' : String(state.recycles);
  return `${fixed.join('|')}/${free.join('|')}/${state.foundations.join(',')}/${stock}/${waste}/${
    state.lastPass ? 1 : 0
  }/${recycles}`;
}

/**
 * Admissible and consistent lower bound h on the public moves still needed to win (README.md "Minimal
 * lines", H1 + H2): every card not on its foundation needs its own foundation move (R8: one card per move),
 * and every stock card must be turned to the waste by a draw (R10), each draw turning at most `draw` cards
 * (3 under draw 3 before the last pass, else 1). Every move lowers h by at most 1.
 */
export function minimalBound(state: GameState): number {
  let home = 0;
  for (const f of state.foundations) home += f;
  const perDraw = state.options.draw === 3 && !state.lastPass ? 3 : 1;
  return 52 - home + Math.ceil(state.stock.length / perDraw);
}

/** A binary min-heap of node ids ordered by a numeric priority. */
class Heap {
  private ids: number[] = [];
  private pri: number[] = [];
  get size(): number {
    return this.ids.length;
  }
  push(id: number, p: number): void {
    const ids = this.ids;
    const pri = this.pri;
    let i = ids.length;
    ids.push(id);
    pri.push(p);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((pri[parent] as number) <= p) break;
      ids[i] = ids[parent] as number;
      pri[i] = pri[parent] as number;
      i = parent;
    }
    ids[i] = id;
    pri[i] = p;
  }
  peekPriority(): number {
    return this.pri[0] as number;
  }
  pop(): number {
    const ids = this.ids;
    const pri = this.pri;
    const top = ids[0] as number;
    const lastId = ids.pop() as number;
    const lastP = pri.pop() as number;
    const n = ids.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && (pri[r] as number) < (pri[l] as number) ? r : l;
        if ((pri[c] as number) >= lastP) break;
        ids[i] = ids[c] as number;
        pri[i] = pri[c] as number;
        i = c;
      }
      ids[i] = lastId;
      pri[i] = lastP;
    }
    return top;
  }
}

/** Priority: f first, then deeper (larger g) first; g < 1024 always (a line never has 1024 moves here). */
const priority = (f: number, g: number): number => f * 1024 + (1023 - g);

/**
 * A* from `start` (a position that is neither won nor resigned) with the bound of `minimalBound`.
 * Stops with `aborted` once `maxNodes` children were generated or `maxStates` positions are stored.
 * Pure apart from its own memory; no clock (verdicts depend only on the limits).
 */
export function aStarMinimal(start: GameState, maxNodes: number, maxStates: number): AStarResult {
  const states: GameState[] = [start];
  const parent: number[] = [-1];
  const via: (Move | null)[] = [null];
  const g: number[] = [0];
  const best = new Map<string, number>([[minimalKey(start), 0]]);
  const closed = new Set<string>();
  const heap = new Heap();
  const h0 = minimalBound(start);
  heap.push(0, priority(h0, 0));
  let nodes = 0;
  const lineTo = (id: number): Move[] => {
    const out: Move[] = [];
    for (let x = id; parent[x] !== -1; x = parent[x] as number) out.push(via[x] as Move);
    return out.reverse();
  };
  while (heap.size > 0) {
    const id = heap.pop();
    const s = states[id] as GameState;
    const gs = g[id] as number;
    const key = minimalKey(s);
    if (closed.has(key) || (best.get(key) as number) < gs) continue;
    if (isWon(s)) return { outcome: 'won', line: lineTo(id), lowerBound: gs, nodes, states: best.size };
    if (nodes >= maxNodes || best.size >= maxStates) {
      // The popped node had the least f of all open nodes; with a consistent h it bounds the optimum.
      const f = gs + minimalBound(s);
      return { outcome: 'aborted', lowerBound: Math.max(h0, f), nodes, states: best.size };
    }
    closed.add(key);
    for (const m of legalMoves(s)) {
      const r = applyMove(s, m);
      if (!r.ok) continue;
      nodes++;
      const child = r.value;
      const ck = minimalKey(child);
      if (closed.has(ck)) continue;
      const cg = gs + 1;
      const old = best.get(ck);
      if (old !== undefined && old <= cg) continue;
      best.set(ck, cg);
      const cid = states.length;
      // Keep only what the search needs: the history would pin every ancestor in memory.
      states.push({ ...child, history: null });
      parent.push(id);
      via.push(m);
      g.push(cg);
      heap.push(cid, priority(cg + minimalBound(child), cg));
    }
  }
  return { outcome: 'exhausted', lowerBound: Infinity, nodes, states: best.size };
}
