/**
 * Checks the package as it is published (`pnpm lint:client`, and the packed-install test): its version is the
 * API's (`API_VERSION`, apps/server/src/edge/api-docs/api-info.ts: the client is versioned with the API), then
 * it packs it as `pnpm publish` would (`pnpm pack`: the build runs first, publishConfig applies) and runs
 * publint (strict) and @arethetypeswrong/cli (ESM only: the package has no CommonJS entry) on the tarball.
 *
 *   node scripts/check-package.mjs [--out DIR]     # prints the tarball's path last
 *
 * Exits 1 when a check fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const API_INFO = fileURLToPath(
  new URL('../../../apps/server/src/edge/api-docs/api-info.ts', import.meta.url),
);

/** The API's version as the server declares it. */
export function apiVersion() {
  const m = /export const API_VERSION = '([^']+)'/.exec(readFileSync(API_INFO, 'utf8'));
  if (m === null) throw new Error(`no API_VERSION in ${API_INFO}`);
  return m[1];
}

/** The client package's version. */
export function clientVersion() {
  return JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8')).version;
}

function run(cmd, args, cwd) {
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Packs the package into `out` (default: a new temp folder), lints the tarball, returns its path. */
export function packAndLint(out = mkdtempSync(join(tmpdir(), 'klondike-client-pack-'))) {
  if (clientVersion() !== apiVersion())
    throw new Error(
      `@klondike/client is ${clientVersion()} but the API is ${apiVersion()}: version them together`,
    );
  run('pnpm', ['pack', '--pack-destination', out], HERE);
  const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`no tarball in ${out}`);
  const path = join(out, tarball);
  run('tar', ['xzf', path], out);
  run('npx', ['--no-install', 'publint', '--strict', join(out, 'package')], HERE);
  run('npx', ['--no-install', 'attw', path, '--profile', 'esm-only'], HERE);
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const i = process.argv.indexOf('--out');
    console.log(packAndLint(i >= 0 ? process.argv[i + 1] : undefined));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
