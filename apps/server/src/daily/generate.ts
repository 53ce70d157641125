/**
 * Daily deals: candidate k of a date and preset is the deal of algorithm v2 (rules package `dealFromKey`)
 * whose 256-bit key is HMAC-SHA256(secret, `${date}|${preset}|${k}`); the daily is the first candidate the
 * solver proves
 * winnable within its time limit (unknown or impossible → next k). Par = the length of the solver's line,
 * which is replayed with the rules package to a win before it is kept.
 */
import type { DailyPreset } from '@klondike/protocol';
import { type Deal, type Move, PRESETS, applyMove, formatDeal, isWon, newGame } from '@klondike/rules';
import { ApiError } from '../errors.js';
import { dailyCandidateKey, dealOfKey } from '../fairness/deals.js';
import type { SolverPool } from '../solver/task.js';

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
  readonly line: Move[];
}

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
  /** Checked between candidates: true stops the search (the server is closing). */
  readonly stopped?: () => boolean;
  /** Waits this long before retrying when the solver's queue is full (default 250 ms). */
  readonly busyRetryMs?: number;
}

/** Thrown by `generateDaily` when it was stopped. */
export class GenerationStopped extends Error {
  override readonly name = 'GenerationStopped';
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
    const deal = { value: candidate.deal };
    for (;;) {
      if (options.stopped?.()) throw new GenerationStopped(`stopped generating ${date} ${preset}`);
      try {
        const r = await solver.run(
          { kind: 'deal', deal: deal.value, options: PRESETS[preset], timeLimitMs: options.timeLimitMs },
          { priority: 'daily' },
        );
        if (r.verdict === 'won' && r.line !== undefined && lineWins(deal.value, preset, r.line)) {
          return {
            date,
            preset,
            deal: formatDeal(deal.value),
            dealKey: candidate.key,
            candidate: k,
            par: r.line.length,
            line: r.line,
          };
        }
        break;
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 'solver-busy')) throw e;
        await new Promise((res) => setTimeout(res, options.busyRetryMs ?? 250));
      }
    }
  }
  throw new Error(`no winnable candidate among ${MAX_CANDIDATES} for ${date} ${preset}`);
}
