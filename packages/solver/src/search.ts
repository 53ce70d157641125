/**
 * The verdict search of `solve`: an iterative depth-first search over the engine's moves with a
 * transposition table (P1) and, under draw 3 with unlimited redeals, talon pointer dominance (P11).
 * Every pruning rule it relies on is listed, with its proof, in README.md "Pruning rules".
 */
import type { SearchOutcome } from './model.js';
import { KeyTable } from './table.js';

/**
 * P11 masks over keyed pointers (bit q = pointer q): `DOMINATORS[p]` for a keyed pointer p ≥ 1 (not a
 * multiple of 3) holds p − 3, p − 6, … ≥ 1; `CLASS0_DOMINATORS[L]` for P7's class 0 (multiples of 3 and the
 * end of a talon of L cards) holds every other pointer 1 … L − 1.
 */
const DOMINATORS: Int32Array = Int32Array.from({ length: 32 }, (_, p) => {
  let m = 0;
  for (let q = p - 3; q >= 1; q -= 3) m |= 1 << q;
  return p === 0 ? 0 : m;
});
const CLASS0_DOMINATORS: Int32Array = Int32Array.from({ length: 32 }, (_, L) => {
  let m = 0;
  for (let q = 1; q < L; q++) if (q % 3 !== 0) m |= 1 << q;
  return m;
});

/** The engine operations the search uses (`Engine` in engine.ts). */
export interface SearchEngine {
  readonly key: Uint32Array;
  readonly talLen: number;
  readonly usesPointerDominance: boolean;
  path: Int32Array;
  pathLength: number;
  nodes: number;
  groupsPointers(table: object): boolean;
  computeKey(): Uint32Array;
  isWon(): boolean;
  deadlocked(): boolean;
  moveBuffer(at: number): Int32Array;
  generate(at: number): number;
  apply(m: number): number;
  undo(m: number, u: number): void;
}

/** A set of exact keys (P1): `add` returns false when the key was already in it. */
export interface SeenSet {
  add(key: Uint32Array): boolean;
  has?(key: Uint32Array): boolean;
}

/**
 * Depth-first search from the engine's current position with the transposition table `seen` (P1). The
 * root must already be in `seen`. `stop()` is polled every 1024 new positions; when it returns true the
 * search ends with 'aborted'. On 'won', `e.path[0 .. e.pathLength-1]` is the line and the engine is left at
 * the won position. `deadlockCheck`: apply P8 at the root.
 */
export function searchWin(
  e: SearchEngine,
  seen: SeenSet,
  stop: () => boolean,
  deadlockCheck: boolean,
): SearchOutcome {
  const dominance = e.usesPointerDominance && seen.has !== undefined;
  // P11 with one table entry per position without its pointer (`pointerGroups`): one probe per node.
  const groups = seen instanceof KeyTable && e.groupsPointers(seen) ? seen : null;
  if (groups !== null) {
    e.computeKey();
    seenGrouped(e, groups);
  }
  if (e.isWon()) {
    e.pathLength = 0;
    return 'won';
  }
  if (deadlockCheck && e.deadlocked()) return 'exhausted';
  let listStart = new Int32Array(1024);
  let listEnd = new Int32Array(1024);
  let listIdx = new Int32Array(1024);
  let undoInfo = new Int32Array(1024);
  let sinceCheck = 0;
  let moves = e.moveBuffer(0);
  let d = 0;
  listStart[0] = 0;
  listEnd[0] = e.generate(0);
  listIdx[0] = 0;
  for (;;) {
    const idx = listIdx[d] as number;
    if (idx >= (listEnd[d] as number)) {
      if (d === 0) return 'exhausted';
      d--;
      e.undo(e.path[d] as number, undoInfo[d] as number);
      continue;
    }
    listIdx[d] = idx + 1;
    const m = moves[idx] as number;
    const u = e.apply(m);
    e.nodes++;
    const key = e.computeKey();
    // P11: a position whose talon pointer is dominated by a stored one is not searched (nor stored).
    if (
      groups !== null
        ? seenGrouped(e, groups)
        : (dominance && dominated(e, seen as { has(key: Uint32Array): boolean })) || !seen.add(key)
    ) {
      e.undo(m, u);
      continue;
    }
    e.path[d] = m;
    undoInfo[d] = u;
    if (e.isWon()) {
      e.pathLength = d + 1;
      return 'won';
    }
    if (++sinceCheck >= 1024) {
      sinceCheck = 0;
      if (stop()) return 'aborted';
    }
    d++;
    if (d >= e.path.length) {
      const n = e.path.length * 2;
      const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(n);
        b.set(a);
        return b;
      };
      listStart = grow(listStart);
      listEnd = grow(listEnd);
      listIdx = grow(listIdx);
      undoInfo = grow(undoInfo);
      e.path = grow(e.path);
    }
    const start = listEnd[d - 1] as number;
    moves = e.moveBuffer(start);
    listStart[d] = start;
    listIdx[d] = start;
    listEnd[d] = e.generate(start);
  }
}

/**
 * P1 + P11 with a grouped table (`pointerGroups`): `table` holds one entry per position without its
 * talon pointer (the pointer bits of key word 3 cleared), whose value is the set of keyed pointers (P7)
 * visited, one bit each. Returns true when the current position (`e.key` must hold its key) was visited
 * or is dominated by a visited pointer (P11); otherwise records its pointer and returns false. The same
 * set of (position, pointer) pairs as `dominated` + `add` on full keys, in one probe.
 */
function seenGrouped(e: SearchEngine, table: KeyTable): boolean {
  const key = e.key;
  const k3 = key[3] as number;
  const p = (k3 >>> 24) & 31;
  key[3] = (k3 & ~(31 << 24)) >>> 0;
  const slot = table.insert(key);
  key[3] = k3;
  const mask = table.value(slot);
  const bit = 1 << p;
  const dom = p === 0 ? (CLASS0_DOMINATORS[e.talLen] as number) : (DOMINATORS[p] as number);
  if ((mask & (bit | dom)) !== 0) return true;
  table.setValue(slot, (mask | bit) >>> 0);
  return false;
}

/**
 * P11 (draw 3, unlimited redeals, no last pass): whether `seen` holds the current position with a talon
 * pointer that reaches every waste top the current pointer reaches (`e.key` must hold the current key; it
 * is restored). Pointer p (keyed, 1 … L−1, not a multiple of 3) is dominated by p − 3, p − 6, … ≥ 1; the
 * pointer class 0 (multiples of 3 and the end, P7) by every other pointer.
 */
function dominated(e: SearchEngine, seen: { has(key: Uint32Array): boolean }): boolean {
  const key = e.key;
  const k3 = key[3] as number;
  const p = (k3 >>> 24) & 31;
  const clear = (k3 & ~(31 << 24)) >>> 0;
  let hit = false;
  if (p === 0) {
    for (let q = 1; q < e.talLen && !hit; q++) {
      if (q % 3 === 0) continue;
      key[3] = (clear | (q << 24)) >>> 0;
      hit = seen.has(key);
    }
  } else {
    for (let q = p - 3; q >= 1 && !hit; q -= 3) {
      key[3] = (clear | (q << 24)) >>> 0;
      hit = seen.has(key);
    }
  }
  key[3] = k3;
  return hit;
}
