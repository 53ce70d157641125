/**
 * `buildApp`: the whole server as a Fastify plugin tree, without `listen` (main.ts listens; tests inject).
 *
 * Plugins, in order: config → security → bus → db → auth → fair-play → game-rooms → rate-limit → solver →
 * ratings → daily → races → pairing → arenas → game-policies → maintenance → websocket → swagger →
 * web-client → routes.
 * A global error handler turns every failure into `{"error":{"code","message",...}}` with protocol's
 * API_ERROR_STATUS; the not-found handler answers /api paths with 404 `not-found` and serves the web
 * client's index.html for other GET paths when the client is built (SPA fallback).
 */
import Fastify, {
  type FastifyError,
  type FastifyHttpOptions,
  type RawServerDefault,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { type AppConfig, loadConfig } from './infra/config.js';
import { RETRY_AFTER_SECONDS } from './infra/db/availability.js';
import { apiErrorOf, errorBody } from './infra/errors.js';
import { LOG_REDACT_PATHS, logSerializers } from './infra/http/logging.js';
import { isApiPath } from './infra/http/paths.js';
import { authPlugin } from './features/players/plugin.js';
import { configPlugin } from './edge/plugins/config.js';
import { busPlugin } from './edge/plugins/bus.js';
import { dailyPlugin } from './features/daily/plugin.js';
import { ratingsPlugin } from './features/ratings/plugin.js';
import { gamePoliciesPlugin } from './edge/plugins/game-policies.js';
import { dbPlugin } from './edge/plugins/db.js';
import { fairPlayPlugin } from './features/fairness/plugin.js';
import { maintenancePlugin } from './features/maintenance/plugin.js';
import { racesPlugin } from './features/races/plugin.js';
import { pairingPlugin } from './features/pairing/plugin.js';
import { arenasPlugin } from './features/arenas/plugin.js';
import { gameRoomsPlugin } from './core/games/plugin.js';
import { rateLimitPlugin } from './edge/plugins/rate-limit.js';
import { securityPlugin } from './edge/plugins/security.js';
import { solverPlugin } from './features/solve/plugin.js';
import { hasWebClient, staticPlugin } from './edge/plugins/static.js';
import { swaggerPlugin } from './edge/api-docs/plugin.js';
import { websocketPlugin } from './edge/plugins/websocket.js';
import { dailyRoutes } from './features/daily/routes.js';
import { ratingRoutes } from './features/ratings/routes.js';
import { gameRoutes } from './core/games/routes.js';
import { healthRoutes } from './edge/health.js';
import { playerRoutes } from './features/players/routes.js';
import { raceRoutes } from './features/races/routes.js';
import { pairingRoutes } from './features/pairing/routes.js';
import { arenaRoutes } from './features/arenas/routes.js';
import { solveRoutes } from './features/solve/routes.js';
import { statsRoutes } from './features/players/stats-routes.js';
import { wsRoutes } from './edge/socket.js';
import './types.js';

/** Options of `buildApp`. */
export interface BuildAppOptions {
  /** Environment the configuration is read from (default `process.env`). */
  readonly env?: Record<string, string | undefined>;
  /** Configuration fields that win over the environment (tests: `dataDir: 'memory://'`, `rateLimitMax: 0`, …). */
  readonly config?: Partial<AppConfig>;
  /** Migrations folder (default: the repository's prisma/migrations). */
  readonly migrationsDir?: string;
  /** Where log lines go (default: stdout); tests read them to check that no hidden deal is logged. */
  readonly logStream?: { write(line: string): void };
  /** Server clock override in ms since the epoch (tests). */
  readonly now?: () => number;
}

/** Largest accepted HTTP body, in bytes (a create body with a full deal is well under 1 KB). */
export const BODY_LIMIT = 16 * 1024;

function isFastifyError(e: unknown): e is FastifyError {
  return e instanceof Error || (typeof e === 'object' && e !== null && 'statusCode' in e);
}

function statusOf(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null || !('statusCode' in e)) return undefined;
  return typeof e.statusCode === 'number' ? e.statusCode : undefined;
}

/**
 * The global error handler: ApiError as is (every 503 with Retry-After); an unreachable database as 503 `unavailable` with Retry-After; zod/Fastify validation and malformed bodies as 400
 * `bad-request`; rate limiting as 429 `rate-limited`; a body over BODY_LIMIT as 413 `body-too-large`; a body
 * that is not JSON by its content type as 415 `bad-media-type`; everything else as 500 `internal` (logged).
 */
