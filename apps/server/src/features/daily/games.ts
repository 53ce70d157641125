/**
 * A daily's games, as the daily creates them in the game log (rooms/game-rooms.ts): the ranked attempt of
 * a player (ranked options, `rankedOptions` in db/game-options.ts, which its row names by its daily; its
 * clock starts when its cards are first seen, at its creation; its `DailyAttempt` row, daily/rows.ts,
 * refuses a second one), a practice game with the preset's own options, and the settling of a ranked
 * attempt whose day closed while it was still playing.
 */
import type { GameResponse } from '@klondike/protocol';
import { type Deal, PRESETS, parseDeal } from '@klondike/rules';
import { rankedOptions } from '../../infra/db/game-options.js';
import { ApiError } from '../../infra/errors.js';
import type { DailyRef, GameRooms } from '../../core/rooms/game-rooms.js';
import { RowExists } from '../../core/rooms/store.js';
import { closedDayRow } from './decisions.js';

/** What a new daily game is: the ranked attempt of `owner`, or a practice game (owned or anonymous). */
export interface DailyGameSpec {
  readonly daily: DailyRef;
  /**
   * The daily's deal, parsed (`parseDeal` of its stored codes). Pass the same array for every game of a
   * daily: the rooms build its first position once per array (rooms/room.ts `newRoom`).
   */
  readonly deal: Deal;
  readonly ranked: boolean;
  /** The player the game is for (required when ranked). */
  readonly owner: string | null;
}

/** A stored daily's deal, parsed. Errors: an Error naming the daily when its stored codes do not read. */
export function dailyDeal(row: { date: string; preset: string; deal: string }): Deal {
  const deal = parseDeal(row.deal);
  if (!deal.ok)
    throw new Error(`daily ${row.date} ${row.preset}: stored deal unreadable: ${deal.error.message}`);
  return deal.value;
}

/**
 * Creates a game of a daily's deal in `rooms`: the ranked attempt of `spec.owner` or a practice game. The
 * response shows no deal number. Errors: `conflict` when the player already has a ranked attempt at this
 * daily.
 */
export async function createDailyGame(rooms: GameRooms, spec: DailyGameSpec): Promise<GameResponse> {
  if (spec.ranked && spec.owner === null) throw new Error('a ranked attempt needs a player');
  try {
    return await rooms.createGame({
      kind: spec.ranked ? 'daily-ranked' : 'daily-practice',
      deal: spec.deal,
      dealKey: null,
      options: spec.ranked ? rankedOptions(spec.daily.preset) : PRESETS[spec.daily.preset],
      preset: spec.ranked ? null : spec.daily.preset,
      owner: spec.owner,
      daily: spec.daily,
      raceCode: null,
      clockFromCreation: spec.ranked,
    });
  } catch (e) {
    if (spec.ranked && e instanceof RowExists)
      throw new ApiError(
        'conflict',
        `you have already started your ranked attempt at the ${spec.daily.date} ${spec.daily.preset} daily (one per player); replay it as a practice game once it has ended`,
      );
    throw e;
  }
}

/**
 * Settles a ranked attempt whose day has closed while it was still playing: its leaderboard row as
 * `unfinished`, with the score and time at the moment the day closed (daily/decisions.ts `closedDayRow`). Returns whether a row was added
 * (false for other games, an open day, or an attempt that already has its row). Errors: `not-found`.
 */
export function settleClosedAttempt(rooms: GameRooms, gameId: string): Promise<boolean> {
  return rooms.settle(gameId, closedDayRow);
}
