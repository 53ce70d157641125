/**
 * `GET /api/status`: the public status page's figures (service.ts). With STATUS_OPERATOR_TOKEN set, the
 * operator's incident routes too (header `X-Operator-Token`; hidden from the API documents): `POST
 * /api/status/incidents` records an open incident, `POST /api/status/incidents/:id/resolve` resolves one.
 * Without the setting, or with another token, they answer 404 like any unknown path, and change nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { IncidentBodySchema, IncidentSchema, StatusResponseSchema } from '@klondike/protocol';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC } from '../../infra/http/api-security.js';
import { ApiError } from '../../infra/errors.js';

/** The header that carries the operator's token. */
export const OPERATOR_TOKEN_HEADER = 'x-operator-token';

/** SHA-256 of a text (equal lengths, so that the comparison takes the same time whatever the guess). */
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

export const statusRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/status',
    {
      schema: {
        operationId: 'getStatus',
        security: PUBLIC,
        tags: ['health'],
        summary: 'Service status for players',
        description:
          'Whether each part (moves, daily, races, solver, the nodes together) is up, degraded or down, with a ' +
          'reason code, and the last incidents the operator recorded. Read at most every 2 s.',
        response: { 200: StatusResponseSchema },
      },
    },
    () => app.status.status(),
  );

  const token = app.config.statusOperatorToken;
  const expected = token === undefined ? null : digest(token);
  /**
   * The operator's check, before the body is read (so that nobody else learns anything from validation):
   * `not-found`, as for an unknown path, unless the request carries the operator's token.
   */
  const requireOperator = (req: FastifyRequest, _reply: unknown, done: (e?: Error) => void): void => {
    const sent = req.headers[OPERATOR_TOKEN_HEADER];
    if (expected !== null && typeof sent === 'string' && timingSafeEqual(digest(sent), expected)) done();
    else done(new ApiError('not-found', `no route ${req.method} ${req.url.split('?')[0] ?? ''}`));
  };

  app.post(
    '/api/status/incidents',
    {
      schema: { hide: true, body: IncidentBodySchema, response: { 201: IncidentSchema } },
      preValidation: requireOperator,
    },
    async (req, reply) => {
      const b = req.body;
      const incident = await app.status.repository.addIncident(
        { title: b.title, details: b.details ?? null, impact: b.impact },
        new Date(app.now()),
      );
      return reply.code(201).send(incident);
    },
  );

  app.post(
    '/api/status/incidents/:id/resolve',
    {
      schema: {
        hide: true,
        params: z.object({ id: z.string().max(64) }),
        response: { 200: IncidentSchema },
      },
      preValidation: requireOperator,
    },
    async (req) => {
      const resolved = await app.status.repository.resolveIncident(req.params.id, new Date(app.now()));
      if (resolved === null) throw new ApiError('not-found', 'no such incident');
      return resolved;
    },
  );
  return Promise.resolve();
};
