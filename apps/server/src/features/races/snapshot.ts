/**
 * A race room as its sockets and REST callers see it, from its rows: counts and ids, never a card; and a
 * finished race's results.
 */
import { GameOptionsSchema, type Race, RaceProgressSchema, type RaceResultsSchema } from '@klondike/protocol';
import { isPresetName } from '@klondike/rules';
import type { z } from 'zod';
import { raceCommitment, racePreimage } from '../fairness/race-commitment.js';
import type { Actor } from '../../core/rooms/game-rooms.js';
import type { RaceSnapshot } from './events.js';
import { progressOfRow, raceUrl } from './ranking.js';
import type { RaceRow } from './repository.js';

/** RacePresence.viewer of a node's spectators. */
export const SPECTATORS = '';

/** The spectators' sockets of a room, on every node. */
export function spectators(row: RaceRow): number {
  return row.presence.reduce((n, p) => n + (p.viewer === SPECTATORS ? p.sockets : 0), 0);
}

/** The room as every viewer sees it (before `personalise`); `countdownMs` is the server's countdown. */
export function snapshotOf(row: RaceRow, countdownMs: number): RaceSnapshot {
  const gameIds: Record<string, string> = {};
  for (const r of row.racers) if (r.gameId !== null) gameIds[r.playerId] = r.gameId;
  return {
    code: row.code,
    url: raceUrl(row.code),
    status: row.status,
    preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
    options: GameOptionsSchema.parse(row.options),
    knownDeal: row.knownDeal,
    rated: row.rated,
    dealCommitment: raceCommitment(row),
    maxPlayers: row.maxPlayers,
    timeLimitMs: row.timeLimitMs,
    startsAt: row.startsAt?.toISOString() ?? null,
    countdownMs,
    endedAt: row.endedAt?.toISOString() ?? null,
    racers: row.racers.map((r) => ({
      playerId: r.playerId,
      name: r.player.name,
      bot: r.player.bot,
      host: r.playerId === row.hostId,
      ready: row.status === 'lobby' ? r.ready : true,
      presence: r.forfeited ? ('forfeited' as const) : r.away ? ('away' as const) : ('here' as const),
      progress: progressOfRow(r),
      placement: r.placement,
      berserk: r.berserk,
    })),
    spectators: spectators(row),
    rematchCode: row.rematchCode,
    arenaId: row.arenaId,
    gameIds,
    version: row.version,
  };
}

/** The room as `viewer` sees it at server time `now` (ms): their own game id only. */
export function personalise(s: RaceSnapshot, viewer: Actor, now: number): Race {
  const racer = viewer !== null && s.racers.some((r) => r.playerId === viewer);
  const { gameIds, version: _version, ...room } = s;
  return {
    ...room,
    serverNow: new Date(now).toISOString(),
    you: racer ? viewer : null,
    yourGameId: racer && viewer !== null ? (gameIds[viewer] ?? null) : null,
  };
}

/** GET /api/races/:code/results response. */
export type RaceResults = z.infer<typeof RaceResultsSchema>;

/**
 * The results of a finished race: placements, final progress and game ids, and the reveal of its deal's
 * commitment: its preimage, key or deal number, and salt (null for a room stored before salts).
 */
export function resultsOf(row: RaceRow): RaceResults {
  const results = row.racers
    .filter((r) => r.placement !== null && r.gameId !== null && r.progress !== null)
    .map((r) => ({
      placement: r.placement as number,
      playerId: r.playerId,
      name: r.player.name,
      progress: RaceProgressSchema.parse(r.progress),
      gameId: r.gameId as string,
      rating:
        r.ratingBefore === null || r.ratingAfter === null
          ? null
          : { before: Math.round(r.ratingBefore), after: Math.round(r.ratingAfter) },
    }))
    .sort((a, b) => a.placement - b.placement);
  const preimage = racePreimage(row);
  const dealReveal =
    preimage === null
      ? null
      : {
          preimage,
          dealCommitment: raceCommitment(row) as string,
          algorithm: row.dealKey !== null ? ('deal-v2' as const) : ('deal-v1' as const),
          key: row.dealKey,
          dealNumber: row.dealKey === null && row.dealNumber !== null ? Number(row.dealNumber) : null,
          salt: row.dealSalt,
        };
  return { code: row.code, deal: row.deal, knownDeal: row.knownDeal, dealReveal, results };
}
