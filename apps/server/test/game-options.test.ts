/**
 * A game's options by preset (db/game-options.ts, migration `*_game_options_by_preset`): a game whose preset
 * names exactly its options stores none, and every reader resolves them through `gameOptionsOf`. A preset
 * game and a custom-options game answer the same (view, replay) before and after compaction; the migration
 * empties the options of old rows that are exactly their preset's, keeps every other row's JSON, and the
 * games it touched answer as a twin whose JSON it kept.
 */
import { mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { GameOptionsSchema } from '@klondike/protocol';
import { type GameOptions, PRESETS, PRESET_NAMES, dealFromNumber, formatDeal } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitSchemaParam } from '../src/db/database.js';
import { StoredOptionsError, gameOptionsOf, optionsToStore } from '../src/db/game-options.js';
import {
  DEFAULT_MIGRATIONS_DIR,
  type MigrationSession,
  migrate,
  readMigrations,
} from '../src/db/migrator.js';
import { compactFinishedGames } from '../src/maintenance/compaction.js';
import {
  TEST_DATABASE_URL,
  describeEachDatabase,
  dropSchema,
  pgliteDatabase,
  testApp,
  testSchemaName,
  withSchema,
} from './helpers.js';

const MIGRATION = readMigrations().find((m) => m.name.endsWith('_game_options_by_preset'));

describe("a game's stored options (gameOptionsOf, optionsToStore)", () => {
  it('every preset: stored as null, read back as the preset, keys in the order the stored JSON gave', () => {
    for (const name of PRESET_NAMES) {
      expect(optionsToStore(name, PRESETS[name])).toBeNull();
      const read = gameOptionsOf({ preset: name, options: null });
      expect(read).toEqual(PRESETS[name]);
      // The old rows held the full JSON, parsed by the schema: the same text on the wire.
      expect(JSON.stringify(read)).toBe(JSON.stringify(GameOptionsSchema.parse(PRESETS[name])));
    }
  });

  it('options that are not exactly the named preset, or no preset at all, are stored whole and read back', () => {
    const noHints: GameOptions = { ...PRESETS['classic-draw1'], hints: false };
    expect(optionsToStore('classic-draw1', noHints)).toBe(noHints);
    expect(optionsToStore(null, PRESETS['classic-draw1'])).toEqual(PRESETS['classic-draw1']);
    expect(optionsToStore('not-a-preset', PRESETS['classic-draw1'])).toEqual(PRESETS['classic-draw1']);
    // The stored JSON wins over the preset it names (a race's preset with hints off).
    expect(gameOptionsOf({ preset: 'classic-draw1', options: noHints })).toEqual(noHints);
    expect(gameOptionsOf({ preset: null, options: PRESETS['vegas-draw3'] })).toEqual(PRESETS['vegas-draw3']);
  });

  it('a row with neither options nor a preset, an unknown preset or unreadable JSON: StoredOptionsError', () => {
    expect(() => gameOptionsOf({ preset: null, options: null }, 'game x')).toThrow(StoredOptionsError);
    expect(() => gameOptionsOf({ preset: null, options: null }, 'game x')).toThrow(
      /game x: no stored options/,
    );
    expect(() => gameOptionsOf({ preset: 'klondike-9', options: null })).toThrow(
      /no preset named klondike-9/,
    );
    expect(() => gameOptionsOf({ preset: 'classic-draw1', options: { draw: 2 } })).toThrow(
      StoredOptionsError,
    );
  });
});

/** Both databases: PGlite in a folder of its own, or a fresh Postgres schema. */
interface Target {
  /** A session on the database before any server opens it (the migration test's old rows). */
  open(): Promise<{ session: MigrationSession; close(): Promise<void> }>;
  /** The server config pointing at it. */
  config(): { databaseUrl: string | undefined; dataDir: string };
  cleanup(): Promise<void>;
}

