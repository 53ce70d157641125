/**
 * Plugin `web-client`: serves the built Vue client from `config.webDist` when it exists (index.html
 * present). Files are looked up per request (`wildcard: true`), so a rebuilt client's new asset names are
 * served without a restart. Unknown non-/api GET paths (e.g. /game/:id) fall back to index.html — see
 * `notFoundHandler` in edge/errors.ts. Hashed build assets (`/assets/*`) are cached for a year; everything
 * else is revalidated — index.html, and the installable app's manifest.webmanifest (application/manifest+json) and
 * service worker sw.js, so that a new build's worker and shell are found at once. Files are sent as the
 * build's brotli or gzip copy when the browser accepts it (test/edge/static-pwa.test.ts).
 */
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

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
    await app.register(fastifyStatic, {
      root: app.config.webDist,
      wildcard: true,
      index: ['index.html'],
      // The build's .br and .gz copies (vite-plugin-compression2), chosen by Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, path) => {
        const hashed = path.includes(`${sep}assets${sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  },
  { name: 'web-client', fastify: '5.x', dependencies: ['config'] },
);
