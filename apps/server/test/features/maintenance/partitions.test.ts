/**
 * The move log's partitions (maintenance/partitions.ts): "Move" is a partitioned table with a partition per
 * day and a DEFAULT one, and its migration moves the entries stored before it; the coming days' partitions are created ahead, idempotently; a past day's
 * partition is dropped once empty, and kept while it holds entries; entries route by their game's day.
 */
import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigrationSession, migrate, readMigrations } from '../../../src/infra/db/migrator.js';
import {
  PARTITION_DAYS_AHEAD,
  createPartitionsAhead,
  daysAhead,
  droppable,
  dropEmptyPartitions,
  movePartitions,
  partitionDay,
  partitionName,
} from '../../../src/features/maintenance/partitions.js';
import { PartitionRepository } from '../../../src/features/maintenance/partition-repository.js';
import { describeEachDatabase, migrationsBefore, testApp } from '../../support/helpers.js';

const DAY = 86_400_000;
const utc = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe('which partitions to keep (pure)', () => {
  const noon = Date.parse('2026-03-10T12:00:00Z');
  it('today and the next PARTITION_DAYS_AHEAD days are kept created', () => {
    expect(daysAhead(noon)).toEqual(['2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13']);
    expect(daysAhead(noon)).toHaveLength(PARTITION_DAYS_AHEAD + 1);
  });
  it('only day partitions before yesterday may be dropped; the DEFAULT partition never', () => {
    const names = ['Move_p20260307', 'Move_p20260308', 'Move_p20260309', 'Move_p20260310', 'Move_default'];
    expect(droppable(names, noon)).toEqual(['Move_p20260307', 'Move_p20260308']);
  });
  it('a partition name and its day', () => {
    expect(partitionName('2026-03-10')).toBe('Move_p20260310');
    expect(partitionDay('Move_p20260310')).toBe('2026-03-10');
    expect(partitionDay('Move_default')).toBeNull();
  });
});

