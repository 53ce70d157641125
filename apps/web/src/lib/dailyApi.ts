/**
 * REST calls of the daily challenge, through the typed client: today, the archive, a closed day's reveal,
 * attempts and leaderboards.
 */
import type { z } from 'zod';
import { type GameResponse, callApi } from './api';
import type { DailyPreset } from './route';
import type { Protocol } from './schemas';

export function getDailyToday(): Promise<z.infer<Protocol['DailyTodaySchema']>> {
  return callApi(
    (c) => c.getDailyChallenges(),
    (p) => p.DailyTodaySchema,
  );
}

export function getDailyArchive(): Promise<z.infer<Protocol['DailyArchiveSchema']>> {
  return callApi(
    (c) => c.getDailyArchive(),
    (p) => p.DailyArchiveSchema,
  );
}

export function getDailyReveal(
  date: string,
  preset: DailyPreset,
): Promise<z.infer<Protocol['DailyRevealSchema']>> {
  return callApi(
    (c) => c.getDailyReveal(date, preset),
    (p) => p.DailyRevealSchema,
  );
}

/** Starts the caller's one ranked attempt (409 `conflict` the second time). */
export function startRankedAttempt(date: string, preset: DailyPreset): Promise<GameResponse> {
  return callApi(
    (c) => c.startDailyAttempt(date, preset),
    (p) => p.GameResponseSchema,
  );
}

/** An unranked practice game of a daily's deal. */
export function startPractice(date: string, preset: DailyPreset): Promise<GameResponse> {
  return callApi(
    (c) => c.startDailyPractice(date, preset),
    (p) => p.GameResponseSchema,
  );
}

/** A page of a daily leaderboard: `{offset, limit}` or the page around the caller. */
export function getDailyLeaderboard(
  date: string,
  preset: DailyPreset,
  page: { offset?: number; limit?: number; aroundMe?: boolean },
): Promise<z.infer<Protocol['LeaderboardSchema']>> {
  const query = {
    ...(page.offset !== undefined ? { offset: page.offset } : {}),
    ...(page.limit !== undefined ? { limit: page.limit } : {}),
    ...(page.aroundMe ? { around: 'me' as const } : {}),
  };
  return callApi(
    (c) => c.getDailyLeaderboard(date, preset, query),
    (p) => p.LeaderboardSchema,
  );
}
