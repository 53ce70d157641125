/** REST calls of the rating leaderboards (docs/ratings.md "Where to see it"). */
import type { Protocol } from './schemas';
import type { Board, RatingPool } from '@klondike/protocol';
import type { z } from 'zod';
import { request } from './api';

/** A page of a rating leaderboard. */
export type RatingLeaderboard = z.infer<Protocol['RatingLeaderboardSchema']>;

/** The first `limit` rows of `pool` on `board`, best first; provisional ratings only when asked for. */
export function getRatingLeaderboard(
  pool: RatingPool,
  board: Board,
  includeProvisional: boolean,
  limit = 100,
): Promise<RatingLeaderboard> {
  const q = new URLSearchParams({ board, limit: String(limit) });
  if (includeProvisional) q.set('include', 'provisional');
  return request('GET', `/api/ratings/${pool}?${q}`, (p) => p.RatingLeaderboardSchema);
}