function pgliteTarget(): Target {
  const dir = mkdtempSync(join(tmpdir(), 'options-pglite-'));
  return {
    open: async () => {
      // The server keeps its PGlite database in `pglite` under its data folder (plugins/db.ts).
      const db = await PGlite.create(join(dir, 'pglite'));
      return {
        session: {
          exec: async (sql) => void (await db.exec(sql)),
          query: async (sql, params = []) => (await db.query<never>(sql, [...params])).rows,
        },
        close: () => db.close(),
      };
    },
    config: () => ({ databaseUrl: undefined, dataDir: dir }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresTarget(baseUrl: string): Target {
  const url = withSchema(baseUrl, testSchemaName());
  const { url: plain, schema } = splitSchemaParam(url);
  return {
    open: async () => {
      const client = new pg.Client({ connectionString: plain });
      await client.connect();
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema ?? ''}"`);
      await client.query(`SET search_path TO "${schema ?? ''}"`);
      return {
        session: {
          exec: async (sql) => void (await client.query(sql)),
          query: async (sql, params = []) => (await client.query(sql, [...params])).rows,
        },
        close: () => client.end(),
      };
    },
    config: () => ({ databaseUrl: url, dataDir: 'memory://' }),
    cleanup: () => dropSchema(url),
  };
}

function eachTarget(title: string, body: (target: () => Target) => void): void {
  describe(`${title} [PGlite]`, () => body(pgliteTarget));
  describe.skipIf(TEST_DATABASE_URL === undefined)(`${title} [Postgres]`, () =>
    body(() => postgresTarget(TEST_DATABASE_URL ?? '')),
  );
}

/** A game's answers with what names it (its id, its preset) taken out. */
function unnamed(body: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, preset: _preset, ...rest } = body;
  return rest;
}

describeEachDatabase(
  'options by preset: a preset game and a custom one, moved, compacted, reloaded',
  (db) => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await testApp(db, { config: { maintenanceTickMs: 0 } });
    });
    afterAll(async () => {
      await app.close();
      await db.cleanup();
    });

    const get = async (url: string): Promise<Record<string, unknown>> => {
      const r = await app.inject({ method: 'GET', url });
      expect(r.statusCode, r.body).toBe(200);
      return r.json<Record<string, unknown>>();
    };
    const storedOptions = async (id: string): Promise<unknown> =>
      (await app.prisma.game.findUniqueOrThrow({ where: { id }, select: { options: true } })).options;

    /** Creates a game from `payload`, plays six moves (a pile move when one is legal), then resigns. */
    async function played(payload: object): Promise<string> {
      const created = await app.inject({ method: 'POST', url: '/api/games', payload });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<{ id: string }>();
      let version = 0;
      for (let i = 0; i < 6; i++) {
        const { moves } = (await get(`/api/games/${id}/legal-moves`)) as { moves: { type: string }[] };
        const move = moves.find((m) => m.type === 'move') ?? moves[0];
        const r = await app.inject({
          method: 'POST',
          url: `/api/games/${id}/moves`,
          payload: { move, version },
        });
        expect(r.statusCode, r.body).toBe(200);
        version = r.json<{ version: number }>().version;
      }
      const r = await app.inject({ method: 'POST', url: `/api/games/${id}/resign`, payload: { version } });
      expect(r.statusCode, r.body).toBe(200);
      return id;
    }

    it('stores no options for a preset game, the full JSON for a custom one; both answer the same after compaction', async () => {
      const preset = await played({ preset: 'vegas-draw3', dealNumber: 5 });
      const custom = await played({ preset: 'classic-draw3', options: { timed: false }, dealNumber: 5 });
      // A game of the preset game's deal takes its preset and options (sameDealAs, no options given).
      const same = await app.inject({ method: 'POST', url: '/api/games', payload: { sameDealAs: preset } });
      expect(same.statusCode, same.body).toBe(201);
      const sameId = same.json<{ id: string }>().id;
      expect(same.json()).toMatchObject({ preset: 'vegas-draw3', view: { options: PRESETS['vegas-draw3'] } });

      expect(await storedOptions(preset)).toBeNull();
      expect(await storedOptions(sameId)).toBeNull();
      expect(await storedOptions(custom)).toEqual({ ...PRESETS['classic-draw3'], timed: false });

      const answers = async (): Promise<Record<string, unknown>[]> => {
        for (const id of [preset, custom, sameId]) app.rooms.evict(id);
        return Promise.all([
          get(`/api/games/${preset}`),
          get(`/api/games/${preset}/replay`),
          get(`/api/games/${custom}`),
          get(`/api/games/${custom}/replay`),
          get(`/api/games/${sameId}`),
        ]);
      };
      const before = await answers();
      const customOptions = { ...PRESETS['classic-draw3'], timed: false };
      expect(before[0]).toMatchObject({ preset: 'vegas-draw3', view: { options: PRESETS['vegas-draw3'] } });
      expect(before[1]).toMatchObject({ preset: 'vegas-draw3', options: PRESETS['vegas-draw3'] });
      expect(before[2]).toMatchObject({ preset: null, view: { options: customOptions } });
      expect(before[3]).toMatchObject({ preset: null, options: customOptions });

      const r = await compactFinishedGames(app.prisma, new Date(Date.now() + 60_000));
      expect(r.games).toBeGreaterThanOrEqual(2);
      for (const id of [preset, custom])
        expect((await app.prisma.game.findUniqueOrThrow({ where: { id } })).moveLog).not.toBeNull();
      const after = await answers();
      // Byte for byte, options included.
      expect(after.map((b) => JSON.stringify(b))).toEqual(before.map((b) => JSON.stringify(b)));
    });
  },
);

