/**
 * Liveness and readiness, for load balancers and orchestrators:
 * - `GET /api/health`: the process is up and serving (never touches the database);
 * - `GET /api/ready`: this node can serve games: the database answers within a second, every migration on
 *   disk is applied, and the solver's last thread start did not fail (threads start on demand). 503 (with
 *   Retry-After) otherwise, so a balancer takes the node out of rotation while its database is away and back
 *   when it returns. Its `background` field says what the daily job is doing (today ready, archive days
 *   pending, the daily job's solver jobs running); with several nodes `redis` says whether Redis is up.
 *   Neither ever makes a node unready: background work runs on, and without Redis a node still serves every
 *   game.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC } from '../infra/http/api-security.js';
import { HealthResponseSchema, ReadyResponseSchema, type ReadyResponse } from '@klondike/protocol';
import { RETRY_AFTER_SECONDS } from '../infra/db/availability.js';
import { finishedMigrations } from '../infra/db/finished-migrations.js';
import { isDailyWork } from '../features/solve/scheduler.js';

/** How long the readiness probe waits for the database, ms. */
export const READY_DB_TIMEOUT_MS = 1000;

export const healthRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/health',
    {
      config: { rateLimit: false },
      schema: {
        operationId: 'getHealth',
        security: PUBLIC,
        tags: ['health'],
        summary: 'Liveness check',
        response: { 200: HealthResponseSchema },
      },
    },
    () => Promise.resolve({ status: 'ok' as const }),
  );

  /** Migration names that must be recorded as finished: everything on disk when the database was opened. */
  const expected = [...app.db.migrations.alreadyApplied, ...app.db.migrations.applied];

  /** The names of the finished migrations, or null when the database did not answer in time. */
  async function migrationsDone(): Promise<Set<string> | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), READY_DB_TIMEOUT_MS);
    });
    const query = finishedMigrations(app.db).catch(() => null);
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  app.get(
    '/api/ready',
    {
      config: { rateLimit: false },
      schema: {
        operationId: 'getReadiness',
        security: PUBLIC,
        tags: ['health'],
        summary: 'Readiness check',
        description:
          '200 when the database answers, every migration is applied and the solver threads start; else 503.',
        response: { 200: ReadyResponseSchema, 503: ReadyResponseSchema },
      },
    },
    async (_req, reply) => {
      const done = await migrationsDone();
      const checks: ReadyResponse['checks'] = {
        database: done !== null,
        migrations: done !== null && expected.every((name) => done.has(name)),
        solver: !app.solver.failed,
      };
      const ready = checks.database && checks.migrations && checks.solver;
      if (!ready) reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
      const background = {
        daily: app.daily.status(),
        running: app.solver
          .running()
          .filter((j) => isDailyWork(j.priority))
          .map((j) => ({ job: j.label ?? j.priority, ms: j.ms })),
        queued: app.solver.queuedBackground,
      };
      return {
        status: ready ? ('ready' as const) : ('unready' as const),
        checks,
        background,
        ...(app.bus.kind === 'redis' ? { redis: app.bus.connected } : {}),
      };
    },
  );
  return Promise.resolve();
};
