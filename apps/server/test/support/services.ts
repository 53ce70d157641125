/**
 * The services the test suites lean on, found the way a newcomer's machine has them: Postgres and Redis at
 * the URL in `TEST_DATABASE_URL` / `TEST_REDIS_URL` when set, otherwise at their standard local addresses
 * (`postgresql://postgres@127.0.0.1:5432`, database `klondike_test`, made when missing;
 * `redis://127.0.0.1:6379`), each tried with a short timeout; and the programs some suites start
 * (`redis-server`, Debian's `chromium` and `nginx`). A suite whose service is missing is skipped, and
 * `pnpm test` ends with one line for each such group (scripts/test-summary.mjs reads what
 * {@link recordServices} writes).
 *
 * Used by the vitest global setups of the server and the web (test/support/global-setup.ts), which hand the URLs to
 * the test files through vitest's `provide`/`inject`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The standard local Postgres the tests look for when `TEST_DATABASE_URL` is unset. */
export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/klondike_test';
/** The standard local Redis the tests look for when `TEST_REDIS_URL` is unset. */
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';
/** How long one service is given to answer (ms). */
export const PROBE_TIMEOUT_MS = 2_000;
/** Debian's Chromium, which the browser suites drive through playwright-core. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Debian's nginx, which the reverse-proxy suites start with a config of their own. */
export const NGINX_PATH = '/usr/sbin/nginx';

/** The repository's root (this file is apps/server/test/support/services.ts). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Where each package's run leaves its services and results for the summary (gitignored). */
export const TEST_RESULTS_DIR = join(REPO_ROOT, '.test-results');

/** One service: found (with the URL or path to use) or missing (with why, in a phrase). */
export type ServiceStatus =
  | { readonly found: true; readonly where: string; readonly how: string }
  | { readonly found: false; readonly why: string };

/** What a test run has at hand. */
export interface TestServices {
  /** Postgres, `where` a database URL the tests may make schemas in. */
  readonly postgres: ServiceStatus;
  /** Redis, `where` its URL. */
  readonly redis: ServiceStatus;
  /** The `redis-server` program (fault suites start private servers). */
  readonly redisServer: ServiceStatus;
  /** Debian's Chromium, `where` its path. */
  readonly chromium: ServiceStatus;
  /** Debian's nginx, `where` its path. */
  readonly nginx: ServiceStatus;
}

