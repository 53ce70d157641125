/**
 * Daily deals, in two steps so that a day can be published within moments of being needed:
 * 1. **Certify** (`certifyDaily`): candidate k of a date and preset is the deal of algorithm v2 (rules
 *    package `dealFromKey`) whose 256-bit key is HMAC-SHA256(secret, `${date}|${preset}|${k}`); the daily
 *    is the first candidate the solver wins within CERTIFY_NODES positions (a node budget, so the choice
 *    does not depend on the machine's load; unknown or impossible → next k). Its par is the length of that
 *    winning line, shortened: an upper bound, not proven.
 * 2. **Refine par** (`refinePar`, background): the minimal search (`solveMinimal`, node-limited) either
 *    proves a line shortest (`parProven`) or returns its best line with a proven lower bound; the shorter of
 *    that and the stored line is kept, after replaying it with the rules package to a win.
 */
import type { DailyPreset } from '@klondike/protocol';
import { type Deal, type Move, PRESETS, applyMove, formatDeal, isWon, newGame } from '@klondike/rules';
import { ApiError } from '../../infra/errors.js';
import { dailyCandidateKey, dealOfKey } from '../../core/rooms/keyed-deals.js';
import type { DailyWorkPriority } from '../solve/scheduler.js';
import type { DealTask, SolverOutcome, SolverPool } from '../solve/task.js';

export type { DailyPreset };

/** Most candidates tried for one daily before giving up (never reached in practice: ~80 % are proven wins). */
export const MAX_CANDIDATES = 200;

/** The deal of candidate `k` of a daily (v2, keyed by HMAC-SHA256(secret, `date|preset|k`)) and its key. */
export function candidateDeal(
  secret: string,
  date: string,
  preset: DailyPreset,
  k: number,
): { deal: Deal; key: string } {
  const key = dailyCandidateKey(secret, date, preset, k);
  return { deal: dealOfKey(key), key };
}

/** A generated daily, ready to store. */
export interface GeneratedDaily {
  readonly date: string;
  readonly preset: DailyPreset;
  /** 52 card codes in deal order. */
  readonly deal: string;
  /** The v2 key (hex) it was dealt from: secret. */
  readonly dealKey: string;
  readonly candidate: number;
  readonly par: number;
  /** Whether `par` is proven to be the fewest moves of any winning line. */
  readonly parProven: boolean;
  /** A proven lower bound on the moves of any winning line (= par when proven); null when none came back. */
  readonly parLowerBound: number | null;
  readonly line: Move[];
}

/** Node budget of a daily's par proof per ms of `timeLimitMs` up to PAR_SCALE_MS (see `parNodes`). */
export const MINIMAL_NODES_PER_MS = 1000;
/** Above this `timeLimitMs` (ms) the par proof's node budget grows with its cube (see `parNodes`). */
export const PAR_SCALE_MS = 300;
/**
 * Most positions of a daily's par proof: ~30 s of one core. Its table holds up to an eighth of them (solver
 * `solveMinimal`: the positions it expands), ~28 bytes each: up to ~0.21 GB while the proof runs (~0.31 GB
 * for a moment while the table grows to that size).
 */
export const PAR_MAX_NODES = 60_000_000;

/**
 * Default node budget of the minimal search of `refinePar` for a solver time of `timeLimitMs` (ms):
 * `MINIMAL_NODES_PER_MS × timeLimitMs × max(1, timeLimitMs / PAR_SCALE_MS)²`, at most PAR_MAX_NODES. Each
 * further move of proven lower bound costs a proof more positions, so a budget that proves most dailies'
 * par is large — PAR_MAX_NODES from a `timeLimitMs` of ~1 750 on, so at the default DAILY_SOLVE_MS of 3 000
 * (solver BENCHMARKS.md "Issue 44") — while a short `timeLimitMs` keeps the background refinement short
 * (tests: 300 ms, 300 000 positions).
 */
export function parNodes(timeLimitMs: number): number {
  const scale = Math.max(1, timeLimitMs / PAR_SCALE_MS);
  return Math.min(PAR_MAX_NODES, Math.round(MINIMAL_NODES_PER_MS * timeLimitMs * scale * scale));
}

/**
 * Positions the certifying search of one candidate may generate: most winnable deals are won within a few
 * thousand, so a candidate is decided in milliseconds; one that needs more is skipped for the next.
 */
export const CERTIFY_NODES = 100_000;

/** Whether `line` replays from the start of `deal` under `preset` to a won game (rules package). */
export function lineWins(deal: Deal, preset: DailyPreset, line: readonly Move[]): boolean {
  let state = newGame(deal, PRESETS[preset]);
  for (const move of line) {
    const r = applyMove(state, move);
    if (!r.ok) return false;
    state = r.value;
  }
  return isWon(state);
}

