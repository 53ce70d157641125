import { defineConfig } from 'vitest/config';

// Client tests run against the real server (apps/server's buildApp, listening on a free port) on PGlite.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
