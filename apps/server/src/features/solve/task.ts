/**
 * The work a solver thread does (runs inside a piscina worker, never on the event loop).
 * Tasks and results are plain structured-cloneable data.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { solve, solveMinimal } from '@klondike/solver';
import type { Card, GameAction, GameOptions, GameState, Move } from '@klondike/rules';
import { type GenerationLimits, type GenerationResult, generatePuzzles } from '../puzzles/generation.js';
import { type GameAnalysis, type TimedAction, analyseGame } from '../signals/analysis.js';
import type { SignalBudget } from '../signals/positions.js';
import type { RunningJob, SolverJob, SolverJobEvent } from './scheduler.js';

/** Environment variable set to `1` in the background pool's threads (solve/plugin.ts). */
export const BACKGROUND_THREAD_ENV = 'KLONDIKE_SOLVER_BACKGROUND';

/** The nice value of a background solver thread: the lowest CPU priority. */
export const BACKGROUND_NICE = 19;

/**
 * Lowers the CPU priority of the calling thread alone to BACKGROUND_NICE. Linux gives each thread its own
 * nice value, addressed by its thread id (`/proc/thread-self` names it); elsewhere, or when the OS refuses,
 * nothing changes and false is returned (the background lane's own threads still keep interactive jobs from
 * waiting behind background ones).
 */
export function lowerThreadPriority(): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}

if (!isMainThread && process.env[BACKGROUND_THREAD_ENV] === '1') lowerThreadPriority();

/** Solve a deal from its start (POST /api/solve). */
export interface DealTask {
  readonly kind: 'deal';
  /** 52 engine cards in deal order. */
  readonly deal: readonly Card[];
  readonly options: GameOptions;
  /** Time budget, ms (of the fallback search with `minimal`). */
  readonly timeLimitMs: number;
  /** Shorten the found line with the solver's post-pass (default true: daily par, race certification). */
  readonly shorten?: boolean;
  /** Most positions the search may generate (not with `minimal`); default unlimited. */
  readonly maxNodes?: number;
  /** Search a shortest line with `solveMinimal` (IDA*, node-limited) instead. Default false. */
  readonly minimal?: boolean;
  /** With `minimal`: the minimal search's node budget (default the solver's, 2 000 000; a cap with `minimalTimed`). */
  readonly minimalNodes?: number;
  /** With `minimal`: the minimal search checks the clock and spends `timeLimitMs` (solve/budget.ts). */
  readonly minimalTimed?: boolean;
  /** Node limits only, no clock (solve/budget.ts): the fallback of `minimal` gets `minimalNodes` positions. */
  readonly deterministic?: boolean;
}

/** Solve from a game's current position (GET /api/games/:id/hint). `state.history` is dropped (not needed). */
export interface PositionTask {
  readonly kind: 'position';
  readonly state: GameState;
  readonly timeLimitMs: number;
}

/** The fair-play signals of one finished game (signals/analysis.ts): a background job, priority `signals`. */
export interface SignalsTask {
  readonly kind: 'signals';
  /** 52 engine cards in deal order. */
  readonly deal: readonly Card[];
  readonly options: GameOptions;
  /** The game's log, every entry in order, with server times. */
  readonly log: readonly TimedAction[];
  readonly budget: SignalBudget;
}

/** The puzzles of one finished game (puzzles/generation.ts): a background job, priority `puzzles`. */
export interface PuzzlesTask {
  readonly kind: 'puzzles';
  /** 52 engine cards in deal order. */
  readonly deal: readonly Card[];
  readonly options: GameOptions;
  /** The game's actions in order (moves, undos, a resignation). */
  readonly actions: readonly GameAction[];
  readonly limits: GenerationLimits;
}

/** A solver job. */
export type SolverTask = DealTask | PositionTask | SignalsTask | PuzzlesTask;

