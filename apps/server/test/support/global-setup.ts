/**
 * The server suites' global setup: finds Postgres, Redis and the programs some suites start
 * (test/support/services.ts), hands the URLs to the test files (`inject('testDatabaseUrl')`, `inject('testRedisUrl')`,
 * read by test/support/helpers.ts) and records what it found for the summary at the end of `pnpm test`.
 */
import type { TestProject } from 'vitest/node';
import { probeServices, recordServices } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A Postgres database URL the tests may make schemas in; null: none answered (those suites skip). */
    testDatabaseUrl: string | null;
    /** A Redis URL; null: none answered (the multi-node suites skip). */
    testRedisUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const services = await probeServices();
  project.provide('testDatabaseUrl', services.postgres.found ? services.postgres.where : null);
  project.provide('testRedisUrl', services.redis.found ? services.redis.where : null);
  recordServices('@klondike/server', services, ['postgres', 'redis', 'redisServer', 'chromium']);
}
