/**
 * Server configuration from the environment (docs/configuration.md: PORT, HOST, DATABASE_URL, DATA_DIR, LOG_LEVEL),
 * plus the rate-limit, solver, daily-challenge and race knobs. `loadConfig` never reads `process.env` itself unless given it.
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MAX_SOLVE_TIME_MS } from '@klondike/protocol';
import { z } from 'zod';
import { DAILY_SECRET_HOWTO, dailySecretProblem } from '../features/daily/secret-strength.js';

/** Log levels of Fastify's logger (pino). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Everything the server reads from its environment. */
export interface AppConfig {
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
  /** Most games kept in memory (env MAX_LIVE_GAMES, default 10000); idle games without subscribers are evicted first. */
  readonly maxLiveGames: number;
  /**
   * Moves (and undos, resignations) admitted and not yet committed before new ones are refused with
   * `overloaded` (WebSocket error frame; REST 503 with Retry-After) (env COMMIT_QUEUE, default 256).
   */
  readonly commitQueue: number;
  /**
   * Move-log flushes in flight at once, each on its own connection and carrying other games (env
   * COMMIT_CONCURRENCY; default null: 2 on Postgres, 1 on PGlite, which runs one statement at a time).
   */
  readonly commitConcurrency: number | null;
  /** Interactive solver worker threads: hints, solve, race and daily certification (env SOLVER_THREADS, default cores − 1, at least 1). */
  readonly solverThreads: number;
  /**
   * Background solver worker threads, at the lowest CPU priority: par refinement and the
   * archive (env SOLVER_BACKGROUND_THREADS, default 1; 0 = background jobs share the interactive threads,
   * after every waiting interactive job).
   */
  readonly solverBackgroundThreads: number;
  /** Cap on a POST /api/solve time limit, ms (env SOLVE_MAX_MS, default 10000). */
  readonly solveMaxMs: number;
  /** Time a hint may search, ms (env HINT_TIME_MS, default 3000). */
  readonly hintTimeMs: number;
  /** Solve and hint requests per client per minute (env SOLVE_RATE_MAX, default 30; 0 = no extra limit). */
  readonly solveRateMax: number;
  /**
   * "Still winnable?" checks per client per minute (env WINNABLE_RATE_MAX, default 120; 0 = the global limit):
   * the badge's own allowance, apart from the hints'.
   */
  readonly winnableRateMax: number;
  /**
   * Solver jobs one client (address or player) may have waiting or running at once; more get 503
   * solver-busy (env SOLVER_JOBS_PER_CLIENT, default 2).
   */
  readonly solverJobsPerClient: number;
  /** Solver jobs waiting for a thread before new ones get 503 solver-busy (env SOLVER_QUEUE, default 64). */
  readonly solverQueue: number;
  /** A solver thread ends after this long without a job, ms (env SOLVER_IDLE_MS, default 30000); threads start on demand. */
  readonly solverIdleMs: number;
  /**
   * Secret the daily deals are derived from (env DAILY_SECRET). Unset: a random secret is generated once and
   * kept in the database (table Setting), so restarts and other nodes deal the same dailies.
   */
  readonly dailySecret: string | undefined;
  /** Closed days whose dailies exist from the first start on and are listed by the archive (env DAILY_ARCHIVE_DAYS, default 30). */
  readonly dailyArchiveDays: number;
  /** Solver time per daily candidate deal, ms (env DAILY_SOLVE_MS, default 3000); unknown → next candidate. */
  readonly dailySolveMs: number;
  /** How often the daily job checks that today and tomorrow are ready and closed days are settled, ms (env DAILY_TICK_MS, default 60000). */
  readonly dailyTickMs: number;
  /**
   * Whether the daily job runs (env DAILY_SCHEDULE `on`|`off`, default on): start-up preparation and the
   * timer. Off, dailies are still prepared on first use by the daily routes (tests use this).
   */
  readonly dailySchedule: boolean;
  /**
   * Whether the server makes the scheduled arenas (env ARENA_SCHEDULE `on`|`off`, default on; docs/arenas.md
   * "Schedule"), by the daily job's lease holder (so only with DAILY_SCHEDULE on).
   */
  readonly arenaSchedule: boolean;
  /** Players one client may create per hour (env PLAYER_CREATE_RATE_MAX, default 10; 0 = no extra limit). */
  readonly playerCreateRateMax: number;
  /** Unfinished anonymous games untouched this many days are deleted (env GAME_RETENTION_DAYS, default 30; 0 = keep). */
  readonly gameRetentionDays: number;
  /** A race lobby nobody starts within this many ms is closed as abandoned (env RACE_LOBBY_TTL_MS, default 2 h). */
  readonly raceLobbyTtlMs: number;
  /** How often the maintenance job runs, ms (env MAINTENANCE_TICK_MS, default 10 min; 0 = never). */
  readonly maintenanceTickMs: number;
  /**
   * A game won or resigned this long ago, ms, has its move log compacted into its row (env
   * MOVE_ARCHIVE_AFTER_MS, default 1 day; 0 = never): maintenance/compaction.ts.
   */
  readonly moveArchiveAfterMs: number;
  /** Countdown of a race, ms: every racer's game is created at its end (env RACE_COUNTDOWN_MS, default 3000). */
  readonly raceCountdownMs: number;
  /** A racer away (no race socket) this long during a race forfeits, ms (env RACE_AWAY_FORFEIT_MS, default 60000). */
  readonly raceAwayForfeitMs: number;
  /**
   * Race look-ups by invite code (GET and join) per client per minute (env RACE_RATE_MAX, default 30; 0 = no
   * extra limit), so codes cannot be enumerated; sockets get the same number of unknown-code subscribes.
   */
  readonly raceRateMax: number;
  /** Solver time per candidate deal of a `certified` race, ms (env RACE_CERTIFY_MS, default 1000). */
  readonly raceCertifyMs: number;
  /**
   * How old an account must be to create, join or rematch a custom rated race, ms (env
   * RATED_MIN_ACCOUNT_AGE_MS, default 1 day; 0 = no minimum). docs/ratings.md "No farming".
   */
  readonly ratedMinAccountAgeMs: number;
  /**
   * How many finished games (won, blocked or resigned, with at least one move made) an account needs to
   * create, join or rematch a custom rated race (env RATED_MIN_FINISHED_GAMES, default 3; 0 = none).
   */
  readonly ratedMinFinishedGames: number;
}

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

