import type { Reporter } from 'vitest/reporters';

/** Where each package's run leaves its results (gitignored `.test-results/`). */
export declare const TEST_RESULTS_DIR: string;
/** The file name a package's results go to (`@klondike/web` → `klondike-web`). */
export declare function resultsFileStem(pkg: string): string;
/** Leaves a package's counts in `.test-results/<package>.results.json` for the summary of `pnpm test`. */
export declare class RecordReporter implements Reporter {
  constructor(pkg: string);
}
