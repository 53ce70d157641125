/**
 * Plugin `rate-limit`: @fastify/rate-limit on every HTTP route (per client IP), off when
 * `config.rateLimitMax` is 0. Refusals go through the global error handler as `429 rate-limited`.
 */
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import '../types.js';

/** Registers the global rate limit. */
export const rateLimitPlugin = fp(
  async (app) => {
    if (app.config.rateLimitMax === 0) return;
    await app.register(rateLimit, {
      global: true,
      max: app.config.rateLimitMax,
      timeWindow: app.config.rateLimitWindowMs,
      errorResponseBuilder: (_req, context) => ({
        statusCode: 429,
        code: 'rate-limited',
        message: `rate limit exceeded, retry in ${context.after}`,
      }),
    });
  },
  { name: 'rate-limit', fastify: '5.x', dependencies: ['config'] },
);
