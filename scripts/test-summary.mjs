/**
 * The end of `pnpm test`: what every package's run tested and what it did not. Each package's vitest run
 * leaves `.test-results/<package>.results.json` (scripts/test-reporter.mjs) and, where its suites need
 * services, `<package>.services.json` (apps/server/test/support/services.ts). This prints one line per package,
 * one line per group of suites skipped for want of a service (what and why), or one line that nothing was
 * skipped for want of one, and a closing `N passed, N failed, N skipped` line.
 *
 * `node scripts/test-summary.mjs --reset` clears the folder before a run, so a package whose run never
 * finished shows as such instead of with an older run's figures.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, '.test-results');
/** The workspace packages that have a test script, in the order `pnpm -r` runs them. */
const PACKAGES = [
  '@klondike/rules',
  '@klondike/protocol',
  '@klondike/solver',
  '@klondike/client',
  '@klondike/server',
  '@klondike/web',
];

if (process.argv.includes('--reset')) {
  rmSync(DIR, { recursive: true, force: true });
  process.exit(0);
}

const stem = (pkg) => pkg.replace(/^@/, '').replace(/[^a-zA-Z0-9._-]+/g, '-');
const read = (file) => {
  try {
    return JSON.parse(readFileSync(join(DIR, file), 'utf8'));
  } catch {
    return undefined;
  }
};
const files = existsSync(DIR) ? readdirSync(DIR) : [];
const known = new Set(PACKAGES.map(stem));
const extra = files
  .filter((f) => f.endsWith('.results.json') && !known.has(f.replace(/\.results\.json$/, '')))
  .map((f) => read(f)?.package)
  .filter((p) => typeof p === 'string');

const lines = ['', '── pnpm test: what ran and what did not ──'];
let passed = 0;
let failed = 0;
let skipped = 0;
let unexplained = [];
for (const pkg of [...PACKAGES, ...extra]) {
  const r = read(`${stem(pkg)}.results.json`);
  if (r === undefined) {
    lines.push(`${pkg}: no results (its run did not finish: see its output above)`);
    failed++;
    continue;
  }
  passed += r.passed;
  failed += r.failed + r.failedModules + r.unhandledErrors;
  skipped += r.skipped;
  const extraFail = r.failedModules > 0 ? `, ${r.failedModules} files failed to load` : '';
  lines.push(
    `${pkg}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${extraFail} (${Math.round(r.durationMs / 1000)} s)`,
  );
  if (r.skipped > 0) unexplained.push(...r.skippedSuites.map((s) => ({ pkg, ...s })));
}

/** Missing services, merged across packages: one line per group. */
const missing = new Map();
const found = new Map();
for (const f of files.filter((f) => f.endsWith('.services.json'))) {
  const s = read(f);
  if (s === undefined) continue;
  for (const e of s.entries) {
    if (e.status.found) found.set(e.key, e);
    else if (!missing.has(e.key)) missing.set(e.key, { ...e, packages: [s.package] });
    else missing.get(e.key).packages.push(s.package);
  }
}
if (missing.size === 0) {
  const what = [...found.values()].map((e) => e.status.where).join(', ');
  lines.push(`Nothing was skipped for want of a service${what ? ` (found: ${what})` : ''}.`);
} else {
  for (const e of missing.values()) {
    lines.push(`${e.group.split(' (')[0]} skipped: ${e.status.why} [${e.packages.join(', ')}]`);
  }
}
if (unexplained.length > 0) {
  const shown = unexplained.slice(0, 12).map((s) => `  ${s.pkg} ${s.suite} (${s.tests})`);
  lines.push(`Skipped tests by suite:`, ...shown);
  if (unexplained.length > shown.length)
    lines.push(`  … and ${unexplained.length - shown.length} more suites`);
}
lines.push(`${passed} passed, ${failed} failed, ${skipped} skipped`);
console.log(lines.join('\n'));
