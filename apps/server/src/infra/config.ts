/**
 * Server configuration from the environment (docs/configuration.md), in slices: this file holds the
 * infrastructure's (PORT, HOST, DATABASE_URL, DATA_DIR, LOG_LEVEL, the proxy, Redis, the rate limits, the
 * socket's limits, the web client's folder) and the way slices are read together; each feature's
 * `config.ts` holds its own (its variables' zod schema, defaults and messages) and adds its fields to
 * `AppConfig` by augmenting the interface below. The edge composes them (edge/config.ts `loadConfig`).
 * Nothing here reads `process.env` itself.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

/** Log levels of Fastify's logger (pino). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The infrastructure's settings. */
export interface InfraConfig {
  /** TCP port to listen on (env PORT, default 3000; 0 = any free port). */
  readonly port: number;
  /** Interface to listen on (env HOST, default 0.0.0.0). */
  readonly host: string;
  /** Postgres connection string (env DATABASE_URL); undefined = embedded PGlite under `dataDir`. */
  readonly databaseUrl: string | undefined;
  /**
   * Redis URL (env REDIS_URL) of the event bus between nodes (bus/event-bus.ts); undefined = one node alone,
   * no Redis needed.
   */
  readonly redisUrl: string | undefined;
  /** Prefix of this service's Redis channels (env REDIS_PREFIX, default `klondike:`). */
  readonly redisPrefix: string;
  /**
   * Several nodes only: how often a node records its heartbeat and ends the races of nodes whose heartbeat
   * is older than three of these (env NODE_HEARTBEAT_MS, default 5000).
   */
  readonly nodeHeartbeatMs: number;
  /**
   * Folder of the embedded database (env DATA_DIR, default ./.data); `memory://` = in memory (tests).
   * A relative path is taken from where the command was started (pnpm's INIT_CWD, else the working
   * directory), so `pnpm start` at the repo root keeps the data in `<repo>/.data`.
   */
  readonly dataDir: string;
  /** Logger level (env LOG_LEVEL, default info). */
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /**
   * Which proxies to believe about the client's address and protocol (env TRUST_PROXY): `false` (default:
   * the socket's peer is the client), `true` (any), a hop count (`1`: the nearest proxy), or a comma-separated
   * list of addresses/CIDRs. Rate limits key on the client address, so behind a proxy this must be set or
   * every user shares one bucket.
   */
  readonly trustProxy: boolean | number | string[];
  /** HTTP requests per client per window (env RATE_LIMIT_MAX, default 600); 0 turns rate limiting off. */
  readonly rateLimitMax: number;
  /** Rate-limit window in ms (env RATE_LIMIT_WINDOW_MS, default 60000). */
  readonly rateLimitWindowMs: number;
  /**
   * HTTP requests per bot token per window (env BOT_RATE_LIMIT_MAX, default 300): each bot account has this
   * limit of its own, on top of its client address's. Off with the rest of rate limiting (RATE_LIMIT_MAX=0).
   */
  readonly botRateLimitMax: number;
  /** WebSocket frames per connection per second before `rate-limited` error frames (env WS_FRAMES_PER_SECOND, default 200; 0 = off). */
  readonly wsFramesPerSecond: number;
  /** Games one WebSocket connection may be subscribed to at once (env WS_MAX_SUBSCRIPTIONS, default 16). */
  readonly wsMaxSubscriptions: number;
  /** `auth` frames one WebSocket connection may send (env WS_MAX_AUTH_ATTEMPTS, default 5). */
  readonly wsMaxAuthAttempts: number;
  /** Built web client served at / (env WEB_DIST, default apps/web/dist); ignored when the folder does not exist. */
  readonly webDist: string;
}

/**
 * Everything the server reads from its environment: the infrastructure's settings, and every other slice's,
 * which each slice's `config.ts` adds by augmentation (`declare module '…/infra/config.js' { interface
 * AppConfig extends DailyConfig {} }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the slices' settings join it by augmentation
export interface AppConfig extends InfraConfig {}

/**
 * The server package's folder (`<repo>/apps/server`): the nearest folder above this module with a
 * package.json (the sources, `src/infra/`, and the build, `dist/`, sit at different depths).
 */
