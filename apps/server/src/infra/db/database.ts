/**
 * Opening the database: embedded PGlite (no DATABASE_URL) or a Postgres server (DATABASE_URL), both through
 * a Prisma driver adapter, both migrated by the same SQL migrations before Prisma Client is used.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../../generated/prisma/client.js';

/** Prisma Client of the open database (the type other layers name it by; only infra/db and repositories import Prisma). */
export type { PrismaClient };
import { type BatchWriter, pgBatchWriter, pgliteBatchWriter } from './move-log.js';
import { batchedVersionProbe } from './version-probe.js';
import {
  DEFAULT_MIGRATIONS_DIR,
  type MigrationReport,
  type MigrationSession,
  PRISMA_ADVISORY_LOCK_ID,
  migrate,
} from './migrator.js';

/** Where the data lives. */
export type DatabaseTarget =
  /** Embedded PGlite; `dataDir` is a folder, or `memory://` for a throw-away in-memory database. */
  | { readonly kind: 'pglite'; readonly dataDir: string }
  /**
   * A Postgres server. `url` is a `postgresql://` connection string; an optional `?schema=NAME` parameter
   * (Prisma's convention) puts every table in that schema, which is created when missing.
   */
  | { readonly kind: 'postgres'; readonly url: string };

/**
 * One statement on the driver itself, past Prisma's query engine: for the few statements a midnight sends
 * thousands of times (a batch of ranked openings, a batch of token look-ups), where the engine's work per
 * statement was a quarter of a node's CPU. On Postgres `name` prepares the statement once a pooled
 * connection (node-postgres named statements: the same `name` must always carry the same `text`); PGlite
 * runs it as it is. Resolves with the rows as the driver returns them (text, numbers, booleans; read
 * timestamps through Prisma, or as numbers, since the drivers' time zone rules differ). Database errors are
 * thrown as they are.
 */
export type DriverQuery = <R extends Record<string, unknown>>(
  name: string,
  text: string,
  values: readonly unknown[],
) => Promise<R[]>;

/** An open, migrated database. */
export interface Database {
  /** Which engine it is. */
  readonly kind: DatabaseTarget['kind'];
  /** Prisma Client over the driver adapter. */
  readonly prisma: PrismaClient;
  /** What the migrator did at open. */
  readonly migrations: MigrationReport;
  /**
   * The move log's hot path (move-log.ts): one statement per batch of game actions, on the same driver
   * Prisma's adapter uses (the PGlite instance, or the `pg` pool).
   */
  readonly writeMoves: BatchWriter;
  /**
   * A game's stored version by its primary key (a prepared statement on the same driver; on Postgres the
   * questions asked while one look-up is on its way share the next, db/version-probe.ts), or null when there
   * is no such game: the freshness probe of a node that may have missed another node's commits
   * (rooms/game-rooms.ts). Database failures are thrown as they are.
   */
  readonly gameVersion: (id: string) => Promise<number | null>;
  /** A statement on the driver Prisma's adapter uses (see `DriverQuery`). */
  readonly query: DriverQuery;
  /** Disconnects Prisma and closes the driver (PGlite flushes and closes its data folder). Idempotent. */
  close(): Promise<void>;
}

/** Options of `openDatabase`. */
export interface OpenDatabaseOptions {
  /** Migrations folder (default: the repository's `prisma/migrations`). */
  readonly migrationsDir?: string;
}

/**
 * PGlite's Postgres settings: one embedded session does not need the 128 MB of shared buffers Postgres
 * defaults to, which the WASM heap would hold for good (an idle server's RSS shrinks accordingly).
 */
const PGLITE_CONF = ['shared_buffers = 16MB'];

/** The freshness probe's statement (Database.gameVersion): one game. */
const GAME_VERSION_SQL = 'SELECT "version" FROM "Game" WHERE "id" = $1';
/** The freshness probe's statement on Postgres: the games asked for at once (db/version-probe.ts). */
const GAME_VERSIONS_SQL = 'SELECT "id", "version" FROM "Game" WHERE "id" = ANY($1::text[])';

/** Prisma's defaults (2 s / 5 s) are too tight for PGlite, which runs one transaction at a time. */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 } as const;

