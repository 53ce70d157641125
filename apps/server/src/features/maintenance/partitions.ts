/**
 * The partitions of the move log. "Move" is partitioned by range of `gameDay`, its game's creation day
 * (migration 20261202100000): one partition a UTC day, named `Move_pYYYYMMDD`, and a DEFAULT partition,
 * `Move_default`, that takes the entries of any day without a partition of its own.
 *
 * The daily job (plugins/daily.ts, under its lease: one node of the cluster) keeps the coming days'
 * partitions created ahead and drops the past days' partitions that compaction (maintenance/compaction.ts)
 * and retention have left empty: an old day goes whole, with no DELETE and no vacuum debt.
 *
 * Locks. A partition is created as a plain table and then attached (`ATTACH PARTITION` takes a SHARE UPDATE
 * EXCLUSIVE lock on "Move", which does not wait for, nor hold up, the commits of moves; `CREATE TABLE …
 * PARTITION OF` would take an ACCESS EXCLUSIVE one). Dropping detaches first, which does take an ACCESS
 * EXCLUSIVE lock on "Move" for the few milliseconds of the transaction; every statement here waits at most
 * PARTITION_LOCK_TIMEOUT for a lock (a commit queued behind it waits no longer) and the next run retries.
 * The emptiness check runs after the detach, under its lock, so no entry can arrive between the check and
 * the drop; an entry of that day written later goes to the DEFAULT partition, where every read finds it.
 */
import type { PrismaClient } from '../../generated/prisma/client.js';

/** Coming days (after today, UTC) whose partitions are kept created ahead. */
export const PARTITION_DAYS_AHEAD = 3;

/** How long a statement here waits for a lock before giving up until the next run. */
export const PARTITION_LOCK_TIMEOUT = '500ms';

const DAY_MS = 86_400_000;

/** The name of a day's partition: `Move_pYYYYMMDD` (`day`: a UTC date `YYYY-MM-DD`). */
export function partitionName(day: string): string {
  return `Move_p${day.replaceAll('-', '')}`;
}

/** The UTC date of a day partition's name, or null for another name (the DEFAULT partition). */
export function partitionDay(name: string): string | null {
  const m = /^Move_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The partitions of "Move" (names, in name order: the days in date order, then `Move_default`). */
export async function movePartitions(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = '"Move"'::regclass ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/** What `maintainPartitions` did: the partitions it created and dropped, and those it could not drop. */
export interface PartitionReport {
  readonly created: string[];
  readonly dropped: string[];
}

/**
 * Creates the partitions of today and the next PARTITION_DAYS_AHEAD days (UTC, by `now`) that do not exist
 * yet. A day whose entries already sit in the DEFAULT partition (the job did not run in time) is left
 * without a partition, as its entries are, and logged by the caller through `failed`. Returns the names
 * created. Errors: database errors other than that one.
 */
export async function createPartitionsAhead(
  prisma: PrismaClient,
  now: number,
  failed: (name: string, err: unknown) => void = () => {},
): Promise<string[]> {
  const existing = new Set(await movePartitions(prisma));
  const created: string[] = [];
  for (let i = 0; i <= PARTITION_DAYS_AHEAD; i++) {
    const day = utcDate(now + i * DAY_MS);
    const name = partitionName(day);
    if (existing.has(name)) continue;
    const next = utcDate(Date.parse(day) + DAY_MS);
    try {
      await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`);
        await tx.$executeRawUnsafe(
          `CREATE TABLE "${name}" (LIKE "Move" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
        );
        await tx.$executeRawUnsafe(
          `ALTER TABLE "Move" ATTACH PARTITION "${name}" FOR VALUES FROM ('${day}') TO ('${next}')`,
        );
      });
      created.push(name);
    } catch (err) {
      failed(name, err);
    }
  }
  return created;
}

/**
 * Drops the partitions of days before yesterday (UTC, by `now`) that hold no entry (see the module
 * comment for the locks). Returns the names dropped; a partition that still holds entries, or whose lock
 * was not granted in time, stays (`failed` hears of the latter).
 */
export async function dropEmptyPartitions(
  prisma: PrismaClient,
  now: number,
  failed: (name: string, err: unknown) => void = () => {},
): Promise<string[]> {
  const before = utcDate(now - DAY_MS);
  const dropped: string[] = [];
  for (const name of await movePartitions(prisma)) {
    const day = partitionDay(name);
    if (day === null || day >= before) continue;
    try {
      const gone = await prisma.$transaction(async (tx) => {
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
      if (gone) dropped.push(name);
    } catch (err) {
      if (!(err instanceof PartitionInUse)) failed(name, err);
    }
  }
  return dropped;
}

/** Thrown inside the drop's transaction to roll the detach back: the partition still holds entries. */
class PartitionInUse extends Error {}

/** One run of the daily job's partition upkeep: create ahead, then drop the empty past days. */
export async function maintainPartitions(
  prisma: PrismaClient,
  now: number,
  failed: (name: string, err: unknown) => void = () => {},
): Promise<PartitionReport> {
  const created = await createPartitionsAhead(prisma, now, failed);
  const dropped = await dropEmptyPartitions(prisma, now, failed);
  return { created, dropped };
}
