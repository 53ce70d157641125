/**
 * R16 added the option `finalSinglePass`. Stored options hold every option and the server parses them with
 * the strict options schema, so the data migration `*_final_single_pass` gives the games (and races) stored
 * before it `finalSinglePass: false`, and leaves newer rows alone.
 */
import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { GameOptionsSchema } from '@klondike/protocol';
import { PRESETS } from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigrationSession, migrate, readMigrations } from '../../../src/infra/db/migrator.js';
import { migrationsBefore } from '../../support/helpers.js';

const MIGRATION = readMigrations().find((m) => m.name.endsWith('_final_single_pass'));

describe('R16: the final_single_pass data migration (PGlite)', () => {
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

  it('R16: games stored before the option get finalSinglePass false; newer rows keep theirs', async () => {
    expect(MIGRATION).toBeDefined();
    const applied = await migrate(session, before);
    expect(applied.applied).not.toContain(MIGRATION?.name);
    const { finalSinglePass: _, ...old } = PRESETS['classic-draw3'];
    const insert =
      'INSERT INTO "Game" ("id", "options", "deal", "updatedAt") VALUES ($1, $2::jsonb, \'\', now())';
    await db.query(insert, ['old', JSON.stringify(old)]);
    await db.query(insert, ['new', JSON.stringify(PRESETS['draw3-last-pass'])]);
    expect(() => GameOptionsSchema.parse(old)).toThrow();

    const report = await migrate(session);
    expect(report.applied).toContain(MIGRATION?.name);
    const rows = await db.query<{ id: string; options: unknown }>(
      'SELECT "id", "options" FROM "Game" ORDER BY "id"',
    );
    const byId = Object.fromEntries(rows.rows.map((r) => [r.id, GameOptionsSchema.parse(r.options)]));
    expect(byId.old).toEqual(PRESETS['classic-draw3']);
    expect(byId.new).toEqual(PRESETS['draw3-last-pass']);
  });
});
