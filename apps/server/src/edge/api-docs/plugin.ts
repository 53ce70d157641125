/**
 * Plugin `swagger`: the published API documents, and Swagger UI.
 *
 * - `/docs/json`: the OpenAPI document of the REST API, generated from the routes' zod schemas by
 *   fastify-type-provider-zod, declaring the bearer scheme (http/api-security.ts) and finished by
 *   api-docs/openapi-document.ts (shared answers and headers, examples, no unused components);
 * - `/docs`: Swagger UI on it (its Authorize button takes a player token);
 * - `/docs/asyncapi.json`: the AsyncAPI 3 document of the WebSocket protocol (api-docs/asyncapi.ts).
 *
 * Must be registered before the routes. `pnpm lint` lints both documents (scripts/api-documents.ts).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_CONTACT, API_LICENSE, API_VERSION } from './api-info.js';
import { SECURITY_SCHEMES } from '../../infra/http/api-security.js';
import { asyncApiDocument } from './asyncapi.js';
import { NO_RATE_LIMIT, type OpenApiDocument, finishOpenApiDocument } from './openapi-document.js';

/** Where the AsyncAPI document is served. */
export const ASYNCAPI_PATH = '/docs/asyncapi.json';

/** Registers @fastify/swagger, @fastify/swagger-ui and the AsyncAPI document's route. */
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
            'A player token (`POST /api/players`) goes in `Authorization: Bearer <token>` (the Authorize button). ' +
            `Live updates: the WebSocket at \`/api/ws\`, described by the [AsyncAPI document](${ASYNCAPI_PATH}).`,
          version: API_VERSION,
          license: { name: API_LICENSE.name, identifier: API_LICENSE.identifier },
          contact: API_CONTACT,
        },
        servers: [{ url: '/', description: 'The server this document is served by' }],
        components: { securitySchemes: SECURITY_SCHEMES },
        tags: [
          { name: 'games', description: 'Create and play games' },
          { name: 'players', description: 'Players and their tokens (Authorization: Bearer <token>)' },
          { name: 'daily', description: 'Daily challenges, ranked attempts and leaderboards' },
          { name: 'races', description: 'Race a friend on the same deal, live (frames on /api/ws)' },
          { name: 'solver', description: 'Solve a deal; hints and the "still winnable?" badge' },
          {
            name: 'fair-play',
            description: 'Reports, the caller’s fair-play standing and appeal, the published figures',
          },
          {
            name: 'moderation',
            description: 'Moderators only (403 for others): the queue, marks, the audit log',
          },
          {
            name: 'streams',
            description:
              'NDJSON over HTTP (application/x-ndjson): a game live, your events, exports of games',
          },
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

    const asyncApi = asyncApiDocument();
    app.get(ASYNCAPI_PATH, { schema: { hide: true } }, (req) =>
      Promise.resolve({
        ...asyncApi,
        // The socket of the server answering, as the caller reached it.
        servers: {
          this: {
            ...asyncApi.servers.this,
            host: req.host,
            protocol: req.protocol === 'https' ? 'wss' : 'ws',
          },
        },
      }),
    );
  },
  { name: 'swagger', fastify: '5.x' },
);
