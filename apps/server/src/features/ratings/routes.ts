/**
 * Rating routes (docs/ratings.md): GET /api/ratings/:pool (a rating leaderboard) and
 * GET /api/players/:id/ratings (a player's ratings with one history point per rating period).
 */
import {
  ErrorBodySchema,
  PlayerIdSchema,
  PlayerRatingHistorySchema,
  RatingLeaderboardQuerySchema,
  RatingLeaderboardSchema,
  RatingPoolParamsSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC } from '../../infra/http/api-security.js';
import { nextCursor, pageStart } from '../../infra/http/pagination.js';

export const ratingRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/ratings/:pool',
    {
      schema: {
        operationId: 'getRatingLeaderboard',
        security: PUBLIC,
        tags: ['ratings'],
        summary: 'A rating leaderboard: one pool and board, best rating first',
        params: RatingPoolParamsSchema,
        querystring: RatingLeaderboardQuerySchema,
        response: { 200: RatingLeaderboardSchema, 400: ErrorBodySchema },
      },
    },
    async (req) => {
      const q = req.query;
      const offset = pageStart('ratings', q);
      const page = await app.ratings.leaderboard(req.params.pool, {
        offset,
        limit: q.limit,
        includeProvisional: q.include === 'provisional',
        board: q.board,
      });
      const next = nextCursor('ratings', offset, page.entries.length, page.total);
      return { pool: req.params.pool, board: q.board, offset, limit: q.limit, ...page, nextCursor: next };
    },
  );

  app.get(
    '/api/players/:id/ratings',
    {
      schema: {
        operationId: 'getPlayerRatings',
        security: PUBLIC,
        tags: ['ratings'],
        summary: "A player's ratings and their history (one point per rating period)",
        params: z.object({ id: PlayerIdSchema }),
        response: { 200: PlayerRatingHistorySchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req) => ({ id: req.params.id, ...(await app.ratings.history(req.params.id)) }),
  );
  return Promise.resolve();
};
