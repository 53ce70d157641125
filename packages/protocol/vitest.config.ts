import { defineConfig } from 'vitest/config';
import { RecordReporter } from '../../scripts/test-reporter.mjs';

export default defineConfig({
  test: {
    reporters: ['default', new RecordReporter('@klondike/protocol')],
  },
});
