// Runs a benchmark script of this package the way the server runs the solver in production: bundled into one
// module by esbuild (apps/server/build.mjs bundles the solver worker the same way), not module by module
// through tsx. From sources the solver's hot loops read the constants and helpers other modules export as
// live module bindings, which V8 runs several percent slower than the one-scope bundle
// (BENCHMARKS.md "Issue 56"). Usage: node bench/run-bundled.mjs bench/solver.bench.ts (environment as the script's).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const entry = resolve(process.argv[2] ?? join(here, 'solver.bench.ts'));
const outDir = join(here, '..', 'node_modules', '.cache', 'solver-bench');
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, basename(entry).replace(/\.ts$/, '.mjs'));
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(3)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
