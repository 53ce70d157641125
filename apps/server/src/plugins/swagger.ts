/**
 * Plugin `swagger`: the OpenAPI document (at /docs/json) and Swagger UI (at /docs), generated from the
 * routes' zod schemas by fastify-type-provider-zod. Must be registered before the routes.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** Registers @fastify/swagger and @fastify/swagger-ui. */
export const swaggerPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Klondike game API',
          description:
            'Authoritative Klondike Solitaire server. Notation: cards `TH`, piles `stock waste t1…t7 fC fD fH fS`. ' +
            'Every write carries the version the client last saw; a stale version gets 409 with the current one. ' +
            'Live updates: WebSocket at `/api/ws` (frames in @klondike/protocol).',
          version: '0.1.0',
        },
        tags: [
          { name: 'games', description: 'Create and play games' },
          { name: 'players', description: 'Players and their tokens (Authorization: Bearer <token>)' },
          { name: 'daily', description: 'Daily challenges, ranked attempts and leaderboards' },
          { name: 'races', description: 'Race a friend on the same deal, live (frames on /api/ws)' },
          { name: 'health', description: 'Liveness and readiness' },
        ],
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'swagger', fastify: '5.x' },
);
