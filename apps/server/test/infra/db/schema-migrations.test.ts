/**
 * prisma/schema.prisma and prisma/migrations agree: the migrations applied to an empty database give
 * exactly the tables, columns (type, nullability, default), enums, indexes and foreign keys that the
 * schema's models imply — on PGlite and on Postgres. Also: the migrator records Prisma's
 * `_prisma_migrations` rows (checksum = SHA-256 of the file), is idempotent, and refuses edited or
 * failing migrations without leaving anything half-applied.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitSchemaParam } from '../../../src/infra/db/database.js';
import {
  DEFAULT_MIGRATIONS_DIR,
  MigrationError,
  type MigrationSession,
  migrate,
  migrationChecksum,
  readMigrations,
} from '../../../src/infra/db/migrator.js';
import {
  TEST_DATABASE_URL,
  describeEachDatabase,
  testSchemaName,
  withSchema,
  dropSchema,
} from '../../support/helpers.js';
import { type Query, expectedFromPrismaSchema, introspect, normalise } from '../../support/prisma-schema.js';

const SCHEMA_FILE = resolve(DEFAULT_MIGRATIONS_DIR, '../schema.prisma');
const schemaText = readFileSync(SCHEMA_FILE, 'utf8');

/** A throw-away database: a migration session, a query function and the schema name to introspect. */
interface Scratch {
  session: MigrationSession;
  query: Query;
  schema: string;
  close(): Promise<void>;
}

async function pgliteScratch(): Promise<Scratch> {
  const db = await PGlite.create('memory://');
  const query: Query = async (sql, params = []) => (await db.query<never>(sql, params)).rows;
  return {
    session: {
      exec: async (sql) => void (await db.exec(sql)),
      query: async (sql, params = []) => (await db.query<never>(sql, [...params])).rows,
    },
    query,
    schema: 'public',
    close: () => db.close(),
  };
}

