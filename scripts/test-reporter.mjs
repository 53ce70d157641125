/**
 * A vitest reporter that leaves a package's counts in `.test-results/<package>.results.json` (passed, failed,
 * skipped, and which suites the skipped tests belong to), so that `pnpm test` can end with one summary of every
 * package (scripts/test-summary.mjs). It prints nothing itself; vitest's default reporter still does.
 *
 * Each package's vitest.config.ts adds it beside the default reporter:
 * `reporters: ['default', new RecordReporter('@klondike/rules')]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where each package's run leaves its file (gitignored). */
export const TEST_RESULTS_DIR = join(ROOT, '.test-results');

/** The file name a package's results go to (`@klondike/web` → `klondike-web`). */
export function resultsFileStem(pkg) {
  return pkg.replace(/^@/, '').replace(/[^a-zA-Z0-9._-]+/g, '-');
}

export class RecordReporter {
  /** @param {string} pkg the package's name, as the summary prints it */
  constructor(pkg) {
    this.pkg = pkg;
    this.started = Date.now();
  }

  onTestRunStart() {
    this.started = Date.now();
  }

  /**
   * @param {ReadonlyArray<import('vitest/node').TestModule>} testModules
   * @param {ReadonlyArray<unknown>} unhandledErrors
   * @param {string} reason
   */
  onTestRunEnd(testModules, unhandledErrors, reason) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let failedModules = 0;
    /** @type {Map<string, number>} */
    const skippedSuites = new Map();
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failedModules++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else if (state === 'skipped' || state === 'pending') {
          skipped++;
          const file = relative(ROOT, module.moduleId);
          const top = test.fullName.split(' > ')[0] ?? test.name;
          const key = `${file}: ${top}`;
          skippedSuites.set(key, (skippedSuites.get(key) ?? 0) + 1);
        }
      }
    }
    mkdirSync(TEST_RESULTS_DIR, { recursive: true });
    writeFileSync(
      join(TEST_RESULTS_DIR, `${resultsFileStem(this.pkg)}.results.json`),
      JSON.stringify(
        {
          package: this.pkg,
          reason,
          passed,
          failed,
          skipped,
          failedModules,
          unhandledErrors: unhandledErrors.length,
          durationMs: Date.now() - this.started,
          skippedSuites: [...skippedSuites].map(([suite, tests]) => ({ suite, tests })),
        },
        null,
        2,
      ),
    );
  }
}
