/** `GET /api/status`: the public status page's figures (service.ts). */
import { StatusResponseSchema } from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC } from '../../infra/http/api-security.js';

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
  return Promise.resolve();
};
