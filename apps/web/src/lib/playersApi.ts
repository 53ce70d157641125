/** REST calls of the players' public pages: a player's page, ratings, statistics and history, the all-time board. */
import type { HistoryQuery } from '@klondike/protocol';
import type { z } from 'zod';
import { request } from './api';
import type { Protocol } from './schemas';

export function getPlayerPage(id: string): Promise<z.infer<Protocol['PlayerPageSchema']>> {
  return request('GET', `/api/players/${encodeURIComponent(id)}`, (p) => p.PlayerPageSchema);
}

/** GET /api/players/:id/ratings: a player's ratings with one history point per rating period (public). */
export function getPlayerRatings(id: string): Promise<z.infer<Protocol['PlayerRatingHistorySchema']>> {
  return request('GET', `/api/players/${encodeURIComponent(id)}/ratings`, (p) => p.PlayerRatingHistorySchema);
}

/** GET /api/players/:id/stats: a player's statistics (public). */
export function getPlayerStats(id: string): Promise<z.infer<Protocol['PlayerStatisticsSchema']>> {
  return request('GET', `/api/players/${encodeURIComponent(id)}/stats`, (p) => p.PlayerStatisticsSchema);
}

/** GET /api/players/:id/games: a page of the player's own finished games (its token only), newest first. */
export function getPlayerHistory(
  id: string,
  query: Partial<HistoryQuery>,
): Promise<z.infer<Protocol['HistoryPageSchema']>> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const text = q.toString();
  return request(
    'GET',
    `/api/players/${encodeURIComponent(id)}/games${text ? `?${text}` : ''}`,
    (p) => p.HistoryPageSchema,
  );
}

/** The all-time leaderboard of people (default) or of bot accounts (never mixed). */
export function getAllTimeLeaderboard(
  board: 'humans' | 'bots' = 'humans',
): Promise<z.infer<Protocol['AllTimeLeaderboardSchema']>> {
  return request('GET', `/api/leaderboard?board=${board}`, (p) => p.AllTimeLeaderboardSchema);
}
