/**
 * The readiness probe's question to the database (edge/health.ts): which migrations are recorded as
 * finished (and not rolled back) in Prisma's `_prisma_migrations` table.
 */
import type { Database } from './database.js';

/** The names of the finished migrations of `db`. Errors: database errors (an unreachable database). */
export async function finishedMigrations(db: Pick<Database, 'prisma'>): Promise<Set<string>> {
  const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
    'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  return new Set(rows.map((r) => r.migration_name));
}
