/**
 * A casual game's spec from its request (POST /api/games, `GameRooms.create`): its options from a preset and
 * overrides, its deal chosen by the caller (52 codes, a deal number, another game's deal) or dealt at random
 * from a fresh key.
 */
import type { CreateGameBody } from '@klondike/protocol';
import {
  DEFAULT_PRESET,
  type Deal,
  PRESETS,
  dealFromNumber,
  isPresetName,
  parseDeal,
  resolveOptions,
} from '@klondike/rules';
import { gameOptionsOf, sameOptions } from '../../infra/db/game-options.js';
import { ApiError } from '../../infra/errors.js';
import { randomKeyedDeal } from './keyed-deals.js';
import type { NewGameSpec } from './room.js';
import type { GameStore } from './store.js';

/**
 * A casual game's spec from a POST /api/games body (see `GameRooms.create`): its options, and its deal from
 * `deal`, `dealNumber`, `sameDealAs` (read from `store`) or a fresh random key. `chosen`: the caller chose
 * the deal (not a fresh random one), so the deal embargo must see it. `dealNumber` is the one to echo.
 * Errors: `bad-request` for an unreadable deal or deal number; `not-found` for an unknown `sameDealAs`.
 */
export async function casualGame(
  body: CreateGameBody,
  owner: string | null,
  store: GameStore,
): Promise<{ spec: NewGameSpec; dealNumber: number | null; chosen: boolean }> {
  let base = body.preset ?? DEFAULT_PRESET;
  let options = resolveOptions(base, body.options ?? {});
  let deal: Deal;
  let dealNumber: number | null = null;
  let dealKey: string | null = null;
  if (body.deal !== undefined) {
    const r = parseDeal(body.deal);
    if (!r.ok) throw new ApiError('bad-request', r.error.message);
    deal = r.value;
  } else if (body.dealNumber !== undefined) {
    dealNumber = body.dealNumber;
    const r = dealFromNumber(dealNumber);
    if (!r.ok) throw new ApiError('bad-request', r.error.message);
    deal = r.value;
  } else if (body.sameDealAs !== undefined) {
    const source = await store.dealSource(body.sameDealAs);
    if (source === null) throw new ApiError('not-found', `no game ${body.sameDealAs}`);
    const r = parseDeal(source.deal);
    if (!r.ok) throw new Error(`game ${body.sameDealAs}: stored deal unreadable: ${r.error.message}`);
    deal = r.value;
    dealKey = source.dealKey;
    dealNumber = source.dealNumber;
    if (body.preset === undefined && body.options === undefined) {
      options = gameOptionsOf(source, `game ${body.sameDealAs}`);
      base = source.preset !== null && isPresetName(source.preset) ? source.preset : base;
    }
  } else {
    const keyed = randomKeyedDeal();
    deal = keyed.deal;
    dealKey = keyed.key;
  }
  const preset = sameOptions(options, PRESETS[base]) ? base : null;
  return {
    spec: {
      kind: 'casual',
      deal,
      dealKey,
      options,
      preset,
      owner,
      daily: null,
      raceCode: null,
      clockFromCreation: false,
    },
    dealNumber,
    chosen: dealKey === null || body.sameDealAs !== undefined,
  };
}
