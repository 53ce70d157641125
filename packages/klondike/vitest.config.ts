import { defineConfig } from 'vitest/config';
import { RecordReporter } from '../../scripts/test-reporter.mjs';

// Property tests play thousands of random games: on a loaded 2-core machine one can take several seconds.
// Their limits are node and run counts, never time; the timeout is only a guard against a hang.
export default defineConfig({
  test: {
    reporters: ['default', new RecordReporter('@klondike/rules')],
    testTimeout: 60_000,
  },
});