const emptyToUndefined = (v: unknown): unknown => (v === '' ? undefined : v);

const EnvSchema = z.object({
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
  MAX_LIVE_GAMES: z.coerce.number().int().min(1).default(10_000),
  COMMIT_QUEUE: z.coerce.number().int().min(1).default(256),
  COMMIT_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(16).optional()),
  SOLVER_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(Math.max(1, availableParallelism() - 1)),
  SOLVER_BACKGROUND_THREADS: z.coerce.number().int().min(0).max(16).default(1),
  SOLVE_MAX_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(10_000),
  HINT_TIME_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(3_000),
  SOLVE_RATE_MAX: z.coerce.number().int().min(0).default(30),
  WINNABLE_RATE_MAX: z.coerce.number().int().min(0).default(120),
  SOLVER_QUEUE: z.coerce.number().int().min(0).default(64),
  SOLVER_IDLE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  SOLVER_JOBS_PER_CLIENT: z.coerce.number().int().min(1).default(2),
  DAILY_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .superRefine((secret, ctx) => {
        const problem = dailySecretProblem(secret);
        if (problem !== null)
          ctx.addIssue({
            code: 'custom',
            message: `DAILY_SECRET needs 32 random bytes (43+ base64 or 64+ hex characters), but ${problem}: ${DAILY_SECRET_HOWTO}`,
          });
      })
      .optional(),
  ),
  DAILY_ARCHIVE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  DAILY_SOLVE_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(3_000),
  DAILY_TICK_MS: z.coerce.number().int().min(1000).default(60_000),
  DAILY_SCHEDULE: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  ARENA_SCHEDULE: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  PLAYER_CREATE_RATE_MAX: z.coerce.number().int().min(0).default(10),
  GAME_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
  RACE_LOBBY_TTL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(2 * 3_600_000),
  MAINTENANCE_TICK_MS: z.coerce.number().int().min(0).default(600_000),
  MOVE_ARCHIVE_AFTER_MS: z.coerce.number().int().min(0).default(86_400_000),
  RACE_COUNTDOWN_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  RACE_AWAY_FORFEIT_MS: z.coerce.number().int().min(1).default(60_000),
  RACE_RATE_MAX: z.coerce.number().int().min(0).default(30),
  RACE_CERTIFY_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(1_000),
  RATED_MIN_ACCOUNT_AGE_MS: z.coerce.number().int().min(0).default(86_400_000),
  RATED_MIN_FINISHED_GAMES: z.coerce.number().int().min(0).max(1000).default(3),
});

