/**
 * The partitions of the move log. "Move" is partitioned by range of `gameDay`, its game's creation day
 * (migration 20261202100000): one partition a UTC day, named `Move_pYYYYMMDD`, and a DEFAULT partition,
 * `Move_default`, that takes the entries of any day without a partition of its own.
 *
 * The daily job (daily/plugin.ts, under its lease: one node of the cluster) keeps the coming days'
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
import type { PartitionRepository } from './partition-repository.js';

export { PARTITION_LOCK_TIMEOUT } from './partition-repository.js';

/** Coming days (after today, UTC) whose partitions are kept created ahead. */
export const PARTITION_DAYS_AHEAD = 3;

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
export function movePartitions(repo: PartitionRepository): Promise<string[]> {
  return repo.names();
}

/** The days (UTC dates) whose partitions are kept created at `now`: today and the next PARTITION_DAYS_AHEAD. */
export function daysAhead(now: number): string[] {
  return Array.from({ length: PARTITION_DAYS_AHEAD + 1 }, (_, i) => utcDate(now + i * DAY_MS));
}

/** The day partitions among `names` that may be dropped at `now` (if empty): those of days before yesterday. */
export function droppable(names: readonly string[], now: number): string[] {
  const before = utcDate(now - DAY_MS);
  return names.filter((name) => {
    const day = partitionDay(name);
    return day !== null && day < before;
  });
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
  repo: PartitionRepository,
  now: number,
  failed: (name: string, err: unknown) => void = () => {},
): Promise<string[]> {
  const existing = new Set(await repo.names());
  const created: string[] = [];
  for (const day of daysAhead(now)) {
    const name = partitionName(day);
    if (existing.has(name)) continue;
    try {
      await repo.create(name, day, utcDate(Date.parse(day) + DAY_MS));
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
  repo: PartitionRepository,
  now: number,
  failed: (name: string, err: unknown) => void = () => {},
): Promise<string[]> {
  const dropped: string[] = [];
  for (const name of droppable(await repo.names(), now)) {
    try {
      if (await repo.dropIfEmpty(name)) dropped.push(name);
    } catch (err) {
      failed(name, err);
    }
  }
  return dropped;
}

/** One run of the daily job's partition upkeep: create ahead, then drop the empty past days. */
export async function maintainPartitions(
  repo: PartitionRepository,
  now: number,
  failed: (name: string, err: unknown) => void = () => {},
): Promise<PartitionReport> {
  const created = await createPartitionsAhead(repo, now, failed);
  const dropped = await dropEmptyPartitions(repo, now, failed);
  return { created, dropped };
}
