/**
 * The budget of `solveMinimal` (index.ts): node mode (positions only, deterministic) or time mode (the proof
 * and the passes poll the wall clock), and the size of the proof's table. Pure: no clock is read here.
 */

/** Default node budget of the minimal search of `solveMinimal`. */
export const DEFAULT_MINIMAL_NODES = 2_000_000;
/** Default state budget of the minimal search of `solveMinimal` (the packed table: ~28 bytes each). */
export const DEFAULT_MINIMAL_STATES = 2_000_000;

/**
 * Time mode of `solveMinimal`: the share of `timeLimitMs` the proof may use before the fallback `solve` and
 * the weighted passes get the rest.
 */
export const MINIMAL_PROOF_SHARE = 0.85;
/**
 * Time mode of `solveMinimal`: table entries per ms of `timeLimitMs` (a proof stores about one position in
 * twelve it generates (O13), at up to ~2 M positions per second on one core: 2 000 / 8 per ms, with room).
 */
export const MINIMAL_STATES_PER_MS = 250;

/** The budget of one `solveMinimal` call, from its limits (`minimalPlan`). */
export interface MinimalPlan {
  /** True in time mode (`timeLimitMs` given): the proof and the passes poll the clock. */
  readonly timed: boolean;
  /** Most positions the proof generates (Infinity in time mode without `maxNodes`). */
  readonly maxNodes: number;
  /** Most positions the proof's table stores. */
  readonly maxStates: number;
  /** Wall-clock budget of the whole call, ms (Infinity without `timeLimitMs`). */
  readonly timeMs: number;
  /** ms from the start after which the proof stops (Infinity without `timeLimitMs`). */
  readonly proofMs: number;
}

/**
 * The budget `solveMinimal` gives its proof for `limits` (pure, no clock): in time mode the proof may run
 * for `MINIMAL_PROOF_SHARE` of `timeLimitMs`, capped by `maxNodes` when given, with a table of
 * `MINIMAL_STATES_PER_MS` entries per ms; otherwise `maxNodes` (default `DEFAULT_MINIMAL_NODES`) positions
 * with a table of an eighth of them. `maxStates` overrides the table either way; never below
 * `DEFAULT_MINIMAL_STATES` by default.
 */
export function minimalPlan(limits: {
  readonly timeLimitMs?: number;
  readonly maxNodes?: number;
  readonly maxStates?: number;
}): MinimalPlan {
  const timeMs = limits.timeLimitMs ?? Infinity;
  const timed = limits.timeLimitMs !== undefined;
  const maxNodes = limits.maxNodes ?? (timed ? Infinity : DEFAULT_MINIMAL_NODES);
  // A proof stores the positions it expands (O13), about one per six to twenty-eight generated: a larger node
  // (or time) budget gets a larger table.
  const byBudget = timed
    ? Math.min(timeMs * MINIMAL_STATES_PER_MS, Number.isFinite(maxNodes) ? maxNodes / 8 : Infinity)
    : maxNodes / 8;
  const maxStates = limits.maxStates ?? Math.max(DEFAULT_MINIMAL_STATES, Math.ceil(byBudget));
  return { timed, maxNodes, maxStates, timeMs, proofMs: timeMs * MINIMAL_PROOF_SHARE };
}
