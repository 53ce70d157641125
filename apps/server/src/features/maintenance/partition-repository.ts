/**
 * The move log's partitions as tables (maintenance/partitions.ts decides which days to create and drop):
 * listing the partitions of "Move", creating a day's partition and attaching it, and dropping an empty one.
 * Every statement waits at most PARTITION_LOCK_TIMEOUT for a lock (see the locks in partitions.ts).
 */
import type { PrismaClient } from '../../generated/prisma/client.js';

/** How long a statement here waits for a lock before giving up until the next run. */
export const PARTITION_LOCK_TIMEOUT = '500ms';

/** Thrown by `dropIfEmpty` inside its transaction to roll the detach back: the partition still holds entries. */
class PartitionInUse extends Error {}

/** The partitions of "Move" in one database. Every method throws database errors. */
export class PartitionRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /** The partitions of "Move" (names, in name order: the days in date order, then `Move_default`). */
  async names(): Promise<string[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ name: string }[]>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = '"Move"'::regclass ORDER BY c.relname`,
    );
    return rows.map((r) => r.name);
  }

  /**
   * Creates partition `name` as a plain table and attaches it for the days [`day`, `next`) (UTC dates
   * `YYYY-MM-DD`), in one transaction. Errors: a lock not granted in time; entries of that day already in
   * the DEFAULT partition.
   */
  async create(name: string, day: string, next: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`);
      await tx.$executeRawUnsafe(
        `CREATE TABLE "${name}" (LIKE "Move" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
      );
      await tx.$executeRawUnsafe(
        `ALTER TABLE "Move" ATTACH PARTITION "${name}" FOR VALUES FROM ('${day}') TO ('${next}')`,
      );
    });
  }

  /**
   * Detaches partition `name` and drops it if it holds no entry (the check runs under the detach's lock, so
   * no entry arrives between the check and the drop); else rolls the detach back. Returns whether it was
   * dropped. Errors: a lock not granted in time.
   */
  async dropIfEmpty(name: string): Promise<boolean> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`);
        await tx.$executeRawUnsafe(`ALTER TABLE "Move" DETACH PARTITION "${name}"`);
        const [row] = await tx.$queryRawUnsafe<{ used: boolean }[]>(
          `SELECT EXISTS (SELECT 1 FROM "${name}") AS used`,
        );
        // Rows left: roll the detach back (the partition stays as it was).
        if (row?.used !== false) throw new PartitionInUse();
        await tx.$executeRawUnsafe(`DROP TABLE "${name}"`);
        return true;
      });
    } catch (err) {
      if (err instanceof PartitionInUse) return false;
      throw err;
    }
  }
}
