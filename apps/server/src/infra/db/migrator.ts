/**
 * A small migrator for Prisma-layout SQL migrations (`prisma/migrations/<timestamp>_<name>/migration.sql`).
 *
 * Prisma 7's `migrate` needs a schema-engine binary that is not always at hand (it is downloaded on
 * first use, and a build may have no network), so the server applies the migrations itself, at start-up and in tests, and
 * records them in Prisma's own `_prisma_migrations` table exactly as `prisma migrate deploy` does (same
 * columns, `checksum` = SHA-256 hex of the file's bytes, `applied_steps_count` = 1, advisory lock 72707369),
 * so `prisma migrate deploy` and `prisma migrate status` accept a database migrated by this code.
 *
 * Each migration runs in its own transaction together with its `_prisma_migrations` row: it is applied
 * whole or not at all (migration scripts must therefore not contain their own BEGIN/COMMIT).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest `prisma/migrations` folder above `dir` (the sources and the build sit at different depths). */
function findMigrations(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    if (dirname(d) === d) return resolve(dir, '../../../../../prisma/migrations');
  }
}

/** The repository's migrations folder (`<repo>/prisma/migrations`). */
export const DEFAULT_MIGRATIONS_DIR: string = findMigrations(fileURLToPath(new URL('.', import.meta.url)));

/** The advisory lock id Prisma's migrate takes, so our migrator and `prisma migrate` exclude each other. */
export const PRISMA_ADVISORY_LOCK_ID = 72707369;

/** The DDL of Prisma's migrations table, as Prisma's schema engine creates it for PostgreSQL. */
export const PRISMA_MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

/**
 * One database session the migrator talks through. It must be a single session (one connection), because
 * the advisory lock and the transactions are per session.
 */
export interface MigrationSession {
  /** Runs a script of one or more statements without parameters (simple query protocol). */
  exec(sql: string): Promise<void>;
  /** Runs one statement with `$1…` parameters and returns its rows as objects keyed by column name. */
  query<T extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** A migration found on disk. */
export interface MigrationFile {
  /** Folder name, e.g. `20250101000000_init` (also `_prisma_migrations.migration_name`). */
  readonly name: string;
  /** The SQL script. */
  readonly sql: string;
  /** SHA-256 of the file's bytes, lowercase hex (Prisma's checksum). */
  readonly checksum: string;
}

/** What `migrate` did. */
export interface MigrationReport {
  /** Migrations applied by this call, in order. */
  readonly applied: string[];
  /** Migrations that were already applied before this call. */
  readonly alreadyApplied: string[];
  /** Migrations recorded in the database but missing on disk (Prisma reports these too; not an error). */
  readonly unknown: string[];
}

/** Thrown when the database's migration history cannot be reconciled with the files on disk. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** Prisma's checksum of a migration file: SHA-256 of its bytes, lowercase hex. */
export function migrationChecksum(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads the migrations in `dir` (default: the repository's `prisma/migrations`) in name order, i.e. in
 * timestamp order. Folders without a `migration.sql` are ignored, like Prisma does.
 */
export function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) throw new MigrationError(`migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: migrationChecksum(bytes) };
    });
}

interface AppliedRow extends Record<string, unknown> {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

/**
 * Applies every migration of `dir` that the database has not recorded yet, holding Prisma's advisory lock
 * (from before its table is created: any number of nodes may start together on an empty database).
 * Errors (`MigrationError`): a migration that failed earlier and was never resolved (Prisma's P3009), a
 * migration whose file changed after it was applied (checksum mismatch), or the SQL error of a migration
 * (that migration is rolled back whole and nothing is recorded for it).
 */
export async function migrate(
  session: MigrationSession,
  dir: string = DEFAULT_MIGRATIONS_DIR,
): Promise<MigrationReport> {
  const files = readMigrations(dir);
  // The lock first: nodes starting together on a fresh database would otherwise race in the table's
  // `CREATE TABLE IF NOT EXISTS`, which is not safe under concurrency (a unique violation in pg_type).
  await session.query(`SELECT pg_advisory_lock(${PRISMA_ADVISORY_LOCK_ID})`);
  try {
    await session.exec(PRISMA_MIGRATIONS_TABLE_DDL);
    const rows = await session.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length > 0) {
      throw new MigrationError(
        `migration ${failed.map((r) => r.migration_name).join(', ')} failed earlier; resolve it (prisma migrate resolve) before starting`,
      );
    }
    const done = new Map(
      rows
        .filter((r) => r.finished_at !== null && r.rolled_back_at === null)
        .map((r) => [r.migration_name, r]),
    );
    const report: MigrationReport = { applied: [], alreadyApplied: [], unknown: [] };
    const onDisk = new Set(files.map((f) => f.name));
    for (const name of done.keys()) if (!onDisk.has(name)) report.unknown.push(name);
    for (const file of files) {
      const row = done.get(file.name);
      if (row) {
        if (row.checksum !== file.checksum) {
          throw new MigrationError(
            `migration ${file.name} was modified after it was applied (checksum mismatch)`,
          );
        }
        report.alreadyApplied.push(file.name);
        continue;
      }
      await session.exec('BEGIN');
      try {
        const id = randomUUID();
        await session.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
          [id, file.checksum, file.name],
        );
        await session.exec(file.sql);
        await session.query(
          'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
          [id],
        );
        await session.exec('COMMIT');
      } catch (e) {
        await session.exec('ROLLBACK').catch(() => undefined);
        throw new MigrationError(
          `migration ${file.name} failed: ${e instanceof Error ? e.message : String(e)}`,
          { cause: e },
        );
      }
      report.applied.push(file.name);
    }
    return report;
  } finally {
    await session.query(`SELECT pg_advisory_unlock(${PRISMA_ADVISORY_LOCK_ID})`).catch(() => undefined);
  }
}
