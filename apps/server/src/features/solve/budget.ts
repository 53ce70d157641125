/**
 * What a `POST /api/solve` request may spend (docs/api.md "Deterministic and time-limited answers"): the
 * task its body asks for, pure, so the budget logic is tested without a clock.
 *
 * - **Time-limited** (the default): the search runs until `timeLimitMs` (capped by SOLVE_MAX_MS) of wall-clock
 *   time has passed, polling its clock as `solve` does. With `minimal: true` the minimal search itself checks
 *   the clock (`solveMinimal`'s time mode): the proof gets `MINIMAL_PROOF_SHARE` of the time, the fallback
 *   search and the weighted passes the rest, so a request with twice the time searches about twice the
 *   positions. The answer depends on the machine's speed and load.
 * - **Deterministic** (`maxNodes` given): every limit is in positions and no clock is read, so the same body
 *   gives the same answer on any machine and under any load (only `ms` differs). The line-shortening pass
 *   (`shorten: true`) is time-bound, so it is off in this mode.
 */
import type { SolveBody } from '@klondike/protocol';
import type { Card, GameOptions } from '@klondike/rules';
import type { DealTask } from './task.js';

/** Settings the budget reads (SOLVE_MAX_MS). */
export interface SolveBudgetConfig {
  /** Cap on a request's time limit, ms; also its default. */
  readonly solveMaxMs: number;
}

/**
 * The solver task of a `POST /api/solve` body whose deal and options are already resolved.
 *
 * @returns a `deal` task: time-limited (`timeLimitMs` = min(body, SOLVE_MAX_MS), `minimalTimed` with
 *   `minimal`), or deterministic when the body gives `maxNodes` (node limits only, no shortening).
 */
export function solveTaskOf(
  body: Pick<SolveBody, 'timeLimitMs' | 'minimal' | 'shorten' | 'maxNodes'>,
  deal: readonly Card[],
  options: GameOptions,
  config: SolveBudgetConfig,
): DealTask {
  const timeLimitMs = Math.min(body.timeLimitMs ?? config.solveMaxMs, config.solveMaxMs);
  const minimal = body.minimal ?? false;
  if (body.maxNodes !== undefined)
    return {
      kind: 'deal',
      deal,
      options,
      timeLimitMs,
      shorten: false,
      minimal,
      deterministic: true,
      ...(minimal ? { minimalNodes: body.maxNodes } : { maxNodes: body.maxNodes }),
    };
  return {
    kind: 'deal',
    deal,
    options,
    timeLimitMs,
    shorten: body.shorten ?? false,
    minimal,
    ...(minimal ? { minimalTimed: true } : {}),
  };
}
