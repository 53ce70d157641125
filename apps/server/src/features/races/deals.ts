/**
 * A race's deal and options (races/service.ts): what a new room's request asks for, the preset a room's
 * options are, and the deal of the kind the host asked for — their deal number, a fresh random key, or a
 * random key the solver proves winnable.
 */
import type { CreateRaceBody } from '@klondike/protocol';
import {
  DEFAULT_PRESET,
  type Deal,
  type GameOptions,
  PRESETS,
  type PresetName,
  dealFromNumber,
  resolveOptions,
} from '@klondike/rules';
import { racePool } from '../ratings/service.js';
import { ApiError } from '../../infra/errors.js';
import { randomKeyedDeal } from '../../core/rooms/keyed-deals.js';
import type { SolverPool } from '../solve/task.js';

/** Random deal numbers tried for a `certified` race before giving up (503 solver-busy). */
export const CERTIFY_TRIES = 20;

/** How a race's deal is chosen (`Race.dealKind`). */
export type DealKind = 'random' | 'certified' | 'number';

/** A race's deal: the deal, its v2 key (random deals) or its v1 number (a known deal). */
export interface PickedDeal {
  readonly deal: Deal;
  readonly dealKey: string | null;
  readonly dealNumber: number | null;
}

/**
 * The preset a race's options are, or null. Hints do not count: a race has them off by default (docs/features.md
 * "Fair play"), and the room shows its hints setting on its own.
 */
export function presetOf(base: PresetName, options: GameOptions): PresetName | null {
  const p = PRESETS[base];
  const keys = (Object.keys(p) as (keyof GameOptions)[]).filter((k) => k !== 'hints');
  const same = keys.every((k) => p[k] === options[k]) && Object.keys(options).length === keys.length + 1;
  return same ? base : null;
}

/**
 * What a POST /api/races body asks for: the options (hints off unless the host turns them on, docs/features.md
 * "Fair play"), the preset they are (or null) and the kind of deal. A rated race is unaided (docs/ratings.md
 * "Consent and ranking"): hints off and undo as its preset has it. Errors: `bad-request` for a rated race of a
 * known deal, with hints on, or of options no rated pool takes (undo against the preset among them).
 */
export function raceSettings(body: CreateRaceBody): {
  preset: PresetName | null;
  options: GameOptions;
  kind: DealKind;
} {
  const base = body.preset ?? DEFAULT_PRESET;
  const options = resolveOptions(base, { hints: false, ...body.options });
  const kind: DealKind = typeof body.deal === 'object' ? 'number' : body.deal;
  if (body.rated && kind === 'number')
    throw new ApiError('bad-request', 'a race of a known deal (a deal number) is never rated');
  if (body.rated && options.hints)
    throw new ApiError('bad-request', 'a rated race is unaided: hints must be off');
  const preset = presetOf(base, options);
  if (body.rated && racePool(preset) === null)
    throw new ApiError(
      'bad-request',
      'only classic-draw1 and classic-draw3 races with their own rules (undo as the preset has it) are rated',
    );
  return { preset, options, kind };
}

/** What certifying a deal takes: the solver pool and its time per candidate, ms. */
export interface CertifyOptions {
  readonly solver: SolverPool;
  readonly certifyMs: number;
}

/**
 * A deal of the wanted kind: the host's deal number (v1, a known deal), or a fresh random v2 key (for
 * `certified`, the first of up to CERTIFY_TRIES the solver proves winnable; certification runs at the
 * lowest solver priority, counted against `host`).
 * Errors: `bad-request` for a bad number; `solver-busy` when no certified deal was found or the solver
 * refused the job.
 */
export async function pickDeal(
  c: CertifyOptions,
  kind: DealKind,
  options: GameOptions,
  host: string,
  number?: number,
): Promise<PickedDeal> {
  if (kind === 'number' && number !== undefined) {
    const deal = dealFromNumber(number);
    if (!deal.ok) throw new ApiError('bad-request', deal.error.message);
    return { deal: deal.value, dealKey: null, dealNumber: number };
  }
  if (kind !== 'certified') {
    const keyed = randomKeyedDeal();
    return { deal: keyed.deal, dealKey: keyed.key, dealNumber: null };
  }
  return certifiedDeal(c, options, host);
}

/**
 * A fresh random v2 key the solver proves winnable under `options`: the first of up to CERTIFY_TRIES, each
 * searched for `c.certifyMs` at the `certify` priority, counted against `client` (none: the server's own
 * work, races/deal-reserve.ts). Only the verdict counts, so the winning line is not shortened (the solver's
 * post-pass would cost more than the search). Errors: `solver-busy` when none was proven or the solver
 * refused the job.
 */
export async function certifiedDeal(
  c: CertifyOptions,
  options: GameOptions,
  client: string | undefined,
): Promise<PickedDeal> {
  for (let i = 0; i < CERTIFY_TRIES; i++) {
    const keyed = randomKeyedDeal();
    const r = await c.solver.run(
      { kind: 'deal', deal: keyed.deal, options, timeLimitMs: c.certifyMs, shorten: false },
      { priority: 'certify', ...(client === undefined ? {} : { client }) },
    );
    if (r.verdict === 'won') return { deal: keyed.deal, dealKey: keyed.key, dealNumber: null };
  }
  throw new ApiError('solver-busy', 'no winnable deal was proven in time; try again');
}