/** `host:port` of a URL, for messages (never its password). */
function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol.startsWith('redis') ? '6379' : '5432')}`;
  } catch {
    return 'an unparsable URL';
  }
}

/** A short reason from an error (its code when it has one). */
function reasonOf(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  if (typeof err.code === 'string' && err.code !== '') return err.code;
  return typeof err.message === 'string' ? err.message : String(e);
}

/**
 * Finds Postgres: connects to the server of `url` (through its `postgres` database), makes the database
 * `url` names when it is missing, then checks that database answers.
 */
async function probePostgres(): Promise<ServiceStatus> {
  const given = process.env.TEST_DATABASE_URL || undefined;
  const url = given ?? DEFAULT_TEST_DATABASE_URL;
  const source = given === undefined ? 'TEST_DATABASE_URL unset' : 'TEST_DATABASE_URL';
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { found: false, why: `TEST_DATABASE_URL is not a URL` };
  }
  const database = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(target);
  admin.pathname = '/postgres';
  admin.search = '';
  const connect = async (connectionString: string): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  try {
    const client = await connect(admin.toString());
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (exists.rowCount === 0) {
        try {
          await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
        } catch (e) {
          // Two packages' runs making it at once: the other one won (42P04 duplicate_database, 23505).
          const code = (e as { code?: string }).code;
          if (code !== '42P04' && code !== '23505') throw e;
        }
      }
    } finally {
      await client.end();
    }
    const check = await connect(url);
    await check.query('SELECT 1');
    await check.end();
    return { found: true, where: url, how: source };
  } catch (e) {
    return {
      found: false,
      why: `nothing usable at ${hostOf(url)} (${reasonOf(e)}) and ${given === undefined ? 'TEST_DATABASE_URL unset' : 'TEST_DATABASE_URL set to it'}`,
    };
  }
}

/** Sends PING to the Redis of `url` and waits for PONG. */
function pingRedis(url: string): Promise<string | null> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      resolve('not a URL');
      return;
    }
    const socket = createConnection({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (why: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done('no answer'), PROBE_TIMEOUT_MS);
    socket.once('error', (e) => done(reasonOf(e)));
    socket.once('connect', () => {
      const auth = u.password ? `AUTH ${decodeURIComponent(u.password)}\r\n` : '';
      socket.write(`${auth}PING\r\n`);
    });
    let seen = '';
    socket.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('+PONG')) done(null);
      else if (seen.includes('-')) done(seen.trim().split('\r\n').pop() ?? 'error');
    });
  });
}

async function probeRedis(): Promise<ServiceStatus> {
  const given = process.env.TEST_REDIS_URL || undefined;
  const url = given ?? DEFAULT_TEST_REDIS_URL;
  const why = await pingRedis(url);
  if (why === null)
    return { found: true, where: url, how: given === undefined ? 'TEST_REDIS_URL unset' : 'TEST_REDIS_URL' };
  return {
    found: false,
    why: `nothing usable at ${hostOf(url)} (${why}) and ${given === undefined ? 'TEST_REDIS_URL unset' : 'TEST_REDIS_URL set to it'}`,
  };
}

function program(path: string, hint: string): ServiceStatus {
  return existsSync(path)
    ? { found: true, where: path, how: 'installed' }
    : { found: false, why: `${path} is missing (${hint})` };
}

function redisServerProgram(): ServiceStatus {
  const ok = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  return ok
    ? { found: true, where: 'redis-server', how: 'on the PATH' }
    : { found: false, why: 'no redis-server program on the PATH (apt-get install -y redis-server)' };
}

/** Looks for every service at once (at most {@link PROBE_TIMEOUT_MS} or so in all). */
export async function probeServices(): Promise<TestServices> {
  const [postgres, redis] = await Promise.all([probePostgres(), probeRedis()]);
  return {
    postgres,
    redis,
    redisServer: redisServerProgram(),
    chromium: program(CHROMIUM_PATH, 'apt-get install -y chromium'),
    nginx: program(NGINX_PATH, 'apt-get install -y nginx'),
  };
}

/** The groups of suites each service gates, as the summary names them. */
export const SERVICE_GROUPS: Readonly<Record<keyof TestServices, string>> = {
  postgres: 'Postgres suites (each database test on Postgres, the multi-node and fault suites)',
  redis: 'Redis suites (several nodes: lease, frames across nodes, races and pairing on two nodes)',
  redisServer: 'Redis fault suites (a private redis-server killed under play)',
  chromium: 'Browser suites (Chromium end-to-end tests, Swagger UI)',
  nginx: 'Reverse-proxy suites (a race through nginx over two nodes)',
};

/**
 * Writes what `pkg`'s run found to `.test-results/<pkg>.services.json` (`@klondike/server` → `klondike-server`), for the summary at the end of
 * `pnpm test`. `uses` names the services this package's suites need (others are not its concern).
 */
export function recordServices(
  pkg: string,
  services: TestServices,
  uses: readonly (keyof TestServices)[],
): void {
  mkdirSync(TEST_RESULTS_DIR, { recursive: true });
  const entries = uses.map((key) => ({ key, group: SERVICE_GROUPS[key], status: services[key] }));
  const stem = pkg.replace(/^@/, '').replace(/[^a-zA-Z0-9._-]+/g, '-');
  writeFileSync(
    join(TEST_RESULTS_DIR, `${stem}.services.json`),
    JSON.stringify({ package: pkg, entries }, null, 2),
  );
}
