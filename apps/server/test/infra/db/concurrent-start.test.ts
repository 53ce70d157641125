/**
 * Nodes that start together on an empty Postgres schema (a cluster's first deploy, two test nodes started
 * at once) all open it: one creates the schema and applies the migrations, the others wait for the
 * migrations' lock and find them applied. Before, `CREATE SCHEMA IF NOT EXISTS` and the migrations table's
 * `CREATE TABLE IF NOT EXISTS` ran outside the lock and could fail with a unique violation in the catalog.
 */
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/infra/db/database.js';
import { readMigrations } from '../../../src/infra/db/migrator.js';
import { TEST_DATABASE_URL, dropSchema, testSchemaName, withSchema } from '../../support/helpers.js';

describe.skipIf(TEST_DATABASE_URL === undefined)('nodes starting together on a new schema [Postgres]', () => {
  it('every node opens it; the migrations are applied once', async () => {
    const names = readMigrations().map((m) => m.name);
    // A few rounds: the old race needed two `IF NOT EXISTS` statements to meet in the catalog.
    for (let round = 0; round < 3; round++) {
      const url = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
      const opened = await Promise.allSettled(
        Array.from({ length: 6 }, () => openDatabase({ kind: 'postgres', url })),
      );
      const dbs = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      try {
        expect(opened.filter((o) => o.status === 'rejected').map((o) => String(o.reason))).toEqual([]);
        const applied = dbs.flatMap((db: Database) => db.migrations.applied);
        expect([...applied].sort()).toEqual([...names].sort());
        for (const db of dbs)
          expect([...db.migrations.applied, ...db.migrations.alreadyApplied]).toHaveLength(names.length);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
        await dropSchema(url);
      }
    }
  });
});
