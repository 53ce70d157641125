import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import { RecordReporter } from '../../scripts/test-reporter.mjs';

// Unit tests of the pure helpers and the router run in node; component specs (test/components) in happy-dom
// (their files say `@vitest-environment happy-dom`); the browser tests (test/e2e) drive Debian's chromium through
// playwright-core against the real server and are slower.
export default defineConfig({
  plugins: [vue()],
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Component specs mount with the app's vue-i18n instance (English unless a test switches).
    setupFiles: ['test/setup.ts'],
    // Finds Chromium, nginx, Postgres and Redis for the browser tests; the summary of `pnpm test` names what is missing.
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', new RecordReporter('@klondike/web')],
    testTimeout: 10_000,
    hookTimeout: 120_000,
  },
});
