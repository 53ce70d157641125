/**
 * Player routes: POST /api/players (rate-limited more strictly), GET/PATCH /api/me, GET /api/me/transfer,
 * GET /api/players/:id. The caller is `req.player` (plugin `auth`).
 */
import {
  ErrorBodySchema,
  MeSchema,
  PlayerCreatedSchema,
  PlayerIdSchema,
  PlayerNameBodySchema,
  PlayerPageSchema,
  TransferSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, createPlayer, renamePlayer } from '../players/players.js';
import { requirePlayer } from '../plugins/auth.js';
import '../types.js';

const errors = (...codes: (400 | 401 | 404 | 409 | 429)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the player routes. */
export const playerRoutes: FastifyPluginAsyncZod = async (app) => {
  const createLimit =
    app.config.playerCreateRateMax > 0
      ? { max: app.config.playerCreateRateMax, timeWindow: 3_600_000 }
      : false;

  app.post(
    '/api/players',
    {
      config: { rateLimit: createLimit },
      schema: {
        tags: ['players'],
        summary: 'Create a player',
        description:
          'Returns the player and its secret `token` — shown this once; send it as `Authorization: Bearer <token>`. ' +
          'Names: 3–20 letters, digits, `_ . -` and single spaces, unique ignoring case (409 otherwise).',
        body: PlayerNameBodySchema,
        response: { 201: PlayerCreatedSchema, ...errors(400, 409, 429) },
      },
    },
    async (req, reply) => reply.code(201).send(await createPlayer(app.prisma, req.body.name, app.now())),
  );

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['players'],
        summary: 'The caller (needs the token)',
        response: { 200: MeSchema, ...errors(401, 404) },
      },
    },
    async (req) => app.daily.me(requirePlayer(req)),
  );

  app.patch(
    '/api/me',
    {
      schema: {
        tags: ['players'],
        summary: 'Rename the caller',
        body: PlayerNameBodySchema,
        response: { 200: MeSchema, ...errors(400, 401, 404, 409) },
      },
    },
    async (req) => {
      const renamed = await renamePlayer(app.prisma, requirePlayer(req).id, req.body.name);
      return app.daily.me(renamed);
    },
  );

  app.get(
    '/api/me/transfer',
    {
      schema: {
        tags: ['players'],
        summary: 'A sign-in link for another device',
        description: 'The link `/?token=…` carries the token: whoever opens it plays as this player.',
        response: { 200: TransferSchema, ...errors(401) },
      },
    },
    async (req) => {
      requirePlayer(req);
      const token = bearerToken(req.headers.authorization) ?? '';
      return { token, url: `/?token=${encodeURIComponent(token)}` };
    },
  );

  app.get(
    '/api/players/:id',
    {
      schema: {
        tags: ['players'],
        summary: "A player's page: statistics and recent daily results",
        params: z.object({ id: PlayerIdSchema }),
        response: { 200: PlayerPageSchema, ...errors(400, 404) },
      },
    },
    async (req) => app.daily.playerPage(req.params.id),
  );
};
