/**
 * Moderation routes (docs/moderation.md). `fairPlayRoutes`: POST /api/reports, GET /api/me/fair-play,
 * POST /api/appeals, GET /api/fair-play/stats. `modRoutes`: every /api/mod… route, in a plugin of its own
 * whose one preValidation hook refuses anyone but a moderator (401 without a token, 403 `forbidden` for
 * others) before the body is even read, so no route of it can forget the check.
 */
import {
  AppealBodySchema,
  AppealDecisionBodySchema,
  AppealSchema,
  ErrorBodySchema,
  FairPlayStandingSchema,
  FairPlayStatsSchema,
  MarkResultSchema,
  ModLogQuerySchema,
  ModLogSchema,
  ModPlayerViewSchema,
  ModQueueQuerySchema,
  ModQueueSchema,
  ModReasonBodySchema,
  ModRenameBodySchema,
  PlayerIdSchema,
  ReportBodySchema,
  ReportSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../infra/errors.js';
import { PUBLIC, tokenRequired } from '../../infra/http/api-security.js';
import { decodeCursor, encodeCursor, slicePage } from '../../infra/http/pagination.js';
import { requirePlayer } from '../players/plugin.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 409 | 429)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the players' fair-play routes: reports, their own standing and appeal, the published figures. */
export const fairPlayRoutes: FastifyPluginAsyncZod = (app) => {
  const service = app.moderation;
  // Per reporter (their player id), on top of the per-address limit; off with the rest of rate limiting.
  const perReporter =
    app.config.rateLimitMax > 0 && app.config.reportRateMax > 0
      ? app.createRateLimit({
          max: app.config.reportRateMax,
          timeWindow: 3_600_000,
          keyGenerator: (req) => `report:${req.player?.id ?? ''}`,
        })
      : undefined;

  app.post(
    '/api/reports',
    {
      schema: {
        operationId: 'createReport',
        security: tokenRequired('report:write'),
        tags: ['fair-play'],
        summary: 'Report a player to the moderators',
        description:
          'One open report per reporter and player (409 while it is open; once a moderator closes it, a new ' +
          'one may be filed). Not yourself (400); the player and the game, if given, must exist (404). A ' +
          'marked or closed account cannot report (403). At most `REPORT_RATE_MAX` reports per reporter and ' +
          'hour (429).',
        body: ReportBodySchema,
        response: { 201: ReportSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const player = requirePlayer(req);
      if (perReporter !== undefined) {
        const r = await perReporter(req);
        if (!r.isAllowed && r.isExceeded) {
          reply.header('retry-after', String(r.ttlInSeconds));
          throw new ApiError(
            'rate-limited',
            `at most ${r.max} reports an hour, retry in ${r.ttlInSeconds} s`,
          );
        }
      }
      return reply.code(201).send(await service.report(player.id, req.body));
    },
  );

  app.get(
    '/api/me/fair-play',
    {
      schema: {
        operationId: 'getMyFairPlay',
        security: tokenRequired('read'),
        tags: ['fair-play'],
        summary: "The caller's fair-play standing: their mark, its appeal, whether they may appeal",
        response: { 200: FairPlayStandingSchema, ...errors(401) },
      },
    },
    async (req) => service.standing(requirePlayer(req).id),
  );

  app.post(
    '/api/appeals',
    {
      schema: {
        operationId: 'createAppeal',
        security: tokenRequired('report:write'),
        tags: ['fair-play'],
        summary: "Appeal against the caller's mark (once per mark)",
        description:
          'Only a marked player (403 otherwise), once per mark (409). The appeal enters the queue.',
        body: AppealBodySchema,
        response: { 201: AppealSchema, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => reply.code(201).send(await service.appeal(requirePlayer(req).id, req.body.text)),
  );

  app.get(
    '/api/fair-play/stats',
    {
      schema: {
        operationId: 'getFairPlayStats',
        security: PUBLIC,
        tags: ['fair-play'],
        summary: 'The published figures: reports, flags, marks, unmarks and appeals by month',
        response: { 200: FairPlayStatsSchema },
      },
    },
    async () => service.stats(),
  );
  return Promise.resolve();
};

const PlayerParams = z.object({ id: PlayerIdSchema });

/** Registers the moderators' routes (/api/mod…), all behind one moderator check. */
export const modRoutes: FastifyPluginAsyncZod = (app) => {
  const service = app.moderation;
  // After the `auth` plugin's preValidation (registered on the root first), before the body is validated.
  app.addHook('preValidation', async (req) => {
    const player = requirePlayer(req);
    if (!(await service.isModerator(player.id)))
      throw new ApiError('forbidden', 'this is for moderators only');
  });
  const mod = { security: tokenRequired('account'), tags: ['moderation'] };

  app.get(
    '/api/mod/queue',
    {
      schema: {
        ...mod,
        operationId: 'getModQueue',
        summary: 'The queue: flagged, reported and appealing players with their evidence',
        querystring: ModQueueQuerySchema,
        response: { 200: ModQueueSchema, ...errors(400, 401, 403) },
      },
    },
    async (req) => {
      const queue = await service.queue();
      const { page, nextCursor } = slicePage('mod-queue', queue.entries, req.query);
      return { entries: page, nextCursor };
    },
  );

  app.get(
    '/api/mod/players/:id',
    {
      schema: {
        ...mod,
        operationId: 'getModPlayer',
        summary: 'Everything moderators know about one player',
        params: PlayerParams,
        response: { 200: ModPlayerViewSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => service.playerView(req.params.id),
  );

  app.post(
    '/api/mod/players/:id/mark',
    {
      schema: {
        ...mod,
        operationId: 'markPlayer',
        summary: 'Mark a player: off every board, and their beaten opponents refunded',
        description:
          'Closes their open flags and reports; every opponent they placed above in a rated race (arena ' +
          'races included) gets back the rating that race cost them. 409 when already marked.',
        params: PlayerParams,
        body: ModReasonBodySchema,
        response: { 200: MarkResultSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => service.mark(requirePlayer(req).id, req.params.id, req.body.reason),
  );

  app.post(
    '/api/mod/players/:id/unmark',
    {
      schema: {
        ...mod,
        operationId: 'unmarkPlayer',
        summary: "Lift a player's mark and take back its refunds",
        params: PlayerParams,
        body: ModReasonBodySchema,
        response: { 200: MarkResultSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => service.unmark(requirePlayer(req).id, req.params.id, req.body.reason),
  );

  app.post(
    '/api/mod/players/:id/rename',
    {
      schema: {
        ...mod,
        operationId: 'renamePlayerAsModerator',
        summary: 'Rename a player (the players’ name rules apply)',
        params: PlayerParams,
        body: ModRenameBodySchema,
        response: { 200: ModPlayerViewSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => service.rename(requirePlayer(req).id, req.params.id, req.body.name, req.body.reason),
  );

  app.post(
    '/api/mod/players/:id/close',
    {
      schema: {
        ...mod,
        operationId: 'closePlayer',
        summary: "Close a player's account: every device signed out at once",
        params: PlayerParams,
        body: ModReasonBodySchema,
        response: { 200: ModPlayerViewSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => service.close(requirePlayer(req).id, req.params.id, req.body.reason),
  );

  app.post(
    '/api/mod/players/:id/dismiss',
    {
      schema: {
        ...mod,
        operationId: 'dismissPlayer',
        summary: "Close a player's open flags and reports without a mark",
        params: PlayerParams,
        body: ModReasonBodySchema,
        response: { 200: ModPlayerViewSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => service.dismiss(requirePlayer(req).id, req.params.id, req.body.reason),
  );

  app.post(
    '/api/mod/appeals/:id/decide',
    {
      schema: {
        ...mod,
        operationId: 'decideAppeal',
        summary: 'Decide an appeal (granted lifts the mark)',
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: AppealDecisionBodySchema,
        response: { 200: AppealSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) =>
      service.decideAppeal(requirePlayer(req).id, req.params.id, req.body.outcome, req.body.answer),
  );

  app.get(
    '/api/mod/log',
    {
      schema: {
        ...mod,
        operationId: 'getModLog',
        summary: 'The audit log: every action with its moderator and reason, newest first',
        querystring: ModLogQuerySchema,
        response: { 200: ModLogSchema, ...errors(400, 401, 403) },
      },
    },
    async (req) => {
      const q = req.query;
      const before = q.cursor !== undefined ? decodeCursor('mod-log', q.cursor) : q.before;
      const log = await service.log(before, q.limit);
      return { ...log, nextCursor: log.next === null ? null : encodeCursor('mod-log', log.next) };
    },
  );
  return Promise.resolve();
};