/**
 * Splits Prisma's `?schema=NAME` parameter off a Postgres URL (node-postgres does not know it).
 * Returns the URL without it and the schema name (undefined when absent).
 */
export function splitSchemaParam(url: string): { url: string; schema: string | undefined } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  u.searchParams.delete('schema');
  return { url: u.toString(), schema: schema === '' ? undefined : schema };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Opens the database, applies pending migrations (see migrator.ts) and returns Prisma Client over the
 * matching driver adapter: `pglite-prisma-adapter` for PGlite, `@prisma/adapter-pg` for Postgres.
 * Errors: connection failures and `MigrationError` are thrown; nothing is left open when it throws.
 */
export async function openDatabase(
  target: DatabaseTarget,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const dir = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  return target.kind === 'pglite' ? openPglite(target.dataDir, dir) : openPostgres(target.url, dir);
}

async function openPglite(dataDir: string, migrationsDir: string): Promise<Database> {
  const onDisk = !dataDir.includes('://');
  if (onDisk && !existsSync(join(dataDir, 'PG_VERSION'))) {
    // A new data folder: initdb grows the WASM heap far past what the server needs, and a WASM instance
    // never gives memory back.
    // Create the cluster in a throw-away instance, so the server's own instance starts small.
    mkdirSync(dataDir, { recursive: true });
    const init = await PGlite.create(dataDir, { postgresqlconf: PGLITE_CONF });
    await init.close();
  }
  const db = await PGlite.create(dataDir, { postgresqlconf: PGLITE_CONF });
  try {
    const session: MigrationSession = {
      exec: async (sql) => {
        await db.exec(sql);
      },
      query: async <T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) =>
        (await db.query<T>(sql, [...params])).rows,
    };
    const migrations = await migrate(session, migrationsDir);
    const prisma = new PrismaClient({
      adapter: new PrismaPGlite(db),
      transactionOptions: TRANSACTION_OPTIONS,
    });
    let closed = false;
    return {
      kind: 'pglite',
      prisma,
      migrations,
      writeMoves: pgliteBatchWriter(db),
      gameVersion: async (id) =>
        (await db.query<{ version: number }>(GAME_VERSION_SQL, [id])).rows[0]?.version ?? null,
      query: async <R extends Record<string, unknown>>(
        _name: string,
        text: string,
        values: readonly unknown[],
      ) => (await db.query<R>(text, [...values])).rows,
      async close() {
        if (closed) return;
        closed = true;
        await prisma.$disconnect();
        await db.close();
      },
    };
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
}

async function openPostgres(rawUrl: string, migrationsDir: string): Promise<Database> {
  const { url, schema } = splitSchemaParam(rawUrl);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let migrations: MigrationReport;
  try {
    if (schema !== undefined) {
      // Under the migrations' lock: `IF NOT EXISTS` races when nodes start together on a new schema.
      await client.query(`SELECT pg_advisory_lock(${PRISMA_ADVISORY_LOCK_ID})`);
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${PRISMA_ADVISORY_LOCK_ID})`);
      }
      await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    }
    const session: MigrationSession = {
      exec: async (sql) => {
        await client.query(sql);
      },
      query: async <T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) =>
        (await client.query<T>(sql, [...params])).rows,
    };
    migrations = await migrate(session, migrationsDir);
  } finally {
    await client.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema !== undefined ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
  });
  const adapter = new PrismaPg(pool, {
    ...(schema !== undefined ? { schema } : {}),
    disposeExternalPool: true,
  });
  const prisma = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  let closed = false;
  return {
    kind: 'postgres',
    prisma,
    migrations,
    writeMoves: pgBatchWriter(pool),
    gameVersion: batchedVersionProbe(
      async (ids) =>
        (
          await pool.query<{ id: string; version: number }>({
            name: 'game-versions',
            text: GAME_VERSIONS_SQL,
            values: [ids],
          })
        ).rows,
    ),
    query: async <R extends Record<string, unknown>>(
      name: string,
      text: string,
      values: readonly unknown[],
    ) => (await pool.query<R>({ name, text, values: [...values] })).rows,
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
