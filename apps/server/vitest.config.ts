import { defineConfig } from 'vitest/config';

// Server tests: Fastify inject + real sockets against PGlite (always) and Postgres (when TEST_DATABASE_URL
// is set). The crash test spawns the server as a child process, hence the generous timeouts.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
