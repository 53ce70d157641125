/**
 * Plugin `rate-limit`: @fastify/rate-limit on every API route (per client IP; the web client's files and
 * pages are not counted), off when `config.rateLimitMax` is 0; with `REDIS_URL` its counters are kept in
 * Redis, shared by every node, and in this node's memory while Redis is away (http/rate-limit-store.ts:
 * the limit is then per node, and no request waits for Redis). Refusals go through the global error
 * handler as `429 rate-limited`.
 *
 * Bot accounts also have a limit of their own per token (`botRateLimitMax` per window): it is checked after
 * the `auth` plugin has found the caller (preHandler), on top of the per-address limit, which still runs
 * first so that made-up tokens are counted before they cost a database look-up.
 *
 * Decorates `app.solverAllowance` (solve/allowance.ts): `SOLVE_RATE_MAX` per client per minute shared
 * by `POST /api/solve` and typed-deal games; a no-op while rate limits are off or `SOLVE_RATE_MAX` is 0.
 */
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { RedisBus } from '../../infra/bus/event-bus.js';
import { ApiError } from '../../infra/errors.js';
import { redisWithLocalFallback } from '../../infra/http/rate-limit-store.js';
import {
  NO_SOLVER_ALLOWANCE,
  type SolverAllowance,
  solverAllowance,
} from '../../features/solve/allowance.js';
import { isApiPath } from '../../infra/http/paths.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts a request against its client's solver allowance (`SOLVE_RATE_MAX` a minute, shared by
     * POST /api/solve and typed-deal games); 429 `rate-limited` over it (plugin `rate-limit`).
     */
    solverAllowance: SolverAllowance;
  }
}

/** Registers the global rate limit (API paths only) and the per-bot limit. */
export const rateLimitPlugin = fp(
  async (app) => {
    if (app.config.rateLimitMax === 0) {
      app.decorate('solverAllowance', NO_SOLVER_ALLOWANCE);
      return;
    }
    await app.register(rateLimit, {
      global: true,
      max: app.config.rateLimitMax,
      timeWindow: app.config.rateLimitWindowMs,
      enableDraftSpec: true,
      // Several nodes (REDIS_URL): the counters live in Redis, so a client's limit holds whichever node it hits;
      // while Redis is away each node counts on its own. `skipOnError`: should a store ever fail, let it pass.
      ...(app.bus instanceof RedisBus
        ? { store: redisWithLocalFallback(app.bus.commands, `${app.config.redisPrefix}rate-limit:`) }
        : {}),
      skipOnError: true,
      // Only the API counts (/api/…, the WebSocket included): the web client's files and its pages (index.html
      // for any other path) are static, cached and cheap, and a browser loading the site a few times — or a
      // school behind one address — must never get a JSON error instead of the page.
      allowList: (req) => !isApiPath(req.url),
      errorResponseBuilder: (_req, context) => ({
        statusCode: 429,
        code: 'rate-limited',
        message: `rate limit exceeded, retry in ${context.after}`,
      }),
    });
    // The quota behind the RateLimit headers: the route's own limit where it has one, else the global one.
    app.addHook('onRequest', async (req, reply) => {
      if (!isApiPath(req.url)) return;
      const own = req.routeOptions.config.rateLimit;
      if (own === false) return;
      const max = typeof own?.max === 'number' ? own.max : app.config.rateLimitMax;
      const windowMs = typeof own?.timeWindow === 'number' ? own.timeWindow : app.config.rateLimitWindowMs;
      reply.header('ratelimit-policy', `${max};w=${Math.round(windowMs / 1000)}`);
    });
    app.decorate(
      'solverAllowance',
      app.config.solveRateMax > 0 ? solverAllowance(app, app.config.solveRateMax) : NO_SOLVER_ALLOWANCE,
    );
    const perBot = app.createRateLimit({
      max: app.config.botRateLimitMax,
      timeWindow: app.config.rateLimitWindowMs,
      keyGenerator: (req) => `bot:${req.player?.id ?? ''}`,
    });
    app.addHook('preHandler', async (req, reply) => {
      if (!req.player?.bot) return;
      const r = await perBot(req);
      if (!r.isAllowed && r.isExceeded) {
        reply.header('retry-after', String(r.ttlInSeconds));
        throw new ApiError(
          'rate-limited',
          `this bot's limit of ${r.max} requests per window is used up, retry in ${r.ttlInSeconds} s`,
        );
      }
    });
  },
  { name: 'rate-limit', fastify: '5.x', dependencies: ['config', 'auth', 'bus'] },
);
