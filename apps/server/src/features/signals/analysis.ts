/**
 * The signals of one finished game from its deal, options and timed log: what the `signals` solver task
 * computes on a worker thread (solve/task.ts), never on the event loop. Pure.
 */
import type { Deal, GameOptions } from '@klondike/rules';
import { hiddenKnowledge } from './hidden-knowledge.js';
import {
  DEFAULT_SIGNAL_BUDGET,
  type LoggedAction,
  PositionSolver,
  type SignalBudget,
  playedMoves,
} from './positions.js';
import { solverAgreement } from './solver-agreement.js';
import { thinkTime } from './think-time.js';
import type { SignalsForFlags } from './thresholds.js';

/** A logged action with its server time (ms since the epoch). */
export type TimedAction = LoggedAction & { readonly at: number };

/** What the analysis of one game needs. */
export interface GameToAnalyse {
  readonly deal: Deal;
  readonly options: GameOptions;
  /** The game's log, every entry, in order. */
  readonly log: readonly TimedAction[];
  /** Solver budgets (default DEFAULT_SIGNAL_BUDGET); `false` skips the solver-dependent signals. */
  readonly budget?: SignalBudget | false;
}

/** The computed signals of one game (GameSignals without its identity, flags and time). */
export interface GameAnalysis extends SignalsForFlags {
  /** Moves counted for the think-time profile (auto-completion moves not counted). */
  readonly moves: number;
  /** Null: no verdict (or the solver-dependent signals were skipped). */
  readonly solverAgreement: number | null;
  /** Hits expected without hidden knowledge (hidden-knowledge.ts). */
  readonly expectedHits: number;
  /** Solves run and positions they generated. */
  readonly solves: number;
  readonly nodes: number;
}

/** The solver-dependent part of a game's signals when none was computed (no budget, or times only). */
export const NO_SOLVER_SIGNALS = {
  solverAgreement: null,
  agreementMoves: 0,
  hiddenChoices: 0,
  hiddenHits: 0,
  expectedHits: 0,
  solves: 0,
  nodes: 0,
} as const satisfies Omit<GameAnalysis, 'moves' | 'medianGapMs' | 'fastShare' | 'gapVariation'>;

/** Computes the signals of one game (see the module comment). */
export function analyseGame(game: GameToAnalyse): GameAnalysis {
  const played = playedMoves(game.deal, game.options, game.log);
  const at = new Map<number, number>();
  game.log.forEach((e, i) => at.set(i, e.at));
  const time = thinkTime(played.map((p) => ({ at: at.get(p.index) ?? 0, auto: p.auto })));
  const budget = game.budget === undefined ? DEFAULT_SIGNAL_BUDGET : game.budget;
  if (budget === false) return { ...time, ...NO_SOLVER_SIGNALS };
  const solver = new PositionSolver(budget.nodesPerSolve);
  const agreement = solverAgreement(played, solver, budget.agreementSolves);
  const hidden = hiddenKnowledge(played, solver, budget.hiddenSolves);
  return {
    ...time,
    solverAgreement: agreement.agreement,
    agreementMoves: agreement.counted,
    ...hidden,
    solves: solver.solves,
    nodes: solver.nodes,
  };
}