/**
 * Reads the configuration from an environment (e.g. `process.env`).
 * Errors: throws an Error naming every invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    nodeHeartbeatMs: e.NODE_HEARTBEAT_MS,
    dataDir: e.DATA_DIR.includes('://') ? e.DATA_DIR : resolve(env.INIT_CWD || process.cwd(), e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimitMax: e.RATE_LIMIT_MAX,
    rateLimitWindowMs: e.RATE_LIMIT_WINDOW_MS,
    botRateLimitMax: e.BOT_RATE_LIMIT_MAX,
    wsFramesPerSecond: e.WS_FRAMES_PER_SECOND,
    wsMaxSubscriptions: e.WS_MAX_SUBSCRIPTIONS,
    wsMaxAuthAttempts: e.WS_MAX_AUTH_ATTEMPTS,
    webDist: e.WEB_DIST,
    maxLiveGames: e.MAX_LIVE_GAMES,
    commitQueue: e.COMMIT_QUEUE,
    commitConcurrency: e.COMMIT_CONCURRENCY ?? null,
    solverThreads: e.SOLVER_THREADS,
    solverBackgroundThreads: e.SOLVER_BACKGROUND_THREADS,
    solveMaxMs: e.SOLVE_MAX_MS,
    hintTimeMs: e.HINT_TIME_MS,
    solveRateMax: e.SOLVE_RATE_MAX,
    winnableRateMax: e.WINNABLE_RATE_MAX,
    solverQueue: e.SOLVER_QUEUE,
    solverIdleMs: e.SOLVER_IDLE_MS,
    solverJobsPerClient: e.SOLVER_JOBS_PER_CLIENT,
    dailySecret: e.DAILY_SECRET,
    dailyArchiveDays: e.DAILY_ARCHIVE_DAYS,
    dailySolveMs: e.DAILY_SOLVE_MS,
    dailyTickMs: e.DAILY_TICK_MS,
    dailySchedule: e.DAILY_SCHEDULE === 'on',
    arenaSchedule: e.ARENA_SCHEDULE === 'on',
    playerCreateRateMax: e.PLAYER_CREATE_RATE_MAX,
    gameRetentionDays: e.GAME_RETENTION_DAYS,
    raceLobbyTtlMs: e.RACE_LOBBY_TTL_MS,
    maintenanceTickMs: e.MAINTENANCE_TICK_MS,
    moveArchiveAfterMs: e.MOVE_ARCHIVE_AFTER_MS,
    raceCountdownMs: e.RACE_COUNTDOWN_MS,
    raceAwayForfeitMs: e.RACE_AWAY_FORFEIT_MS,
    raceRateMax: e.RACE_RATE_MAX,
    raceCertifyMs: e.RACE_CERTIFY_MS,
    ratedMinAccountAgeMs: e.RATED_MIN_ACCOUNT_AGE_MS,
    ratedMinFinishedGames: e.RATED_MIN_FINISHED_GAMES,
  };
}
