/**
 * `buildApp`: the whole server as a Fastify plugin tree, without `listen` (main.ts listens; tests inject).
 *
 * In order: the infrastructure's plugins (config → metrics → security → bus → db); every module's plugin, in the
 * order of edge/modules.ts, and the kinds of game the modules declare; the edge's plugins, which must come
 * before any route (rate-limit, which needs `auth`; websocket; swagger; web-client); the routes (health,
 * every module's, the socket). Failures and unknown paths are answered by edge/errors.ts.
 */
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type RawServerDefault } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './infra/config.js';
import { LOG_REDACT_PATHS, logSerializers } from './infra/http/logging.js';
import { swaggerPlugin } from './edge/api-docs/plugin.js';
import { loadConfig } from './edge/config.js';
import { BODY_LIMIT, handleError, notFoundHandler } from './edge/errors.js';
import { healthRoutes } from './edge/health.js';
import { MODULES } from './edge/modules.js';
import { busPlugin } from './edge/plugins/bus.js';
import { configPlugin } from './edge/plugins/config.js';
import { dbPlugin } from './edge/plugins/db.js';
import { paginationPlugin } from './edge/plugins/pagination.js';
import { rateLimitPlugin } from './edge/plugins/rate-limit.js';
import { securityPlugin } from './edge/plugins/security.js';
import { staticPlugin } from './edge/plugins/static.js';
import { websocketPlugin } from './edge/plugins/websocket.js';
import { wsRoutes } from './edge/socket.js';
import { metricsPlugin } from './edge/plugins/metrics.js';
import { registerEdgeMetrics } from './edge/metrics.js';
import { REQUEST_ID_HEADER, requestIdGenerator } from './infra/http/request-id.js';

export { BODY_LIMIT } from './edge/errors.js';

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

/** Fastify's options for `config`: the logger, the proxies trusted, the body limit, timeouts. */
function serverOptions(
  config: AppConfig,
  logStream: BuildAppOptions['logStream'],
): FastifyHttpOptions<RawServerDefault> {
  return {
    logger: {
      level: config.logLevel,
      serializers: logSerializers,
      redact: LOG_REDACT_PATHS,
      ...(logStream ? { stream: logStream } : {}),
    },
    // A hop count trusts that many proxies in front of us (as proxy-addr reads a number).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    // Request ids (infra/http/request-id.ts): a trusted proxy's X-Request-Id, else a UUID; logged as `reqId`
    // (Fastify's default label).
    genReqId: requestIdGenerator(config.trustProxy),
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    // Opening the database may create it first (PGlite's initdb, migrations): seconds on a busy small box.
    pluginTimeout: 120_000,
  };
}

/**
 * Builds the server (plugins registered and ready, not listening). The database is opened and migrated
 * during `ready`; `app.close()` drains the rooms and closes the database.
 * Errors: invalid configuration, database connection or migration failures reject.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config: AppConfig = { ...loadConfig(options.env ?? process.env), ...options.config };
  const app = Fastify(serverOptions(config, options.logStream));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // Bodies are JSON only: a text/plain body would be read as a string and refused as a bad request (400),
  // where the honest answer is 415 (issue 53).
  app.removeContentTypeParser('text/plain');
  app.setNotFoundHandler(notFoundHandler(config.webDist));
  // Every answer names its request's id, so that a client's report can be found in the log.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });

  // The infrastructure.
  await app.register(configPlugin, { config, ...(options.now ? { now: options.now } : {}) });
  await app.register(metricsPlugin);
  await app.register(securityPlugin);
  await app.register(busPlugin);
  await app.register(
    dbPlugin,
    options.migrationsDir !== undefined ? { migrationsDir: options.migrationsDir } : {},
  );
  // The modules' services, then their kinds of game (a policy may use its feature's service).
  for (const module of MODULES) await app.register(module.plugin);
  for (const module of MODULES) if (module.games) app.gameKinds.declare(module.games(app));
  registerEdgeMetrics(app);
  // The edge's plugins, before any route (the rate limit and the socket apply to routes registered after them).
  await app.register(rateLimitPlugin);
  await app.register(paginationPlugin);
  await app.register(websocketPlugin);
  await app.register(swaggerPlugin);
  await app.register(staticPlugin);
  // The routes.
  await app.register(healthRoutes);
  for (const module of MODULES) for (const routes of module.routes ?? []) await app.register(routes);
  await app.register(wsRoutes);
  await app.ready();
  return app;
}
