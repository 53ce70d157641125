/**
 * Plugin `pagination`: every /api answer whose body has a string `nextCursor` (a list route with a next
 * page, infra/http/pagination.ts) gets the RFC 8288 header `Link: <same query, cursor=…>; rel="next"`.
 * One hook for every list route, so a new list route gets its Link header by answering `nextCursor`.
 */
import fp from 'fastify-plugin';
import { nextLink } from '../../infra/http/pagination.js';

/** Adds the `Link` header of the next page. */
export const paginationPlugin = fp(
  (app) => {
    app.addHook('preSerialization', (req, reply, payload: unknown, done) => {
      if (typeof payload === 'object' && payload !== null && req.url.startsWith('/api/')) {
        const next = (payload as { nextCursor?: unknown }).nextCursor;
        if (typeof next === 'string') void reply.header('link', nextLink(req.url, next));
      }
      done(null, payload);
    });
    return Promise.resolve();
  },
  { name: 'pagination', fastify: '5.x' },
);
