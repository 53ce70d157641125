import { defineConfig } from 'vitest/config';
import { RecordReporter } from '../../scripts/test-reporter.mjs';

// Server tests: Fastify inject + real sockets against PGlite (always) and Postgres (the one test/services.ts
// finds: TEST_DATABASE_URL, else the standard local address). The crash test spawns the server as a child
// process, hence the generous timeouts.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', new RecordReporter('@klondike/server')],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
