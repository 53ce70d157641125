/**
 * Plugin `web-client`: serves the built Vue client from `config.webDist` when it exists (index.html
 * present). Unknown non-/api GET paths (e.g. /game/:id) fall back to index.html — see `notFound` in app.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import '../types.js';

/** True when `dir` holds a built client. */
export function hasWebClient(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}

/** Registers @fastify/static for the built client (nothing when it is not built). */
export const staticPlugin = fp(
  async (app) => {
    if (!hasWebClient(app.config.webDist)) {
      app.log.info({ webDist: app.config.webDist }, 'web client not built; serving the API only');
      return;
    }
    await app.register(fastifyStatic, { root: app.config.webDist, wildcard: false, index: ['index.html'] });
  },
  { name: 'web-client', fastify: '5.x', dependencies: ['config'] },
);
