/**
 * The multi-node suites' shared harness: several real server processes (test/support/processes.ts) on one Postgres
 * schema and one Redis, found by the global setup (test/support/services.ts). Each suite names only the settings
 * its rule needs; the quiet defaults (no daily job, no archive, one solver thread, no web client) are here.
 * Most suites want two nodes on a fresh schema: `startPair`, whose `stop` also drops the schema.
 */
import { randomBytes } from 'node:crypto';
import { TEST_DATABASE_URL, TEST_REDIS_URL, dropSchema, testSchemaName, withSchema } from './helpers.js';
import { type ServerProcess, killProcess, startServerProcess } from './processes.js';

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

/** Options of {@link startPair}. */
export interface PairOptions {
  /** Environment variables on top of the quiet defaults, for every node of the pair (and `startNode`'s). */
  readonly env?: Readonly<Record<string, string>>;
  /** The Redis prefix the nodes share (default: a fresh `test-<8 hex digits>:`). */
  readonly redisPrefix?: string;
  /**
   * Start both nodes at once (default false: A first, which migrates the fresh schema, then B on it).
   * Starting at once saves a node's start-up time; the two then race to migrate.
   */
  readonly together?: boolean;
}

/** Two nodes of one cluster (`startPair`) on a schema of their own and one Redis prefix. */
export interface NodePair {
  /** The first node (started first unless `together`: it migrated the schema). */
  readonly a: ServerProcess;
  /** The second node. */
  readonly b: ServerProcess;
  /** The Postgres URL of the pair's own schema (`?schema=t_…`), dropped by `stop`. */
  readonly databaseUrl: string;
  /** The Redis prefix the nodes share. */
  readonly redisPrefix: string;
  /** Starts one more node on the same schema, prefix and env; `stop` stops it too. */
  startNode(): Promise<ServerProcess>;
  /**
   * SIGKILLs every node started through the pair (waiting until each has exited; one already gone is
   * skipped), then drops the schema.
   */
  stop(): Promise<void>;
}

/**
 * Starts two nodes of a cluster (`startClusterNode`) on a fresh schema of the test Postgres and one prefix of
 * the test Redis (or `env.REDIS_URL`'s), with `options.env` on top of the quiet defaults. When a node fails
 * to start, the nodes already up are killed and the schema dropped before the error is thrown.
 */
export async function startPair(options: PairOptions = {}): Promise<NodePair> {
  const databaseUrl = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
  const redisPrefix = options.redisPrefix ?? `test-${randomBytes(4).toString('hex')}:`;
  const env = options.env ?? {};
  const started: ServerProcess[] = [];
  const startNode = async (): Promise<ServerProcess> => {
    const node = await startClusterNode(databaseUrl, redisPrefix, env);
    started.push(node);
    return node;
  };
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((node) => killProcess(node)));
    await dropSchema(databaseUrl);
  };
  try {
    if (!options.together) {
      const a = await startNode();
      return { a, b: await startNode(), databaseUrl, redisPrefix, startNode, stop };
    }
    // Both settled before anything is stopped: a node still starting when the other failed is killed too.
    const [a, b] = await Promise.allSettled([startNode(), startNode()]);
    if (a.status === 'rejected') throw a.reason;
    if (b.status === 'rejected') throw b.reason;
    return { a: a.value, b: b.value, databaseUrl, redisPrefix, startNode, stop };
  } catch (e) {
    await stop();
    throw e;
  }
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
