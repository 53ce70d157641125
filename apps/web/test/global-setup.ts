/**
 * The web suites' global setup: finds Chromium, nginx, Postgres and Redis the way the server's suites do
 * (apps/server/test/support/services.ts), hands the URLs to the browser tests that need several nodes
 * (`inject('testDatabaseUrl')`, `inject('testRedisUrl')`) and records what it found for the summary at the
 * end of `pnpm test`.
 */
import type { TestProject } from 'vitest/node';
import { probeServices, recordServices } from '../../server/test/support/services';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A Postgres database URL the tests may make schemas in; null: none answered. */
    testDatabaseUrl: string | null;
    /** A Redis URL; null: none answered. */
    testRedisUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const services = await probeServices();
  project.provide('testDatabaseUrl', services.postgres.found ? services.postgres.where : null);
  project.provide('testRedisUrl', services.redis.found ? services.redis.where : null);
  recordServices('@klondike/web', services, ['chromium', 'nginx', 'postgres', 'redis']);
}
