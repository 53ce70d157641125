/**
 * A finished game's review (docs/review.md), pure: the played line rebuilt from the log, the point of no
 * return found by a binary search over it, and accuracy. The solver is a function passed in (`Verdicts`), so
 * this file knows no thread, clock or database.
 *
 * Winnability only falls along a line: a position from which the deal can be won was reached from positions
 * that could be won too. So the positions after 0…n moves read "winnable" up to some ply and "lost" after it,
 * and a binary search finds the point of no return with O(log n) verdicts.
 */
import {
  type Deal,
  type GameAction,
  type GameOptions,
  type GameState,
  type Move,
  applyAction,
  newGame,
} from '@klondike/rules';

/** One solver verdict: `won` (winnable, with a winning `line`), `impossible`, or `unknown` (budget). */
export interface Verdict {
  readonly verdict: 'won' | 'impossible' | 'unknown';
  readonly line?: readonly Move[];
}

/** Asks the solver about one position (full knowledge of the deal). */
export type Verdicts = (state: GameState) => Promise<Verdict>;

/** The played line: the moves that stand after every undo, and the position after each (`states[k]` after k). */
export interface PlayedLine {
  readonly moves: readonly Move[];
  /** `moves.length + 1` positions: the start, then after each move. */
  readonly states: readonly GameState[];
}

/**
 * Rebuilds the played line from a deal, its options and its log (moves, undos, a resign). An undo takes the
 * last standing move off the line; a resign ends it. Errors: null when an action does not apply (a log that
 * does not belong to this deal).
 */
export function playedLine(
  deal: Deal,
  options: GameOptions,
  actions: readonly GameAction[],
): PlayedLine | null {
  let state = newGame(deal, options);
  const states: GameState[] = [state];
  const moves: Move[] = [];
  for (const action of actions) {
    if (action.type === 'resign') break;
    const next = applyAction(state, action);
    if (!next.ok) return null;
    state = next.value;
    if (action.type === 'move') {
      moves.push(action.move);
      states.push(state);
    } else if (moves.length > 0) {
      moves.pop();
      states.pop();
    }
  }
  return { moves, states };
}

/** The outcome of a review's search. */
export interface ReviewSearch {
  /** Whether the start could be won; null: unknown. */
  readonly winnableAtStart: boolean | null;
  /** 1-based ply of the move after which the deal was lost, or null (see GameReviewSchema). */
  readonly pointOfNoReturn: number | null;
  /** The last winnable ply of a lost game and a winning line from it, or null. */
  readonly lastWinnable: { readonly ply: number; readonly line: readonly Move[] } | null;
  /** Verdicts by ply 1…n: true, false or null (unknown), inferred between the searched plies. */
  readonly winnable: readonly (boolean | null)[];
  /** Moves of the solver's winning line from the start, or null. */
  readonly par: number | null;
  /** False when an unknown verdict stopped the search. */
  readonly decided: boolean;
  /** Verdicts asked. */
  readonly solverCalls: number;
}

/** How many neighbouring plies the search tries when a verdict is unknown, before it gives up. */
const UNKNOWN_PROBES = 3;

/**
 * Searches the played line of a game (`won`: the game was won) for its point of no return (see the module
 * comment). A won game needs one verdict (its par); a lost one the start's and the end's, then about
 * log2(n) more. An unknown verdict is never guessed: the search tries up to UNKNOWN_PROBES plies beside it,
 * then stops with `decided` false and the plies between its bounds unknown.
 */
