import { defineConfig } from 'vitest/config';
import { RecordReporter } from '../../scripts/test-reporter.mjs';

// Solver tests run many bounded searches (each with its own time limit); on a loaded 2-core machine a
// whole test can exceed vitest's 5 s default without anything being wrong.
export default defineConfig({
  test: {
    reporters: ['default', new RecordReporter('@klondike/solver')],
    testTimeout: 120_000,
  },
});