async function postgresScratch(baseUrl: string): Promise<Scratch> {
  const schema = testSchemaName();
  const { url } = splitSchemaParam(baseUrl);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET search_path TO "${schema}"`);
  const query: Query = async (sql, params = []) => (await client.query<never>(sql, params)).rows;
  return {
    session: {
      exec: async (sql) => void (await client.query(sql)),
      query: async (sql, params = []) => (await client.query<never>(sql, [...params])).rows,
    },
    query,
    schema,
    close: async () => {
      await client.end();
      await dropSchema(withSchema(baseUrl, schema));
    },
  };
}

function copyMigrations(): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

describe('prisma/ layout', () => {
  it('migrations are <14-digit timestamp>_<name>/migration.sql with a postgresql migration_lock.toml', () => {
    const files = readMigrations();
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(f.name).toMatch(/^\d{14}_[a-z0-9_]+$/);
    expect(readFileSync(join(DEFAULT_MIGRATIONS_DIR, 'migration_lock.toml'), 'utf8')).toMatch(
      /provider = "postgresql"/,
    );
  });

  it('the schema reader sees every model, field and enum of schema.prisma', () => {
    const expected = expectedFromPrismaSchema(schemaText);
    expect(expected.tables.sort()).toEqual([
      'Appeal',
      'Arena',
      'ArenaPlayer',
      'ArenaRace',
      'DailyAttempt',
      'DailyDeal',
      'DailyExport',
      'DailyResult',
      'FairPlayFlag',
      'FairPlayMark',
      'Game',
      'GameSignals',
      'ModAction',
      'Moderator',
      'Move',
      'PairingEntry',
      'Player',
      'PlayerToken',
      'Puzzle',
      'PuzzleAttempt',
      'PuzzleDaily',
      'PuzzleRating',
      'PuzzleRun',
      'PuzzleScan',
      'Race',
      'RacePresence',
      'RaceRacer',
      'RatedDaily',
      'RatedPair',
      'Rating',
      'RatingHistory',
      'RatingRefund',
      'Report',
      'ServerNode',
      'Setting',
      'TransferCode',
    ]);
    expect(expected.columns.filter((c) => c.table === 'Game').map((c) => c.column)).toEqual(
      expect.arrayContaining(['dealNumber', 'playerId', 'dailyId', 'ranked']),
    );
    expect(expected.enums).toEqual({
      GameStatus: ['playing', 'won', 'blocked', 'resigned'],
      MoveKind: ['move', 'undo', 'resign'],
      ResultStatus: ['won', 'resigned', 'blocked', 'unfinished'],
      RaceStatus: ['lobby', 'countdown', 'running', 'finished'],
    });
    // The unique constraints that make a second ranked attempt or result impossible.
    const uniques = expected.indexes.filter((i) => i.unique).map((i) => `${i.table}(${i.columns.join(',')})`);
    expect(uniques).toEqual(
      expect.arrayContaining(['DailyAttempt(dailyId,playerId)', 'DailyResult(dailyId,playerId)']),
    );
  });
});

const scratchFor = (kind: 'pglite' | 'postgres') =>
  kind === 'pglite' ? pgliteScratch() : postgresScratch(TEST_DATABASE_URL ?? 'postgresql://unused');

describeEachDatabase('schema.prisma vs migrations', (db) => {
  let s: Scratch;
  beforeAll(async () => {
    s = await scratchFor(db.kind);
  });
  afterAll(async () => {
    await s.close();
  });

  it('the migrated database has exactly the tables, columns, enums, indexes and foreign keys of schema.prisma', async () => {
    const report = await migrate(s.session);
    expect(report.applied).toEqual(readMigrations().map((m) => m.name));
    const actual = normalise(await introspect(s.query, s.schema));
    const expected = normalise(expectedFromPrismaSchema(schemaText));
    expect(actual).toEqual(expected);
  });

  it('a field added to schema.prisma only, or a column added by a migration only, makes them disagree', async () => {
    const actual = normalise(await introspect(s.query, s.schema));
    const extraField = schemaText.replace(/(model Game \{\n)/, '$1  nickname String?\n');
    expect(normalise(expectedFromPrismaSchema(extraField))).not.toEqual(actual);
    const optional = schemaText.replace(/\n {2}deal( +)String\n/, '\n  deal$1String?\n');
    expect(optional).not.toBe(schemaText);
    expect(normalise(expectedFromPrismaSchema(optional))).not.toEqual(actual);
    await s.session.exec('BEGIN');
    await s.session.exec('ALTER TABLE "Game" ADD COLUMN "extra" INTEGER');
    const drifted = normalise(await introspect(s.query, s.schema));
    await s.session.exec('ROLLBACK');
    expect(drifted).not.toEqual(normalise(expectedFromPrismaSchema(schemaText)));
  });

  it('records each migration in _prisma_migrations as Prisma does (sha256 checksum, finished, 1 step)', async () => {
    const rows = await s.query<{
      id: string;
      checksum: string;
      migration_name: string;
      finished_at: unknown;
      rolled_back_at: unknown;
      logs: unknown;
      applied_steps_count: number;
    }>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name');
    const files = readMigrations();
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      const file = files[i];
      if (!file) throw new Error('missing file');
      expect(row.checksum).toBe(
        migrationChecksum(readFileSync(join(DEFAULT_MIGRATIONS_DIR, file.name, 'migration.sql'))),
      );
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    const columns = await s.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      [s.schema],
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      'id',
      'checksum',
      'finished_at',
      'migration_name',
      'logs',
      'rolled_back_at',
      'started_at',
      'applied_steps_count',
    ]);
  });

  it('running the migrator again applies nothing', async () => {
    const again = await migrate(s.session);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(readMigrations().map((m) => m.name));
  });

  it('an applied migration whose file changed is refused (checksum mismatch)', async () => {
    const dir = copyMigrations();
    try {
      const first = readMigrations(dir)[0];
      if (!first) throw new Error('no migration');
      writeFileSync(join(dir, first.name, 'migration.sql'), `${first.sql}\n-- edited\n`);
      await expect(migrate(s.session, dir)).rejects.toThrow(MigrationError);
      await expect(migrate(s.session, dir)).rejects.toThrow(/checksum/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a failing migration is rolled back whole and not recorded', async () => {
    const dir = copyMigrations();
    try {
      mkdirSync(join(dir, '29991231000000_broken'));
      writeFileSync(
        join(dir, '29991231000000_broken', 'migration.sql'),
        'CREATE TABLE "Half" ("id" INTEGER);\nSELECT no_such_function();\n',
      );
      await expect(migrate(s.session, dir)).rejects.toThrow(/29991231000000_broken/);
      const half = await s.query(
        `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Half'`,
        [s.schema],
      );
      expect(half).toEqual([]);
      const recorded = await s.query(
        `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29991231000000_broken'`,
      );
      expect(recorded).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