/** Options of `certifyDaily` and `refinePar`. */
export interface GenerateOptions {
  /** Wall-clock cap per solver job, ms (a safety net: the node budgets normally end a search first). */
  readonly timeLimitMs: number;
  /** Node budget of the certifying search of one candidate (default CERTIFY_NODES). */
  readonly certifyNodes?: number;
  /**
   * Node budget of the minimal search of `refinePar` (default `parNodes(timeLimitMs)`;
   * 0 = no refinement).
   */
  readonly minimalNodes?: number;
  /** Checked between solver jobs: true stops the work (the server is closing). */
  readonly stopped?: () => boolean;
  /** Solver priority of the jobs (solve/scheduler.ts; default `daily` to certify, `par` to refine). */
  readonly priority?: DailyWorkPriority;
  /** Waits this long before retrying when the solver's queue is full (default 250 ms). */
  readonly busyRetryMs?: number;
}

/** Thrown by `certifyDaily` and `refinePar` when stopped. */
export class GenerationStopped extends Error {
  override readonly name = 'GenerationStopped';
}

/** Runs a solver task, waiting and retrying while the pool is busy. Errors: `GenerationStopped`. */
async function runRetrying(
  solver: SolverPool,
  task: DealTask,
  options: GenerateOptions,
  priority: DailyWorkPriority,
  label: string,
): Promise<SolverOutcome> {
  for (;;) {
    if (options.stopped?.()) throw new GenerationStopped(`stopped: ${label}`);
    try {
      return await solver.run(task, { priority, label });
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'solver-busy')) throw e;
      await new Promise((res) => setTimeout(res, options.busyRetryMs ?? 250));
    }
  }
}

/**
 * Finds and certifies the daily of a date and preset (step 1 of the module comment): par is the certifying
 * line's length, not proven, with no lower bound yet. Errors: `GenerationStopped`; an Error when
 * MAX_CANDIDATES candidates gave no win.
 */
export async function certifyDaily(
  solver: SolverPool,
  secret: string,
  date: string,
  preset: DailyPreset,
  options: GenerateOptions,
): Promise<GeneratedDaily> {
  for (let k = 0; k < MAX_CANDIDATES; k++) {
    const candidate = candidateDeal(secret, date, preset, k);
    const deal = candidate.deal;
    const r = await runRetrying(
      solver,
      {
        kind: 'deal',
        deal,
        options: PRESETS[preset],
        timeLimitMs: options.timeLimitMs,
        maxNodes: options.certifyNodes ?? CERTIFY_NODES,
      },
      options,
      options.priority ?? 'daily',
      `certify ${date} ${preset}`,
    );
    if (r.verdict !== 'won' || r.line === undefined || !lineWins(deal, preset, r.line)) continue;
    return {
      date,
      preset,
      deal: formatDeal(deal),
      dealKey: candidate.key,
      candidate: k,
      par: r.line.length,
      parProven: false,
      parLowerBound: null,
      line: r.line,
    };
  }
  throw new Error(`no winnable candidate among ${MAX_CANDIDATES} for ${date} ${preset}`);
}

/** What `refinePar` found: a line at most as long as the one it was given, and what is proven of it. */
export interface RefinedPar {
  readonly par: number;
  readonly parProven: boolean;
  readonly parLowerBound: number | null;
  readonly line: Move[];
}

/**
 * Step 2 of the module comment: searches a shortest line of `deal` with the minimal search and returns the
 * shorter of its line and `line`, with what is proven (`parProven`, `parLowerBound`). Never returns a longer
 * line than `line`. Errors: `GenerationStopped`.
 */
export async function refinePar(
  solver: SolverPool,
  deal: Deal,
  preset: DailyPreset,
  line: readonly Move[],
  options: GenerateOptions,
  label: string,
): Promise<RefinedPar> {
  let best: Move[] = [...line];
  let parProven = false;
  let parLowerBound: number | null = null;
  const nodes = options.minimalNodes ?? parNodes(options.timeLimitMs);
  if (nodes > 0) {
    const m = await runRetrying(
      solver,
      {
        kind: 'deal',
        deal,
        options: PRESETS[preset],
        timeLimitMs: options.timeLimitMs,
        minimal: true,
        minimalNodes: nodes,
        // Its fallback line is only a candidate against the shortened line already found.
        shorten: false,
      },
      options,
      options.priority ?? 'par',
      `par ${label}`,
    );
    if (m.lowerBound !== undefined && m.lowerBound <= best.length) parLowerBound = m.lowerBound;
    if (
      m.verdict === 'won' &&
      m.line !== undefined &&
      m.line.length <= best.length &&
      lineWins(deal, preset, m.line)
    ) {
      best = m.line;
      parProven = m.optimal === true;
    }
    if (parLowerBound !== null && best.length <= parLowerBound) {
      parProven = true;
      parLowerBound = best.length;
    }
  }
  return { par: best.length, parProven, parLowerBound, line: best };
}

/**
 * Both steps at once (certify, then refine par): the daily of a date and preset as the pipeline finally
 * stores it. Errors: as `certifyDaily`.
 */
export async function generateDaily(
  solver: SolverPool,
  secret: string,
  date: string,
  preset: DailyPreset,
  options: GenerateOptions,
): Promise<GeneratedDaily> {
  const g = await certifyDaily(solver, secret, date, preset, options);
  const r = await refinePar(solver, dealOfKey(g.dealKey), preset, g.line, options, `${date} ${preset}`);
  return { ...g, ...r };
}
