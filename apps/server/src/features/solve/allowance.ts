/**
 * The solver's allowance: `SOLVE_RATE_MAX` requests per client (IP address; an IPv6 /64) per minute, shared by
 * `POST /api/solve` and every `POST /api/games` with a typed `deal` (docs/fairness.md "The deal embargo"). A
 * typed deal asks the same question of the server as a solve — is this deal free? — so probing deals costs the
 * same whichever route asks. Counted in the rate-limit store (in Redis with several nodes, so once for the
 * cluster), under keys of its own (`solver:<client>`), apart from the global limit and each route's.
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../infra/errors.js';

/** Length of the allowance's window, ms. */
export const SOLVER_WINDOW_MS = 60_000;

/**
 * Counts one request against its client's solver allowance. Sets the `RateLimit-*` headers of the allowance;
 * over it, throws `rate-limited` (429) with `Retry-After`.
 */
export type SolverAllowance = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The allowance of `max` requests per client per window on `app`'s rate-limit store (`createRateLimit`). */
export function solverAllowance(app: FastifyInstance, max: number): SolverAllowance {
  const limit = app.createRateLimit({
    max,
    timeWindow: SOLVER_WINDOW_MS,
    keyGenerator: (req) => `solver:${normalizeIP(req.ip)}`,
  });
  return async (req, reply) => {
    const r = await limit(req);
    if (r.isAllowed) return;
    reply.header('ratelimit-policy', `${max};w=${SOLVER_WINDOW_MS / 1000}`);
    reply.header('ratelimit-limit', String(max));
    reply.header('ratelimit-remaining', String(r.remaining));
    reply.header('ratelimit-reset', String(r.ttlInSeconds));
    if (!r.isExceeded) return;
    reply.header('retry-after', String(r.ttlInSeconds));
    throw new ApiError(
      'rate-limited',
      `the solver's allowance of ${max} requests a minute (solves and typed deals together) is used up, retry in ${r.ttlInSeconds} s`,
    );
  };
}

/** The allowance when it is off (rate limits off, or `SOLVE_RATE_MAX` 0: the global limit applies). */
export const NO_SOLVER_ALLOWANCE: SolverAllowance = async () => {};
