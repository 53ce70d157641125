/**
 * Statistics routes (docs/features.md "Statistics"): GET /api/players/:id/stats — public, like the player page —
 * and GET /api/players/:id/games, the player's own history (its token only: casual games are private play).
 */
import {
  ErrorBodySchema,
  HistoryPageSchema,
  HistoryQuerySchema,
  PlayerIdSchema,
  PlayerStatisticsSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC, tokenRequired } from '../../infra/http/api-security.js';
import { z } from 'zod';
import { ApiError } from '../../infra/errors.js';
import { requirePlayer } from './plugin.js';
import { playerHistory, playerStatistics } from './stats.js';

const errors = (...codes: (400 | 401 | 403 | 404)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the statistics and history routes. */
export const statsRoutes: FastifyPluginAsyncZod = (app) => {
  const stats = app.playerStats;
  app.get(
    '/api/players/:id/stats',
    {
      schema: {
        operationId: 'getPlayerStatistics',
        security: PUBLIC,
        tags: ['players'],
        summary: "A player's statistics (public)",
        description:
          'Every finished game of the player (casual games created with its token included): per preset games, ' +
          'wins, win rate, streaks, best and average time and moves of the wins, Vegas balance; the win rate ' +
          'per day over the last 90 days; a histogram of winning times; ranked daily results of the last 30 days.',
        params: z.object({ id: PlayerIdSchema }),
        response: { 200: PlayerStatisticsSchema, ...errors(400, 404) },
      },
    },
    async (req) =>
      playerStatistics(stats, req.params.id, app.now(), (r, board) => app.daily.rankOf(r, board)),
  );

  app.get(
    '/api/players/:id/games',
    {
      schema: {
        operationId: 'listPlayerGames',
        security: tokenRequired('read'),
        tags: ['players'],
        summary: "A player's finished games, newest first (the player's own token only)",
        description:
          '`preset` (a preset name or `custom`), `result` (`won`, or `lost` = resigned or blocked), `limit` ' +
          "(1–100, default 20) and `cursor` (the previous page's `nextCursor`). Each row says whether its replay " +
          "(`GET /api/games/:id/replay`) is open. 401 without a token, 403 with another player's.",
        params: z.object({ id: PlayerIdSchema }),
        querystring: HistoryQuerySchema,
        response: { 200: HistoryPageSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      if ((await stats.player(req.params.id)) === null)
        throw new ApiError('not-found', `no player ${req.params.id}`);
      if (requirePlayer(req).id !== req.params.id)
        throw new ApiError('forbidden', "a player's game history is theirs alone");
      return playerHistory(stats, req.params.id, req.query, app.now());
    },
  );
  return Promise.resolve();
};
