import { defineConfig } from 'vitest/config';

// Unit tests of the pure helpers run in node; the browser test (test/e2e) drives Debian's chromium through
// playwright-core against the real server and is slower.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 10_000,
    hookTimeout: 120_000,
  },
});
