/**
 * Post-pass that shortens a winning line (the daily challenge shows its length as the deal's "par").
 *
 * The engine's line is rewritten as steps that name cards ("card c to its foundation", "the run headed by
 * c onto card t", "c to an empty pile"), so that a step keeps its meaning when earlier steps are dropped.
 * Greedily, single steps and pairs of nearby steps are dropped, and talon steps are moved earlier (fewer
 * draws), whenever the result still replays to a win and the public line (draws and recycles included)
 * gets shorter. Every candidate is replayed on a fresh
 * engine with all legal moves (no pruning), and the caller replays the final line with the rules package,
 * so the pass can only ever return a valid win.
 */
import {
  Engine,
  type EnginePosition,
  FLAG_LAST_PASS,
  type EngineRules,
  K_T2F,
  K_W2F,
  K_W2T,
  PILE_CAP,
  moveFlag,
  moveN,
} from './engine.js';

/** Destination of a step: the card it goes onto, or one of these. */
const TO_FOUNDATION = -1;
const TO_EMPTY = -2;

interface Step {
  readonly card: number;
  readonly dest: number;
}

function destOf(e: Engine, m: number): number {
  const kind = m & 7;
  if (kind === K_T2F || kind === K_W2F) return TO_FOUNDATION;
  const j = (m >> 6) & 7;
  const l = e.len[j] as number;
  return l === 0 ? TO_EMPTY : (e.cards[j * PILE_CAP + l - 1] as number);
}

/** Public moves a macro move expands to: the draws (and recycle) that bring a talon card up, plus the move. */
function publicCost(e: Engine, m: number): number {
  const kind = m & 7;
  if (kind !== K_W2F && kind !== K_W2T) return 1;
  let d = e.drawSize();
  const q = moveN(m);
  let p = e.ptr;
  let cost = 1;
  if (moveFlag(m) !== 0) {
    // draws to the end, then the recycle or the last pass (after which draws turn one card, R16)
    cost += Math.ceil((e.talLen - p) / d) + 1;
    p = 0;
    if (moveFlag(m) === FLAG_LAST_PASS) d = 1;
  }
  return cost + Math.ceil((q - p) / d);
}

const NO_PRUNING = {
  autoMoves: false,
  partialRule: false,
  talonRule: false,
  deadlock: false,
  foundationRule: false,
} as const;

/** A replayed line: its engine moves, public length, and the position and length so far before each step. */
interface Replayed {
  readonly moves: number[];
  readonly cost: number;
  readonly before: EnginePosition[];
  readonly costBefore: number[];
}

/**
 * Replays `steps` from step `from` of `base` (whose first `from` steps are the same); returns null when a
 * step is illegal or the end is not won.
 */
function replay(
  rules: EngineRules,
  start: EnginePosition,
  steps: readonly Step[],
  base: Replayed | null,
  from: number,
): Replayed | null {
  const at = base === null ? 0 : from;
  const e = new Engine(rules, base === null ? start : (base.before[at] as EnginePosition), NO_PRUNING);
  const moves = base === null ? [] : base.moves.slice(0, at);
  const before = base === null ? [] : base.before.slice(0, at);
  const costBefore = base === null ? [] : base.costBefore.slice(0, at);
  let cost = base === null ? 0 : (base.costBefore[at] as number);
  for (let x = at; x < steps.length; x++) {
    const s = steps[x] as Step;
    let chosen = -1;
    for (const m of e.listMoves()) {
      if (e.cardOfMove(m) === s.card && destOf(e, m) === s.dest) {
        chosen = m;
        break;
      }
    }
    if (chosen < 0) return null;
    before.push(e.snapshot());
    costBefore.push(cost);
    cost += publicCost(e, chosen);
    moves.push(chosen);
    e.apply(chosen);
  }
  before.push(e.snapshot());
  costBefore.push(cost);
  return e.isWon() ? { moves, cost, before, costBefore } : null;
}

/**
 * A winning line from `start` that is no longer (in public moves) than `line`, found within `budgetMs`:
 * drops single steps and pairs of nearby steps, and moves talon steps earlier (fewer draws), keeping every
 * change that still wins with a shorter public line. Returns `line` itself when nothing shorter is found.
 */
export function shortenLine(
  rules: EngineRules,
  start: EnginePosition,
  line: readonly number[],
  budgetMs: number,
): number[] {
  const deadline = performance.now() + budgetMs;
  const e = new Engine(rules, start, NO_PRUNING);
  let steps: Step[] = [];
  const talonCard = new Uint8Array(52);
  for (const m of line) {
    const kind = m & 7;
    const c = e.cardOfMove(m);
    if (kind === K_W2F || kind === K_W2T) talonCard[c] = 1;
    steps.push({ card: c, dest: destOf(e, m) });
    e.apply(m);
  }
  let best = replay(rules, start, steps, null, 0);
  if (best === null) return line.slice();
  const WINDOW = 6;
  const REORDER = 12;
  const tryCandidate = (cand: Step[], from: number): boolean => {
    const r = replay(rules, start, cand, best, from);
    if (r === null || best === null || r.cost >= best.cost) return false;
    steps = cand;
    best = r;
    return true;
  };
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < steps.length; i++) {
      for (let j = i; j < Math.min(steps.length, i + WINDOW); j++) {
        if (performance.now() > deadline) return best.moves;
        if (
          tryCandidate(
            steps.filter((_, x) => x !== i && x !== j),
            i,
          )
        ) {
          improved = true;
          j = i - 1; // retry from the same i on the shorter line
        }
      }
    }
    for (let i = 1; i < steps.length; i++) {
      if (talonCard[(steps[i] as Step).card] !== 1) continue;
      for (let k = Math.max(0, i - REORDER); k < i; k++) {
        if (performance.now() > deadline) return best.moves;
        const cand = steps.slice();
        const [s] = cand.splice(i, 1);
        cand.splice(k, 0, s as Step);
        if (tryCandidate(cand, k)) {
          improved = true;
          break;
        }
      }
    }
  }
  return best.moves;
}
