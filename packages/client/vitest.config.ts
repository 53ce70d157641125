import { defineConfig } from 'vitest/config';
import { RecordReporter } from '../../scripts/test-reporter.mjs';

// Client tests run against the real server (apps/server's buildApp, listening on a free port) on PGlite.
export default defineConfig({
  test: {
    reporters: ['default', new RecordReporter('@klondike/client')],
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
