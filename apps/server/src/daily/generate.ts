/**
 * Daily deals: candidate k of a date and preset is the deal of algorithm v2 (rules package `dealFromKey`)
 * whose 256-bit key is HMAC-SHA256(secret, `${date}|${preset}|${k}`); the daily is the first candidate the
 * solver proves
 * winnable within its time limit (unknown or impossible → next k). Par = the length of the shortest line
 * found: the minimal search (`solveMinimal`, node-limited) either proves its line shortest (`parProven`)
 * or returns its best line with a proven lower bound; the shorter of that and the first search's line is
 * kept, after replaying it with the rules package to a win.
 */
import type { DailyPreset } from '@klondike/protocol';
import { type Deal, type Move, PRESETS, applyMove, formatDeal, isWon, newGame } from '@klondike/rules';
import { ApiError } from '../errors.js';
import { dailyCandidateKey, dealOfKey } from '../fairness/deals.js';
import type { DealTask, SolverOutcome, SolverPool } from '../solver/task.js';

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

/** Default node budget of a daily's minimal search per ms of `timeLimitMs` (≈ positions per ms, one core). */
export const MINIMAL_NODES_PER_MS = 1000;

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

/** Options of `generateDaily`. */
export interface GenerateOptions {
  /** Solver time per candidate, ms. */
  readonly timeLimitMs: number;
  /**
   * Node budget of the minimal search run on the chosen deal (default `timeLimitMs × MINIMAL_NODES_PER_MS`;
   * 0 = none: par is the first search's line, not proven).
   */
  readonly minimalNodes?: number;
  /** Checked between candidates: true stops the search (the server is closing). */
  readonly stopped?: () => boolean;
  /** Waits this long before retrying when the solver's queue is full (default 250 ms). */
  readonly busyRetryMs?: number;
}

/** Thrown by `generateDaily` when it was stopped. */
export class GenerationStopped extends Error {
  override readonly name = 'GenerationStopped';
}

/** Runs a solver task, waiting and retrying while the pool is busy. Errors: `GenerationStopped`. */
async function runRetrying(
  solver: SolverPool,
  task: DealTask,
  options: GenerateOptions,
  what: string,
): Promise<SolverOutcome> {
  for (;;) {
    if (options.stopped?.()) throw new GenerationStopped(what);
    try {
      return await solver.run(task, { priority: 'daily' });
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'solver-busy')) throw e;
      await new Promise((res) => setTimeout(res, options.busyRetryMs ?? 250));
    }
  }
}

/**
 * Finds the daily of a date and preset with the solver's worker pool.
 * Errors: `GenerationStopped`; an Error when MAX_CANDIDATES candidates gave no proven win.
 */
export async function generateDaily(
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
      { kind: 'deal', deal, options: PRESETS[preset], timeLimitMs: options.timeLimitMs },
      options,
      `stopped generating ${date} ${preset}`,
    );
    if (r.verdict !== 'won' || r.line === undefined || !lineWins(deal, preset, r.line)) continue;
    let line = r.line;
    let parProven = false;
    let parLowerBound: number | null = null;
    const nodes = options.minimalNodes ?? options.timeLimitMs * MINIMAL_NODES_PER_MS;
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
        `stopped generating ${date} ${preset}`,
      );
      if (m.lowerBound !== undefined && m.lowerBound <= line.length) parLowerBound = m.lowerBound;
      if (
        m.verdict === 'won' &&
        m.line !== undefined &&
        m.line.length <= line.length &&
        lineWins(deal, preset, m.line)
      ) {
        line = m.line;
        parProven = m.optimal === true;
      }
      if (parLowerBound !== null && line.length <= parLowerBound) {
        parProven = true;
        parLowerBound = line.length;
      }
    }
    return {
      date,
      preset,
      deal: formatDeal(deal),
      dealKey: candidate.key,
      candidate: k,
      par: line.length,
      parProven,
      parLowerBound,
      line,
    };
  }
  throw new Error(`no winnable candidate among ${MAX_CANDIDATES} for ${date} ${preset}`);
}
