/**
 * The multi-node suites' shared harness: several real server processes (test/support/processes.ts) on one Postgres
 * schema and one Redis, found by the global setup (test/support/services.ts). Each suite names only the settings
 * its rule needs; the quiet defaults (no daily job, no archive, one solver thread, no web client) are here.
 */
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './helpers.js';
import { type ServerProcess, startServerProcess } from './processes.js';

/** Why the multi-node suites are skipped (no Postgres or no Redis answered), or null: they run. */
export const MULTI_NODE_SKIP: string | null =
  TEST_DATABASE_URL === undefined || TEST_REDIS_URL === undefined
    ? 'needs Postgres and Redis (test/support/services.ts found none)'
    : null;

/**
 * Starts one node of a cluster: a server process on `databaseUrl` (a Postgres URL with its test schema)
 * and the test Redis under `redisPrefix` (one prefix per suite, shared by its nodes), with the quiet defaults
 * and `env` on top (environment variables, docs/configuration.md).
 */
export function startClusterNode(
  databaseUrl: string,
  redisPrefix: string,
  env: Readonly<Record<string, string>> = {},
): Promise<ServerProcess> {
  return startServerProcess({
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    DAILY_SCHEDULE: 'off',
    DAILY_ARCHIVE_DAYS: '0',
    SOLVER_THREADS: '1',
    WEB_DIST: '/nonexistent-web-dist',
    ...env,
  });
}

/** What {@link nodeApi} answers: the status and the parsed JSON body. */
export interface NodeAnswer {
  readonly status: number;
  readonly json: unknown;
}

/**
 * A request to one node: `token` as the bearer (when given), `body` as JSON (when given), `headers` on top
 * (for example an `x-forwarded-for` of the test's own client address on a node with TRUST_PROXY).
 */
export async function nodeApi(
  node: ServerProcess,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<NodeAnswer> {
  const r = await fetch(`${node.base}${path}`, {
    method,
    headers: {
      ...headers,
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, json: await r.json() };
}
