/**
 * Plugin `swagger`: the OpenAPI document (at /docs/json) and Swagger UI (at /docs), generated from the
 * routes' zod schemas by fastify-type-provider-zod. Must be registered before the routes.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SECURITY_SCHEMES } from '../http/api-security.js';
import { NO_RATE_LIMIT, type OpenApiDocument, finishOpenApiDocument } from '../http/openapi-document.js';

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
          license: { name: 'MIT', identifier: 'MIT' },
          contact: { name: 'Klondike Online' },
        },
        servers: [{ url: '/', description: 'The server this document is served by' }],
        components: { securitySchemes: SECURITY_SCHEMES },
        tags: [
          { name: 'games', description: 'Create and play games' },
          { name: 'players', description: 'Players and their tokens (Authorization: Bearer <token>)' },
          { name: 'daily', description: 'Daily challenges, ranked attempts and leaderboards' },
          { name: 'races', description: 'Race a friend on the same deal, live (frames on /api/ws)' },
          { name: 'solver', description: 'Solve a deal; hints and the "still winnable?" badge' },
          { name: 'health', description: 'Liveness and readiness' },
        ],
      },
      transform: (input) => {
        const out = jsonSchemaTransform(input);
        // Routes without a rate limit get no 429 and no RateLimit headers (openapi-document.ts).
        if (input.route.config?.rateLimit === false && out.schema !== undefined)
          return { ...out, schema: { ...out.schema, [NO_RATE_LIMIT]: true } };
        return out;
      },
      transformObject: (input) =>
        finishOpenApiDocument(jsonSchemaTransformObject(input) as OpenApiDocument) as ReturnType<
          typeof jsonSchemaTransformObject
        >,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'swagger', fastify: '5.x' },
);
