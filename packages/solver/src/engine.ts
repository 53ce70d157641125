/**
 * The search engine: a compact mutable position (board.ts), macro moves played in place (play.ts) and
 * generated under the pruning rules (generate.ts), exact position keys, and an iterative depth-first search
 * with a transposition table (search.ts). Internal to the package; `index.ts` is the public API.
 *
 * Cards use the rules package's ids: `suit * 13 + rank - 1`, suits C, D, H, S (D and H red).
 *
 * Every pruning rule used here is listed, with its proof, in the package README ("Pruning rules");
 * the comments name them P1 … P12.
 *
 * Typed arrays are read as `a[i] as number` throughout: every index is in range by construction (a pile
 * 0 … 6 decoded from a move the engine generated, a suit 0 … 3, a card id 0 … 51, a height within
 * `PILE_CAP`), and a guard in the search's inner loops would cost speed.
 */
import { deadlocked } from './deadlock.js';
import { MoveGenerator } from './generate.js';
import { searchWin } from './search.js';
import { KeyTable } from './table.js';

export * from './moves.js';
export type { EnginePosition, EngineRules, EngineTuning, SearchOutcome } from './model.js';
import type { EnginePosition, EngineRules, EngineTuning, SearchOutcome } from './model.js';

/**
 * The mutable position plus the search. One instance per search; not re-entrant.
 */
export class Engine extends MoveGenerator {
  private readonly deadlockCheck: boolean;
  /** P11: draw 3, unlimited redeals, no last pass (R16), pointer keyed under P7. */
  private readonly pointerDominance: boolean;
  // Search stacks.
  /** The current line: the move applied at each depth. */
  path = new Int32Array(1024);
  /** Length of `path` once `search` returned 'won'. */
  pathLength = 0;
  /** Positions generated (moves applied), including those already in the table. */
  nodes = 0;

  /** A search from `start` under `rules`, with the pruning rules of `tuning` (defaults: what `solve` uses). */
  constructor(rules: EngineRules, start: EnginePosition, tuning: EngineTuning = {}) {
    super(rules, start, tuning);
    this.deadlockCheck = tuning.deadlock ?? true;
    this.pointerDominance =
      (tuning.pointerDominance ?? true) &&
      rules.draw === 3 &&
      rules.redealLimit < 0 &&
      rules.finalSinglePass !== true &&
      start.lastPass !== true &&
      !this.exactPointer;
  }

  /** P8: the static impossibility certificate (`deadlocked` in deadlock.ts). */
  deadlocked(): boolean {
    return deadlocked(this);
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
