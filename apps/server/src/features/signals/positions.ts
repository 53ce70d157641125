/**
 * The positions of a played game and a budget-limited, cached solver over them: what the solver-dependent
 * signals (solver-agreement.ts, hidden-knowledge.ts) share. Pure (no I/O, no clock).
 */
import {
  type Deal,
  type GameOptions,
  type GameState,
  type Move,
  applyMove,
  canAutoComplete,
  newGame,
  undo,
} from '@klondike/rules';
import { solve } from '@klondike/solver';

/** One entry of a game's log as the signals read it: a move (public notation), an undo or a resignation. */
export type LoggedAction =
  { readonly kind: 'move'; readonly move: Move } | { readonly kind: 'undo' } | { readonly kind: 'resign' };

/** One move of the played line: the position it was made from and the one it led to. */
export interface PlayedMove {
  /** Index of the entry in the game's log (0-based). */
  readonly index: number;
  readonly before: GameState;
  readonly move: Move;
  readonly after: GameState;
  /** The move was made from an auto-completable position (rules R15). */
  readonly auto: boolean;
}

/**
 * The moves of a game's log, each with its positions, replaying undos. An entry the rules refuse ends the
 * replay there (a log is the server's own record, so this does not happen; the signals then cover the
 * moves before it).
 */
export function playedMoves(deal: Deal, options: GameOptions, log: readonly LoggedAction[]): PlayedMove[] {
  let state = newGame(deal, options);
  const out: PlayedMove[] = [];
  for (let index = 0; index < log.length; index++) {
    const entry = log[index] as LoggedAction;
    if (entry.kind === 'resign') break;
    if (entry.kind === 'undo') {
      const r = undo(state);
      if (!r.ok) break;
      state = r.value;
      continue;
    }
    const r = applyMove(state, entry.move);
    if (!r.ok) break;
    out.push({ index, before: state, move: entry.move, after: r.value, auto: canAutoComplete(state) });
    state = r.value;
  }
  return out;
}

/**
 * A text that is equal for two states exactly when they are the same position for the rest of the game:
 * the cards of every pile (face-down counts included), the stock, the waste, the redeals taken and the last
 * pass. Score and move count are not part of it.
 */
export function positionKey(s: GameState): string {
  const piles = s.tableau.map((p) => `${p.faceDown}:${p.cards.join(',')}`).join('|');
  return `${piles}/${s.foundations.join(',')}/${s.stock.join(',')}/${s.waste.join(',')}/${s.recycles}/${s.lastPass ? 1 : 0}`;
}

/** The same move in the public notation. */
export function sameMove(a: Move, b: Move): boolean {
  if (a.type !== 'move' || b.type !== 'move') return a.type === b.type;
  return a.from === b.from && a.to === b.to && a.count === b.count;
}

/** A verdict of the budget-limited solver from one position, with full knowledge of the hidden cards. */
export type Verdict =
  | { readonly verdict: 'won'; readonly line: readonly Move[] }
  | { readonly verdict: 'impossible' | 'unknown' };

/** Budgets of the solver-dependent signals of one game. */
export interface SignalBudget {
  /** Most positions one solve may generate. */
  readonly nodesPerSolve: number;
  /** Most solves for the solver agreement of one game. */
  readonly agreementSolves: number;
  /** Most solves for the hidden-knowledge score of one game. */
  readonly hiddenSolves: number;
}

/**
 * Default budgets: about 4 ms a solve on one core; at most 220 solves a game, most games far fewer (a
 * position is solved once, and only positions with two turn-up piles or more are scored).
 */
export const DEFAULT_SIGNAL_BUDGET: SignalBudget = {
  nodesPerSolve: 20_000,
  agreementSolves: 20,
  hiddenSolves: 200,
};

/** Solves positions with a node budget, remembering each verdict by position (one game's analysis). */
export class PositionSolver {
  private readonly cache = new Map<string, Verdict>();
  /** Solves run (cached answers not counted). */
  solves = 0;
  /** Positions the solves generated. */
  nodes = 0;

  constructor(private readonly nodesPerSolve: number) {}

  /** The verdict from `state` (cached by `positionKey`). */
  verdict(state: GameState): Verdict {
    const key = positionKey(state);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const r = solve(state, state.options, { maxNodes: this.nodesPerSolve, shortenMs: 0, maxStates: 200_000 });
    this.solves++;
    this.nodes += r.nodes;
    const v: Verdict = r.verdict === 'won' ? { verdict: 'won', line: r.line ?? [] } : { verdict: r.verdict };
    this.cache.set(key, v);
    return v;
  }

  /** The cached verdict from `state`, if any. */
  known(state: GameState): Verdict | undefined {
    return this.cache.get(positionKey(state));
  }

  /** Records a verdict found otherwise (the rest of a winning line from a later position). */
  remember(state: GameState, v: Verdict): void {
    const key = positionKey(state);
    if (!this.cache.has(key)) this.cache.set(key, v);
  }
}