/** A solver job's answer: the verdict, the winning line (with `won`), positions searched and time in ms. */
export interface SolverOutcome {
  readonly verdict: 'won' | 'impossible' | 'unknown';
  readonly line?: Move[];
  readonly nodes: number;
  readonly ms: number;
  /** Only for `minimal` tasks: whether `line` is proven shortest. */
  readonly optimal?: boolean;
  /** Only for `minimal` tasks: a proven lower bound on the length of any winning line. */
  readonly lowerBound?: number;
  /** Only for `signals` tasks (whose verdict is `unknown`): the game's signals. */
  readonly signals?: GameAnalysis;
  /** Only for `puzzles` tasks (whose verdict is `unknown`): the game's puzzles, null when its log does not replay. */
  readonly puzzles?: GenerationResult | null;
}

/** Runs one job. Errors: malformed input throws (the pool rejects the job's promise). */
export default function runSolverTask(task: SolverTask): SolverOutcome {
  if (task.kind === 'signals') {
    const t0 = performance.now();
    const signals = analyseGame({
      deal: task.deal,
      options: task.options,
      log: task.log,
      budget: task.budget,
    });
    return { verdict: 'unknown', nodes: signals.nodes, ms: Math.round(performance.now() - t0), signals };
  }
  if (task.kind === 'puzzles') {
    const t0 = performance.now();
    const puzzles = generatePuzzles(task.deal, task.options, task.actions, task.limits);
    return {
      verdict: 'unknown',
      nodes: puzzles?.stats.nodes ?? 0,
      ms: Math.round(performance.now() - t0),
      puzzles,
    };
  }
  if (task.kind === 'deal' && task.minimal === true) {
    const m = solveMinimal(task.deal, task.options, {
      ...(task.minimalNodes !== undefined ? { maxNodes: task.minimalNodes } : {}),
      ...(task.minimalTimed === true ? { timeLimitMs: task.timeLimitMs } : {}),
      fallback:
        task.deterministic === true
          ? {
              timeLimitMs: Infinity,
              shortenMs: 0,
              ...(task.minimalNodes !== undefined ? { maxNodes: task.minimalNodes } : {}),
            }
          : { timeLimitMs: task.timeLimitMs, ...(task.shorten === false ? { shortenMs: 0 } : {}) },
    });
    return {
      verdict: m.verdict,
      ...(m.line !== undefined ? { line: m.line } : {}),
      nodes: m.nodes,
      ms: Math.round(m.ms),
      optimal: m.optimal,
      ...(m.lowerBound !== undefined ? { lowerBound: m.lowerBound } : {}),
    };
  }
  const shorten = task.kind === 'position' || task.shorten !== false;
  const limits = {
    timeLimitMs: task.kind === 'deal' && task.deterministic === true ? Infinity : task.timeLimitMs,
    ...(shorten ? {} : { shortenMs: 0 }),
    ...(task.kind === 'deal' && task.maxNodes !== undefined ? { maxNodes: task.maxNodes } : {}),
  };
  const r =
    task.kind === 'deal'
      ? solve(task.deal, task.options, limits)
      : solve(task.state, task.state.options, limits);
  return {
    verdict: r.verdict,
    ...(r.line !== undefined ? { line: r.line } : {}),
    nodes: r.nodes,
    ms: Math.round(r.ms),
  };
}

/**
 * The solver's worker pool as the domain modules use it (the `solver` plugin provides it; tests may pass
 * their own).
 */
export interface SolverPool {
  /**
   * Runs a task on a worker thread, queued by `job` (solve/scheduler.ts: priority, then arrival; default
   * priority `solve`). Errors: ApiError `solver-busy` when the queue or the client's share is full.
   */
  run(task: SolverTask, job?: SolverJob): Promise<SolverOutcome>;
  /** Jobs waiting for a thread, both lanes. */
  readonly queued: number;
  /** Background jobs waiting for a thread. */
  readonly queuedBackground: number;
  /** The jobs running now (priority, lane, label, ms so far), oldest first. */
  running(): RunningJob[];
  /** Calls `listener` at every job's start and end (tests, the first-start benchmark); returns its stop. */
  observe(listener: (e: SolverJobEvent) => void): () => void;
  /** Worker threads alive now (0 when idle: they start on demand and end after SOLVER_IDLE_MS without a job). */
  readonly threads: number;
  /** True when the last thread that was started failed to start (readiness: not ready). */
  readonly failed: boolean;
}