describeEachDatabase('move log partitions', (db) => {
  let app: FastifyInstance;
  let clock = Date.now();
  beforeAll(async () => {
    app = await testApp(db, { now: () => clock, config: { maintenanceTickMs: 0 } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function newGame(): Promise<string> {
    return (await app.inject({ method: 'POST', url: '/api/games', payload: {} })).json<{ id: string }>().id;
  }

  it('"Move" is a partitioned table (relkind p) with a DEFAULT partition and today\'s and the next days\'', async () => {
    const [row] = await app.prisma.$queryRawUnsafe<{ relkind: string }[]>(
      `SELECT relkind::text AS relkind FROM pg_class WHERE oid = '"Move"'::regclass`,
    );
    expect(row?.relkind).toBe('p');
    const parts = await movePartitions(new PartitionRepository(app.prisma));
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts).toContain('Move_default');
    expect(parts).toContain(partitionName(utc(Date.now())));
  });

  it('creates the coming days ahead once; a second run creates nothing', async () => {
    const later = Date.now() + 10 * DAY;
    const created = await createPartitionsAhead(new PartitionRepository(app.prisma), later);
    expect(created).toEqual(
      Array.from({ length: PARTITION_DAYS_AHEAD + 1 }, (_, i) => partitionName(utc(later + i * DAY))),
    );
    expect(await createPartitionsAhead(new PartitionRepository(app.prisma), later)).toEqual([]);
    const parts = await movePartitions(new PartitionRepository(app.prisma));
    for (const name of created) expect(parts).toContain(name);
  });

  it("a game's entries go to its creation day's partition; the day is dropped only once empty", async () => {
    // A game created on a day 20 days ago, with that day's partition, and two moves made today.
    const past = Date.now() - 20 * DAY;
    clock = past;
    expect(await createPartitionsAhead(new PartitionRepository(app.prisma), past)).toContain(
      partitionName(utc(past)),
    );
    const id = await newGame();
    clock = Date.now();
    for (const version of [0, 1])
      expect(
        (
          await app.inject({
            method: 'POST',
            url: `/api/games/${id}/moves`,
            payload: { move: { type: 'draw' }, version },
          })
        ).statusCode,
      ).toBe(200);
    const name = partitionName(utc(past));
    const inPartition = async (): Promise<number> =>
      Number(
        (
          await app.prisma.$queryRawUnsafe<{ n: bigint }[]>(
            `SELECT count(*) AS n FROM "${name}" WHERE "gameId" = $1`,
            id,
          )
        )[0]?.n,
      );
    expect(await inPartition()).toBe(2);

    // Entries left: kept (and so are today's and the coming days', empty or not).
    expect(await dropEmptyPartitions(new PartitionRepository(app.prisma), Date.now())).not.toContain(name);
    expect(await movePartitions(new PartitionRepository(app.prisma))).toContain(name);
    const emptyAhead = partitionName(utc(Date.now() + 2 * DAY));
    expect(await movePartitions(new PartitionRepository(app.prisma))).toContain(emptyAhead);

    // Emptied: dropped; the game still reads (its log is gone with the rows deleted here, not its row).
    await app.prisma.move.deleteMany({ where: { gameId: id } });
    const dropped = await dropEmptyPartitions(new PartitionRepository(app.prisma), Date.now());
    expect(dropped).toContain(name);
    const parts = await movePartitions(new PartitionRepository(app.prisma));
    expect(parts).not.toContain(name);
    expect(parts).toContain(emptyAhead);
    expect(parts).toContain(partitionName(utc(Date.now())));

    // A later entry of that day lands in the DEFAULT partition, and the game's log reads it.
    await app.prisma.game.update({ where: { id }, data: { version: 0 } });
    app.rooms.evict(id);
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    expect(r.statusCode).toBe(200);
    const [d] = await app.prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM "Move_default" WHERE "gameId" = $1`,
      id,
    );
    expect(Number(d?.n)).toBe(1);
    app.rooms.evict(id);
    const game = (await app.inject({ method: 'GET', url: `/api/games/${id}` })).json<{ version: number }>();
    expect(game.version).toBe(1);
  });
});

const MIGRATION = readMigrations().find((m) => m.name.endsWith('_move_log_partitioned'));

describe('the move_log_partitioned data migration (PGlite)', () => {
  let db: PGlite;
  let session: MigrationSession;
  let before: string;
  beforeAll(async () => {
    db = await PGlite.create('memory://');
    session = {
      exec: async (sql) => void (await db.exec(sql)),
      query: async (sql, params = []) => (await db.query<never>(sql, [...params])).rows,
    };
    // The migrations before this one only.
    before = migrationsBefore(MIGRATION?.name);
  });
  afterAll(async () => {
    await db.close();
    rmSync(before, { recursive: true, force: true });
  });

  it("moves every entry to its game's day: today's to its partition, an old day's to the DEFAULT one", async () => {
    expect(MIGRATION).toBeDefined();
    expect((await migrate(session, before)).applied).not.toContain(MIGRATION?.name);
    const game = `INSERT INTO "Game" ("id", "options", "deal", "version", "createdAt", "updatedAt")
      VALUES ($1, '{}'::jsonb, '', 2, $2::timestamp, now())`;
    const today = new Date().toISOString().slice(0, 10);
    await db.query(game, ['old', '2025-03-04 10:00:00']);
    await db.query(game, ['new', `${today} 00:00:01`]);
    for (const id of ['old', 'new'])
      for (const seq of [1, 2])
        await db.query(
          `INSERT INTO "Move" ("gameId", seq, kind, move, "createdAt") VALUES ($1, $2, 'move', '{"type":"draw"}', now())`,
          [id, seq],
        );
    expect((await migrate(session)).applied).toContain(MIGRATION?.name);
    const rows = await db.query<{ part: string; id: string; day: string; n: number }>(
      `SELECT tableoid::regclass::text AS part, "gameId" AS id, "gameDay"::text AS day, count(*)::int AS n
         FROM "Move" GROUP BY 1, 2, 3 ORDER BY 2`,
    );
    expect(rows.rows).toEqual([
      { part: `"${partitionName(today)}"`, id: 'new', day: today, n: 2 },
      { part: '"Move_default"', id: 'old', day: '2025-03-04', n: 2 },
    ]);
  });
});
