/** REST calls of the rating leaderboards (docs/ratings.md "Where to see it"), through the typed client. */
import type { Protocol } from './schemas';
import type { Board, RatingPool } from '@klondike/protocol';
import type { z } from 'zod';
import { callApi } from './api';

/** A page of a rating leaderboard. */
export type RatingLeaderboard = z.infer<Protocol['RatingLeaderboardSchema']>;

/** The first `limit` rows of `pool` on `board`, best first; provisional ratings only when asked for. */
export function getRatingLeaderboard(
  pool: RatingPool,
  board: Board,
  includeProvisional: boolean,
  limit = 100,
): Promise<RatingLeaderboard> {
  const query = { board, limit, ...(includeProvisional ? { include: 'provisional' as const } : {}) };
  return callApi(
    (c) => c.getRatingLeaderboard(pool, query),
    (p) => p.RatingLeaderboardSchema,
  );
}
