import { defineConfig } from 'vitest/config';
import { RecordReporter } from '../../scripts/test-reporter.mjs';

// Server tests: Fastify inject + real sockets against PGlite (always) and Postgres (the one test/support/services.ts
// finds: TEST_DATABASE_URL, else the standard local address). The crash test spawns the server as a child
// process, hence the generous timeouts.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', new RecordReporter('@klondike/server')],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: most of a server test's time is spent waiting (sockets, timers, child
    // processes, Postgres), so on a 2-core machine (where vitest's default is one file at a time) the suite
    // takes about two thirds as long (docs/testing.md).
    maxWorkers: 2,
  },
});