eachTarget('the game_options_by_preset migration', (make) => {
  let target: Target;
  let app: FastifyInstance | undefined;
  let before: string;
  const deal = ((): string => {
    const d = dealFromNumber(1);
    if (!d.ok) throw new Error('deal 1');
    return formatDeal(d.value);
  })();
  const noHints: GameOptions = { ...PRESETS['classic-draw1'], hints: false };
  const custom: GameOptions = { ...PRESETS['classic-draw3'], timed: false };
  /** The old rows: id → preset and options as stored before the migration (full JSON, PRESETS' key order). */
  const rows: [string, string | null, GameOptions][] = [
    ...PRESET_NAMES.map((name): [string, string | null, GameOptions] => [`p-${name}`, name, PRESETS[name]]),
    ['twin', null, PRESETS['classic-draw1']],
    ['custom', null, custom],
    ['race-no-hints', 'classic-draw1', noHints],
  ];

  beforeAll(async () => {
    target = make();
    // The migrations before this one only.
    before = mkdtempSync(join(tmpdir(), 'migrations-'));
    cpSync(DEFAULT_MIGRATIONS_DIR, before, {
      recursive: true,
      filter: (src) =>
        !/\/\d{14}_[a-z0-9_]+$/.test(src) || (src.split('/').pop() ?? '') < (MIGRATION?.name ?? ''),
    });
  });
  afterAll(async () => {
    await app?.close();
    await target.cleanup();
    rmSync(before, { recursive: true, force: true });
  });

  it('empties the options of rows that are exactly their preset, keeps the others; the games answer the same', async () => {
    expect(MIGRATION).toBeDefined();
    const db = await target.open();
    try {
      const report = await migrate(db.session, before);
      expect(report.applied).not.toContain(MIGRATION?.name);
      // Each a finished game of deal 1: two draws and a resignation, as "Move" rows.
      for (const [id, preset, options] of rows) {
        await db.session.query(
          `INSERT INTO "Game" ("id", "preset", "options", "deal", "version", "status", "createdAt", "startedAt",
             "endedAt", "updatedAt")
           VALUES ($1, $2, $3::jsonb, $4, 3, 'resigned', '2026-11-30T10:00:00Z', '2026-11-30T10:00:01Z',
             '2026-11-30T10:00:03Z', '2026-11-30T10:00:03Z')`,
          [id, preset, JSON.stringify(options), deal],
        );
        for (const [seq, kind, move] of [
          [1, 'move', '{"type":"draw"}'],
          [2, 'move', '{"type":"draw"}'],
          [3, 'resign', null],
        ] as const)
          await db.session.query(
            `INSERT INTO "Move" ("gameDay", "gameId", "seq", "kind", "move", "createdAt")
             VALUES ('2026-11-30', $1, $2, $3, $4::jsonb, $5)`,
            [id, seq, kind, move, `2026-11-30T10:00:0${seq}Z`],
          );
      }
    } finally {
      await db.close();
    }

    app = await testApp(pgliteDatabase(), { config: { ...target.config(), maintenanceTickMs: 0 } });
    const stored = await app.prisma.game.findMany({ select: { id: true, options: true } });
    const byId = Object.fromEntries(stored.map((r) => [r.id, r.options]));
    for (const name of PRESET_NAMES) expect(byId[`p-${name}`], name).toBeNull();
    expect(byId.twin).toEqual(PRESETS['classic-draw1']);
    expect(byId.custom).toEqual(custom);
    expect(byId['race-no-hints']).toEqual(noHints);

    const get = async (url: string): Promise<Record<string, unknown>> => {
      const r = await app?.inject({ method: 'GET', url });
      expect(r?.statusCode, r?.body).toBe(200);
      return r?.json<Record<string, unknown>>() ?? {};
    };
    for (const [id, preset, options] of rows) {
      const view = await get(`/api/games/${id}`);
      const replay = await get(`/api/games/${id}/replay`);
      expect(view.preset, id).toBe(preset);
      expect(view.view, id).toMatchObject({ options, status: 'resigned' });
      expect(replay, id).toMatchObject({
        options,
        steps: [{ type: 'move' }, { type: 'move' }, { type: 'resign' }],
      });
    }
    // The emptied classic-draw1 game answers as its twin, whose JSON was kept: byte for byte but its id and
    // preset.
    for (const url of ['', '/replay']) {
      const emptied = await get(`/api/games/p-classic-draw1${url}`);
      const twin = await get(`/api/games/twin${url}`);
      expect(emptied.preset).toBe('classic-draw1');
      expect(JSON.stringify(unnamed(emptied))).toBe(JSON.stringify(unnamed(twin)));
    }
    // A row with neither options nor a preset is refused by the database.
    await expect(
      app.prisma.$executeRawUnsafe(
        `INSERT INTO "Game" ("id", "options", "deal", "updatedAt") VALUES ('neither', NULL, '', now())`,
      ),
    ).rejects.toThrow(/Game_options_or_preset/);
  }, 120_000); // PGlite on disk: a new cluster and every migration, then the server opens it again
});