function handleError(error: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = apiErrorOf(error);
  if (known?.code === 'unavailable') {
    req.log.warn({ err: error }, 'database unreachable');
    return reply.code(known.status).header('retry-after', String(RETRY_AFTER_SECONDS)).send(known.toBody());
  }
  // Every other 503 (overloaded, solver-busy, commit-failed) is over within a second or so: tell the client
  // when to come back (the commit queue drains within a second at capacity).
  if (known?.status === 503) return reply.code(known.status).header('retry-after', '1').send(known.toBody());
  if (known) return reply.code(known.status).send(known.toBody());
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'request';
    const issues = error.validation
      .map((v) => `${v.instancePath || '/'} ${v.message ?? 'is invalid'}`)
      .join('; ');
    return reply.code(400).send(errorBody('bad-request', `invalid ${where}: ${issues}`));
  }
  const status = statusOf(error);
  if (status === 429) {
    const message =
      isFastifyError(error) && typeof error.message === 'string' ? error.message : 'rate limit exceeded';
    return reply.code(429).send(errorBody('rate-limited', message));
  }
  if (status === 413)
    return reply
      .code(413)
      .send(errorBody('body-too-large', `request bodies are limited to ${BODY_LIMIT} bytes`));
  if (status === 415) {
    const type = req.headers['content-type'] ?? 'none';
    return reply
      .code(415)
      .send(errorBody('bad-media-type', `bodies are application/json, not ${type.slice(0, 100)}`));
  }
  if (!isResponseSerializationError(error) && status !== undefined && status >= 400 && status < 500) {
    if (status === 404) return reply.code(404).send(errorBody('not-found', 'not found'));
    const message =
      isFastifyError(error) && typeof error.message === 'string' ? error.message : 'bad request';
    return reply.code(400).send(errorBody('bad-request', message));
  }
  req.log.error({ err: error }, 'request failed');
  return reply.code(500).send(errorBody('internal', 'internal error'));
}

/**
 * Builds the server (plugins registered and ready, not listening). The database is opened and migrated
 * during `ready`; `app.close()` drains the rooms and closes the database.
 * Errors: invalid configuration, database connection or migration failures reject.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config: AppConfig = { ...loadConfig(options.env ?? process.env), ...options.config };
  const options_: FastifyHttpOptions<RawServerDefault> = {
    logger: {
      level: config.logLevel,
      serializers: logSerializers,
      redact: LOG_REDACT_PATHS,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // A hop count trusts that many proxies in front of us (as proxy-addr reads a number).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    // Opening the database may create it first (PGlite's initdb, migrations): seconds on a busy small box.
    pluginTimeout: 120_000,
  };
  const app = Fastify(options_);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // Bodies are JSON only: a text/plain body would be read as a string and refused as a bad request (400),
  // where the honest answer is 415 (issue 53).
  app.removeContentTypeParser('text/plain');
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const api = isApiPath(req.url);
    // Client-side routes get index.html; a missing build asset is a real 404 (not HTML under a .js name).
    const asset = path.startsWith('/assets/');
    if (!api && !asset && (req.method === 'GET' || req.method === 'HEAD') && hasWebClient(config.webDist)) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.code(404).send(errorBody('not-found', `no route ${req.method} ${path}`));
  });

  await app.register(configPlugin, { config, ...(options.now ? { now: options.now } : {}) });
  await app.register(securityPlugin);
  await app.register(busPlugin);
  await app.register(
    dbPlugin,
    options.migrationsDir !== undefined ? { migrationsDir: options.migrationsDir } : {},
  );
  await app.register(authPlugin);
  await app.register(fairPlayPlugin);
  await app.register(gameRoomsPlugin);
  await app.register(rateLimitPlugin);
  await app.register(solverPlugin);
  await app.register(ratingsPlugin);
  await app.register(dailyPlugin);
  await app.register(racesPlugin);
  await app.register(pairingPlugin);
  await app.register(arenasPlugin);
  await app.register(gamePoliciesPlugin);
  await app.register(maintenancePlugin);
  await app.register(websocketPlugin);
  await app.register(swaggerPlugin);
  await app.register(staticPlugin);
  await app.register(healthRoutes);
  await app.register(gameRoutes);
  await app.register(solveRoutes);
  await app.register(playerRoutes);
  await app.register(statsRoutes);
  await app.register(dailyRoutes);
  await app.register(raceRoutes);
  await app.register(pairingRoutes);
  await app.register(arenaRoutes);
  await app.register(ratingRoutes);
  await app.register(wsRoutes);
  await app.ready();
  return app;
}
