/**
 * The app's answers when a request fails or matches no route: a global error handler that turns every
 * failure into `{"error":{"code","message",...}}` with protocol's API_ERROR_STATUS, and a not-found handler
 * that answers /api paths with 404 `not-found` and serves the web client's index.html for other GET paths
 * when the client is built (SPA fallback).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { RETRY_AFTER_SECONDS } from '../infra/db/availability.js';
import { apiErrorOf, errorBody } from '../infra/errors.js';
import { isApiPath } from '../infra/http/paths.js';
import { hasWebClient } from './plugins/static.js';

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
export function handleError(error: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
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
 * The not-found handler for a web client built in `webDist`: client-side routes (GET or HEAD of a non-/api
 * path) get index.html when the client is built; a missing build asset (/assets/…) and everything else get
 * 404 `not-found`, naming the method and path.
 */
export function notFoundHandler(webDist: string): (req: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const api = isApiPath(req.url);
    // Client-side routes get index.html; a missing build asset is a real 404 (not HTML under a .js name).
    const asset = path.startsWith('/assets/');
    if (!api && !asset && (req.method === 'GET' || req.method === 'HEAD') && hasWebClient(webDist)) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.code(404).send(errorBody('not-found', `no route ${req.method} ${path}`));
  };
}
