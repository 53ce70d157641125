/**
 * Personal access token routes (issue 59): POST /api/tokens (the token shown once), GET /api/tokens,
 * DELETE /api/tokens/:id. All three need the account's sign-in token (scope `account`): a personal token
 * can neither make, list nor revoke tokens. A revoked token stops working on every node within a second
 * (the revocation path of a rotation, players/token-revocation.ts).
 */
import {
  AccessTokenIdSchema,
  AccessTokenListQuerySchema,
  AccessTokenListSchema,
  CreateAccessTokenBodySchema,
  CreatedAccessTokenSchema,
  ErrorBodySchema,
  RevokedAccessTokenSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tokenRequired } from '../../infra/http/api-security.js';
import { slicePage } from '../../infra/http/pagination.js';
import { createAccessToken, deleteAccessToken, listAccessTokens } from './access-tokens.js';
import { requirePlayer } from './plugin.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 409)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the personal access token routes. */
export const accessTokenRoutes: FastifyPluginAsyncZod = (app) => {
  const rows = app.accessTokens;

  app.post(
    '/api/tokens',
    {
      schema: {
        operationId: 'createAccessToken',
        security: tokenRequired('account'),
        tags: ['players'],
        summary: 'Make a personal access token with scopes',
        description:
          'A named token for a script, a bot or a CI job, holding only `scopes` (docs/api.md "Tokens and ' +
          'scopes"), until `expiresAt` (at most a year ahead) or until revoked. The `token` is shown this ' +
          'once; only its SHA-256 is kept. Needs the sign-in token (403 `missing-scope` with a personal one); ' +
          '409 beyond 50 tokens.',
        body: CreateAccessTokenBodySchema,
        response: { 201: CreatedAccessTokenSchema, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await createAccessToken(rows, requirePlayer(req).id, req.body, app.now())),
  );

  app.get(
    '/api/tokens',
    {
      schema: {
        operationId: 'listAccessTokens',
        security: tokenRequired('account'),
        tags: ['players'],
        summary: "The caller's personal access tokens (never the tokens themselves)",
        description:
          'Name, scopes, when made, when it expires, when last used (to the minute), newest first.',
        querystring: AccessTokenListQuerySchema,
        response: { 200: AccessTokenListSchema, ...errors(400, 401, 403) },
      },
    },
    async (req) => {
      const all = await listAccessTokens(rows, requirePlayer(req).id);
      const { page, nextCursor } = slicePage('tokens', all, req.query);
      return { tokens: page, nextCursor };
    },
  );

  app.delete(
    '/api/tokens/:id',
    {
      schema: {
        operationId: 'revokeAccessToken',
        security: tokenRequired('account'),
        tags: ['players'],
        summary: 'Revoke a personal access token',
        description:
          'The token stops working at once: REST answers 401 `unknown-token`, and every socket authenticated ' +
          'with it, on any node, gets an `unknown-token` error frame and is closed with code 4401 within a ' +
          'second. 404 for a token the caller does not hold.',
        params: z.object({ id: AccessTokenIdSchema }),
        response: { 200: RevokedAccessTokenSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const player = requirePlayer(req);
      const tokenHash = await deleteAccessToken(rows, player.id, req.params.id);
      app.tokenRevocations.revoke({ playerId: player.id, tokenHash });
      return { id: req.params.id, revoked: true as const };
    },
  );
  return Promise.resolve();
};
