/** REST calls of the daily challenge: today, the archive, a closed day's reveal, attempts and leaderboards. */
import type { z } from 'zod';
import { type GameResponse, request } from './api';
import type { DailyPreset } from './route';
import type { Protocol } from './schemas';

export function getDailyToday(): Promise<z.infer<Protocol['DailyTodaySchema']>> {
  return request('GET', '/api/daily', (p) => p.DailyTodaySchema);
}

export function getDailyArchive(): Promise<z.infer<Protocol['DailyArchiveSchema']>> {
  return request('GET', '/api/daily/archive', (p) => p.DailyArchiveSchema);
}

export function getDailyReveal(
  date: string,
  preset: DailyPreset,
): Promise<z.infer<Protocol['DailyRevealSchema']>> {
  return request('GET', `/api/daily/${date}/${preset}`, (p) => p.DailyRevealSchema);
}

/** Starts the caller's one ranked attempt (409 `conflict` the second time). */
export function startRankedAttempt(date: string, preset: DailyPreset): Promise<GameResponse> {
  return request('POST', `/api/daily/${date}/${preset}/attempt`, (p) => p.GameResponseSchema, {});
}

/** An unranked practice game of a daily's deal. */
export function startPractice(date: string, preset: DailyPreset): Promise<GameResponse> {
  return request('POST', `/api/daily/${date}/${preset}/practice`, (p) => p.GameResponseSchema, {});
}

/** A page of a daily leaderboard: `{offset, limit}` or the page around the caller. */
export function getDailyLeaderboard(
  date: string,
  preset: DailyPreset,
  page: { offset?: number; limit?: number; aroundMe?: boolean },
): Promise<z.infer<Protocol['LeaderboardSchema']>> {
  const q = new URLSearchParams();
  if (page.offset !== undefined) q.set('offset', String(page.offset));
  if (page.limit !== undefined) q.set('limit', String(page.limit));
  if (page.aroundMe) q.set('around', 'me');
  return request(
    'GET',
    `/api/daily/${date}/${preset}/leaderboard?${q.toString()}`,
    (p) => p.LeaderboardSchema,
  );
}
