/**
 * Writes the published API documents without a running server: the app is built with `buildApp()` on an
 * in-memory embedded database (no listening socket, no daily job), and the documents it would serve are
 * written to a folder (default `apps/server/.api-docs/`):
 *
 * - `openapi.json`: the OpenAPI document of `/docs/json`;
 * - `asyncapi.json`: the AsyncAPI document of `/docs/asyncapi.json`.
 *
 *   pnpm --filter @klondike/server api-docs [-- --out DIR]
 *
 * `pnpm lint:api` lints them with Redocly (redocly.yaml at the repository root).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { asyncApiDocument } from '../src/edge/api-docs/asyncapi.js';

const args = process.argv.slice(2).filter((a) => a !== '--');
const i = args.indexOf('--out');
const outArg = i >= 0 ? args[i + 1] : undefined;
if (i >= 0 && outArg === undefined) throw new Error('--out needs a folder');
const out = outArg !== undefined ? resolve(outArg) : fileURLToPath(new URL('../.api-docs/', import.meta.url));

const app = await buildApp({
  env: {
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'warn',
    DAILY_SCHEDULE: 'off',
    DAILY_ARCHIVE_DAYS: '0',
    SOLVER_THREADS: '1',
    WEB_DIST: '/nonexistent-web-dist',
  },
});
try {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'openapi.json'), JSON.stringify(app.swagger(), null, 2) + '\n');
  writeFileSync(join(out, 'asyncapi.json'), JSON.stringify(asyncApiDocument(), null, 2) + '\n');
  console.log(`wrote openapi.json and asyncapi.json to ${out}`);
} finally {
  await app.close();
}
