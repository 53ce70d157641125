/**
 * REST calls of the players' public pages, through the typed client: a player's page, ratings, statistics and
 * history, the all-time board.
 */
import type { HistoryQuery } from '@klondike/protocol';
import type { z } from 'zod';
import { callApi } from './api';
import type { Protocol } from './schemas';

export function getPlayerPage(id: string): Promise<z.infer<Protocol['PlayerPageSchema']>> {
  return callApi(
    (c) => c.getPlayer(id),
    (p) => p.PlayerPageSchema,
  );
}

/** GET /api/players/:id/ratings: a player's ratings with one history point per rating period (public). */
export function getPlayerRatings(id: string): Promise<z.infer<Protocol['PlayerRatingHistorySchema']>> {
  return callApi(
    (c) => c.getPlayerRatings(id),
    (p) => p.PlayerRatingHistorySchema,
  );
}

/** GET /api/players/:id/stats: a player's statistics (public). */
export function getPlayerStats(id: string): Promise<z.infer<Protocol['PlayerStatisticsSchema']>> {
  return callApi(
    (c) => c.getPlayerStatistics(id),
    (p) => p.PlayerStatisticsSchema,
  );
}

/** GET /api/players/:id/games: a page of the player's own finished games (its token only), newest first. */
export function getPlayerHistory(
  id: string,
  query: Partial<HistoryQuery>,
): Promise<z.infer<Protocol['HistoryPageSchema']>> {
  const defined = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
  return callApi(
    (c) => c.listPlayerGames(id, defined),
    (p) => p.HistoryPageSchema,
  );
}

/** The all-time leaderboard of people (default) or of bot accounts (never mixed). */
export function getAllTimeLeaderboard(
  board: 'humans' | 'bots' = 'humans',
): Promise<z.infer<Protocol['AllTimeLeaderboardSchema']>> {
  return callApi(
    (c) => c.getAllTimeLeaderboard({ board }),
    (p) => p.AllTimeLeaderboardSchema,
  );
}