function serverPackageDir(from: string): string {
  for (let d = from; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return d;
    if (dirname(d) === d) return resolve(from, '../..');
  }
}

/** Default folder of the built web client: `<repo>/apps/web/dist`. */
export const DEFAULT_WEB_DIST: string = resolve(serverPackageDir(import.meta.dirname), '../web/dist');

/** Treats an empty variable (`FOO=`) as unset, so its default applies: wrap a schema with `z.preprocess`. */
export const emptyToUndefined = (v: unknown): unknown => (v === '' ? undefined : v);

/**
 * One slice of the configuration: a zod schema from the environment (the variables it names; any other is
 * ignored) to its fields of `AppConfig`. Its issues name the variable (`path`) and say what is wrong
 * (`message`).
 */
export type ConfigSlice = z.ZodType<Partial<AppConfig>>;

/** The infrastructure's slice: listening, the database, the bus, the proxy, the rate limits, the socket's limits, the web client. */
export const INFRA_CONFIG = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgresql:// URL')
        .optional(),
    ),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./.data')),
    // Where the command was started (pnpm sets it): a relative DATA_DIR is taken from there.
    INIT_CWD: z.string().optional(),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS).default('info')),
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('false')
        .transform((v): boolean | number | string[] => {
          if (v === 'true' || v === 'false') return v === 'true';
          if (/^\d+$/.test(v)) return Number(v);
          return v
            .split(',')
            .map((a) => a.trim())
            .filter((a) => a.length > 0);
        })
        .refine((v) => !Array.isArray(v) || v.every((a) => /^[0-9a-fA-F.:/]+$/.test(a)), {
          message: 'TRUST_PROXY is true, false, a hop count or a comma-separated list of addresses/CIDRs',
        }),
    ),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
        .optional(),
    ),
    REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().max(100).default('klondike:')),
    NODE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    RATE_LIMIT_MAX: z.coerce.number().int().min(0).default(600),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1).default(60_000),
    BOT_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300),
    WS_FRAMES_PER_SECOND: z.coerce.number().int().min(0).default(200),
    WS_MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(1000).default(16),
    WS_MAX_AUTH_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(5),
    WEB_DIST: z.preprocess(emptyToUndefined, z.string().default(DEFAULT_WEB_DIST)),
  })
  .transform((e): InfraConfig => ({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    nodeHeartbeatMs: e.NODE_HEARTBEAT_MS,
    dataDir: e.DATA_DIR.includes('://') ? e.DATA_DIR : resolve(e.INIT_CWD || process.cwd(), e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimitMax: e.RATE_LIMIT_MAX,
    rateLimitWindowMs: e.RATE_LIMIT_WINDOW_MS,
    botRateLimitMax: e.BOT_RATE_LIMIT_MAX,
    wsFramesPerSecond: e.WS_FRAMES_PER_SECOND,
    wsMaxSubscriptions: e.WS_MAX_SUBSCRIPTIONS,
    wsMaxAuthAttempts: e.WS_MAX_AUTH_ATTEMPTS,
    webDist: e.WEB_DIST,
  })) satisfies ConfigSlice;

/**
 * Reads the configuration from an environment (e.g. `process.env`), slice by slice (`slices` together must
 * give every field of `AppConfig`: the edge's list, edge/config.ts).
 * Errors: throws an Error naming every invalid variable of every slice; throws when two slices give the
 * same field.
 */
export function loadConfigSlices(
  env: Record<string, string | undefined>,
  slices: readonly ConfigSlice[],
): AppConfig {
  const problems: string[] = [];
  const config: Partial<Record<keyof AppConfig, unknown>> = {};
  for (const slice of slices) {
    const parsed = slice.safeParse(env);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
      continue;
    }
    for (const [field, value] of Object.entries(parsed.data) as [keyof AppConfig, unknown][]) {
      if (field in config) throw new Error(`configuration field ${field} is given by two slices`);
      config[field] = value;
    }
  }
  if (problems.length > 0) throw new Error(`invalid configuration: ${problems.join('; ')}`);
  // Every field is given by one slice (each slice's `AppConfig` augmentation names the fields it gives).
  return config as AppConfig;
}