export async function searchLine(line: PlayedLine, won: boolean, verdictOf: Verdicts): Promise<ReviewSearch> {
  const n = line.moves.length;
  let calls = 0;
  const known = new Map<number, Verdict>();
  const ask = async (ply: number): Promise<Verdict> => {
    const cached = known.get(ply);
    if (cached) return cached;
    calls++;
    const v = await verdictOf(line.states[ply] as GameState);
    known.set(ply, v);
    return v;
  };
  const start = await ask(0);
  const par = start.verdict === 'won' && start.line ? start.line.length : null;
  const winnableAtStart = start.verdict === 'unknown' ? null : start.verdict === 'won';
  const fill = (lastTrue: number, firstFalse: number): (boolean | null)[] =>
    Array.from({ length: n }, (_, i) => (i + 1 <= lastTrue ? true : i + 1 >= firstFalse ? false : null));
  if (won) {
    return {
      winnableAtStart: true,
      pointOfNoReturn: null,
      lastWinnable: null,
      winnable: fill(n, n + 1),
      par,
      decided: true,
      solverCalls: calls,
    };
  }
  if (winnableAtStart === false) {
    return {
      winnableAtStart,
      pointOfNoReturn: null,
      lastWinnable: null,
      winnable: fill(-1, 1),
      par,
      decided: true,
      solverCalls: calls,
    };
  }
  const end = await ask(n);
  if (end.verdict === 'won') {
    // Resigned (or stopped) while the deal could still be won.
    return {
      winnableAtStart: true,
      pointOfNoReturn: null,
      lastWinnable: { ply: n, line: end.line ?? [] },
      winnable: fill(n, n + 1),
      par,
      decided: true,
      solverCalls: calls,
    };
  }
  if (winnableAtStart === null || end.verdict === 'unknown') {
    return {
      winnableAtStart,
      pointOfNoReturn: null,
      lastWinnable: null,
      winnable: fill(0, n + 1),
      par,
      decided: false,
      solverCalls: calls,
    };
  }
  // Invariant: `lo` winnable, `hi` lost.
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    let probe: number | null = null;
    let v: Verdict | null = null;
    for (const p of probesAround(mid, lo, hi)) {
      const answer = await ask(p);
      if (answer.verdict !== 'unknown') {
        probe = p;
        v = answer;
        break;
      }
    }
    if (probe === null || v === null) {
      return {
        winnableAtStart,
        pointOfNoReturn: null,
        lastWinnable: null,
        winnable: fill(lo, hi),
        par,
        decided: false,
        solverCalls: calls,
      };
    }
    if (v.verdict === 'won') lo = probe;
    else hi = probe;
  }
  const last = known.get(lo);
  return {
    winnableAtStart,
    pointOfNoReturn: hi,
    lastWinnable: { ply: lo, line: last?.line ?? [] },
    winnable: fill(lo, hi),
    par,
    decided: true,
    solverCalls: calls,
  };
}

/** `mid`, then its neighbours strictly inside (lo, hi), nearest first, at most 1 + UNKNOWN_PROBES plies. */
function probesAround(mid: number, lo: number, hi: number): number[] {
  const out = [mid];
  for (let d = 1; out.length <= UNKNOWN_PROBES && (mid - d > lo || mid + d < hi); d++) {
    if (mid + d < hi) out.push(mid + d);
    if (out.length <= UNKNOWN_PROBES && mid - d > lo) out.push(mid - d);
  }
  return out.slice(0, 1 + UNKNOWN_PROBES);
}

/**
 * Accuracy 0–100 (docs/review.md "Accuracy"), the same for everyone:
 * - a win: 100 × par / moves, at most 100 (a win in par or fewer moves scores 100);
 * - a loss of a winnable deal: 100 × how far along a winning road the player got before leaving it,
 *   `lastWinnable.ply / (lastWinnable.ply + its winning line's length)`;
 * - null when it cannot be measured: a deal lost from the start, an undecided search, a win without a par.
 */
export function accuracyOf(search: ReviewSearch, won: boolean, moves: number): number | null {
  if (won) {
    if (search.par === null) return null;
    return moves === 0 ? 100 : Math.min(100, Math.round((100 * search.par) / moves));
  }
  const last = search.lastWinnable;
  if (last === null || !search.decided) return null;
  const road = last.ply + last.line.length;
  return road === 0 ? 0 : Math.round((100 * last.ply) / road);
}
