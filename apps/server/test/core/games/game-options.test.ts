/**
 * A game's options by preset or by daily (db/game-options.ts, migrations `*_game_options_by_preset` and
 * `*_ranked_options_by_daily`): a game whose preset names exactly its options stores none, nor does a ranked
 * attempt whose options are its daily preset's by the ranked rule; every reader resolves them through
 * `gameOptionsOf`. A preset game, a custom-options game and ranked attempts (resigned, and left playing
 * when the day closes) answer the same (view, replay, leaderboard, the day's export) before and after
 * compaction; the migrations empty the options of old rows that are exactly what their names stand for,
 * keep every other row's JSON, and the games they touched answer as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { DAILY_PRESETS, GameOptionsSchema } from '@klondike/protocol';
import { type GameOptions, PRESETS, PRESET_NAMES, dealFromNumber, formatDeal } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitSchemaParam } from '../../../src/infra/db/database.js';
import {
  type OptionsNames,
  StoredOptionsError,
  gameOptionsOf,
  optionsToStore,
  rankedOptions,
} from '../../../src/infra/db/game-options.js';
import { buildDayExport } from '../../../src/features/daily/open-data.js';
import { closesAt } from '../../../src/infra/dates.js';
import { MemoryGameStore } from '../../../src/core/rooms/memory-store.js';
import { newRoom, replayOf, replayed } from '../../../src/core/rooms/room.js';
import { type MigrationSession, migrate, readMigrations } from '../../../src/infra/db/migrator.js';
import { compactFinishedGames } from '../../../src/features/maintenance/compaction.js';
import { MaintenanceRepository } from '../../../src/features/maintenance/repository.js';
import { ExportRepository } from '../../../src/features/daily/export-repository.js';
import {
  TEST_DATABASE_URL,
  describeEachDatabase,
  migrationsBefore,
  dropSchema,
  pgliteDatabase,
  testApp,
  testSchemaName,
  withSchema,
} from '../../support/helpers.js';

const MIGRATION = readMigrations().find((m) => m.name.endsWith('_game_options_by_preset'));
const RANKED_MIGRATION = readMigrations().find((m) => m.name.endsWith('_ranked_options_by_daily'));

/** The names of a game that is not a ranked attempt, with `preset`. */
const named = (preset: string | null): OptionsNames => ({ preset, ranked: false, dailyPreset: null });
/** The names of a ranked attempt at a daily of `dailyPreset` (a ranked attempt stores no preset). */
const rankedAt = (dailyPreset: string | null): OptionsNames => ({ preset: null, ranked: true, dailyPreset });

describe("a game's stored options (gameOptionsOf, optionsToStore)", () => {
  it('every preset: stored as null, read back as the preset, keys in the order the stored JSON gave', () => {
    for (const name of PRESET_NAMES) {
      expect(optionsToStore(named(name), PRESETS[name])).toBeNull();
      const read = gameOptionsOf({ ...named(name), options: null });
      expect(read).toEqual(PRESETS[name]);
      // The old rows held the full JSON, parsed by the schema: the same text on the wire.
      expect(JSON.stringify(read)).toBe(JSON.stringify(GameOptionsSchema.parse(PRESETS[name])));
    }
  });

  it('options that are not exactly the named preset, or no preset at all, are stored whole and read back', () => {
    const noHints: GameOptions = { ...PRESETS['classic-draw1'], hints: false };
    expect(optionsToStore(named('classic-draw1'), noHints)).toBe(noHints);
    expect(optionsToStore(named(null), PRESETS['classic-draw1'])).toEqual(PRESETS['classic-draw1']);
    expect(optionsToStore(named('not-a-preset'), PRESETS['classic-draw1'])).toEqual(PRESETS['classic-draw1']);
    // The stored JSON wins over the preset it names (a race's preset with hints off).
    expect(gameOptionsOf({ ...named('classic-draw1'), options: noHints })).toEqual(noHints);
    expect(gameOptionsOf({ ...named(null), options: PRESETS['vegas-draw3'] })).toEqual(
      PRESETS['vegas-draw3'],
    );
  });

  it('every daily preset: a ranked attempt of its ranked options stores null, read back by its daily', () => {
    for (const daily of DAILY_PRESETS) {
      const ranked = rankedOptions(daily);
      expect(ranked).toEqual({ ...PRESETS[daily], undo: false, hints: false });
      expect(optionsToStore(rankedAt(daily), ranked)).toBeNull();
      const read = gameOptionsOf({ ...rankedAt(daily), options: null });
      expect(read).toEqual(ranked);
      // The old rows held the full JSON, parsed by the schema: the same text on the wire.
      expect(JSON.stringify(read)).toBe(JSON.stringify(GameOptionsSchema.parse(ranked)));
      // The ranked rule, not the preset: a ranked attempt's null options are never its preset's own.
      expect(optionsToStore(rankedAt(daily), PRESETS[daily])).toEqual(PRESETS[daily]);
      expect(optionsToStore({ preset: daily, ranked: true, dailyPreset: daily }, PRESETS[daily])).toEqual(
        PRESETS[daily],
      );
      expect(gameOptionsOf({ preset: daily, ranked: true, dailyPreset: daily, options: null })).toEqual(
        ranked,
      );
      // A practice game of the daily is named by its preset, as any other game.
      expect(optionsToStore({ preset: daily, ranked: false, dailyPreset: daily }, PRESETS[daily])).toBeNull();
      expect(gameOptionsOf({ preset: daily, ranked: false, dailyPreset: daily, options: null })).toEqual(
        PRESETS[daily],
      );
    }
    // Options that are not the daily's ranked ones are stored whole, and the stored JSON wins.
    const otherDaily = rankedOptions('classic-draw3');
    expect(optionsToStore(rankedAt('classic-draw1'), otherDaily)).toBe(otherDaily);
    expect(optionsToStore(rankedAt(null), rankedOptions('classic-draw1'))).toEqual(
      rankedOptions('classic-draw1'),
    );
    expect(gameOptionsOf({ ...rankedAt('classic-draw1'), options: otherDaily })).toEqual(otherDaily);
    // A ranked attempt that stored vegas options (none are made today) still reads as vegas.
    const vegas = { ...PRESETS['vegas-draw1'], undo: false, hints: false };
    expect(gameOptionsOf({ ...rankedAt('classic-draw1'), options: vegas }).scoring).toBe('vegas');
  });

  it('a row with neither options nor a preset, an unknown preset or unreadable JSON: StoredOptionsError', () => {
    expect(() => gameOptionsOf({ ...named(null), options: null }, 'game x')).toThrow(StoredOptionsError);
    expect(() => gameOptionsOf({ ...named(null), options: null }, 'game x')).toThrow(
      /game x: no stored options/,
    );
    expect(() => gameOptionsOf({ ...named('klondike-9'), options: null })).toThrow(
      /no preset named klondike-9/,
    );
    expect(() => gameOptionsOf({ ...named('classic-draw1'), options: { draw: 2 } })).toThrow(
      StoredOptionsError,
    );
  });

  it('a ranked row with null options and no daily, or a daily preset that is not one: StoredOptionsError', () => {
    expect(() => gameOptionsOf({ ...rankedAt(null), options: null }, 'game r')).toThrow(StoredOptionsError);
    expect(() => gameOptionsOf({ ...rankedAt(null), options: null }, 'game r')).toThrow(
      /game r: a ranked attempt with no stored options and no daily/,
    );
    // Not a daily preset, though a preset: the ranked rule is for daily presets only.
    expect(() => gameOptionsOf({ ...rankedAt('vegas-draw1'), options: null })).toThrow(
      /no daily preset named vegas-draw1/,
    );
    // A ranked row is never read by its own preset.
    expect(() =>
      gameOptionsOf({ preset: 'classic-draw1', ranked: true, dailyPreset: null, options: null }),
    ).toThrow(StoredOptionsError);
    expect(() => gameOptionsOf({ ...rankedAt('classic-draw1'), options: { draw: 2 } })).toThrow(
      /stored options unreadable/,
    );
  });
});

describe('the in-memory store keeps options as the database does', () => {
  it('a ranked attempt and a practice game of a daily store none; load, deal source and replay resolve them', async () => {
    const store = new MemoryGameStore();
    const dealt = dealFromNumber(7);
    if (!dealt.ok) throw new Error('deal 7');
    const daily = {
      id: 1,
      date: '2026-11-20',
      preset: 'classic-draw3',
      closesAt: closesAt('2026-11-20'),
    } as const;
    const spec = {
      deal: dealt.value,
      dealKey: null,
      daily,
      owner: 'p1',
      raceCode: null,
    } as const;
    const ranked = newRoom(
      {
        ...spec,
        kind: 'daily-ranked',
        options: rankedOptions('classic-draw3'),
        preset: null,
        clockFromCreation: true,
      },
      null,
      1_000,
    );
    const practice = newRoom(
      {
        ...spec,
        kind: 'daily-practice',
        options: PRESETS['classic-draw3'],
        preset: 'classic-draw3',
        clockFromCreation: false,
      },
      null,
      1_000,
    );
    for (const [{ record }, options] of [
      [ranked, rankedOptions('classic-draw3')],
      [practice, PRESETS['classic-draw3']],
    ] as const) {
      await store.insert(record);
      const loaded = await store.load(record.id);
      expect(loaded?.options).toBeNull();
      if (loaded === null) throw new Error('not stored');
      expect(replayed(loaded).state.options).toEqual(options);
      const source = await store.dealSource(record.id);
      expect(source && gameOptionsOf(source)).toEqual(options);
      const replay = await store.replay(record.id);
      if (replay === null) throw new Error('no replay');
      expect(JSON.stringify(replayOf(replay).options)).toBe(JSON.stringify(GameOptionsSchema.parse(options)));
    }
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
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
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
          query: async (sql, params = []) => (await client.query<never>(sql, [...params])).rows,
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
    body(() => postgresTarget(TEST_DATABASE_URL ?? 'postgresql://unused')),
  );
}

/** Deal 1 (v1 numbers) as a stored deal: the old-shaped rows' deal. */
const DEAL_1 = ((): string => {
  const d = dealFromNumber(1);
  if (!d.ok) throw new Error('deal 1');
  return formatDeal(d.value);
})();

/**
 * Writes a finished game of deal 1 as a row of the old shape, created at 10:00 UTC of `day` (YYYY-MM-DD):
 * `options` stored in full as JSON, `daily` its daily's id and ranked flag (or none), and its log as "Move"
 * rows: two draws and a resignation.
 */
async function insertOldGame(
  session: MigrationSession,
  day: string,
  id: string,
  preset: string | null,
  options: GameOptions,
  daily: { readonly id: number; readonly ranked: boolean } | null = null,
): Promise<void> {
  await session.query(
    `INSERT INTO "Game" ("id", "preset", "options", "deal", "version", "status", "createdAt", "startedAt",
       "endedAt", "updatedAt", "dailyId", "ranked")
     VALUES ($1, $2, $3::jsonb, $4, 3, 'resigned', $5, $6, $7, $7, $8, $9)`,
    [
      id,
      preset,
      JSON.stringify(options),
      DEAL_1,
      `${day}T10:00:00Z`,
      `${day}T10:00:01Z`,
      `${day}T10:00:03Z`,
      daily?.id ?? null,
      daily?.ranked ?? false,
    ],
  );
  for (const [seq, kind, move] of [
    [1, 'move', '{"type":"draw"}'],
    [2, 'move', '{"type":"draw"}'],
    [3, 'resign', null],
  ] as const)
    await session.query(
      `INSERT INTO "Move" ("gameDay", "gameId", "seq", "kind", "move", "createdAt")
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
      [day, id, seq, kind, move, `${day}T10:00:0${seq}Z`],
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

      const r = await compactFinishedGames(
        new MaintenanceRepository(app.prisma),
        new Date(Date.now() + 60_000),
      );
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
  const noHints: GameOptions = { ...PRESETS['classic-draw1'], hints: false };
  const custom: GameOptions = { ...PRESETS['classic-draw3'], timed: false };
  /** The old rows: id → preset and options as stored before the migration (full JSON, PRESETS' key order). */
  const rows: [string, string | null, GameOptions][] = [
    ...PRESET_NAMES.map((name): [string, string | null, GameOptions] => [`p-${name}`, name, PRESETS[name]]),
    ['twin', null, PRESETS['classic-draw1']],
    ['custom', null, custom],
    ['race-no-hints', 'classic-draw1', noHints],
  ];

  beforeAll(() => {
    target = make();
    // The migrations before this one only.
    before = migrationsBefore(MIGRATION?.name);
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
        await insertOldGame(db.session, '2026-11-30', id, preset, options);
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
    ).rejects.toThrow(/Game_options_named/);
  }, 120_000); // PGlite on disk: a new cluster and every migration, then the server opens it again
});

describeEachDatabase(
  'options by daily: ranked attempts (resigned, and playing at the close) moved, compacted, reloaded',
  (db) => {
    const DATE = '2026-11-20';
    const PRESET = 'classic-draw3';
    let clock = Date.parse(`${DATE}T10:00:00Z`);
    let app: FastifyInstance;
    const players: Record<string, { id: string; token: string }> = {};
    beforeAll(async () => {
      app = await testApp(db, {
        now: () => clock,
        config: { maintenanceTickMs: 0, dailySecret: 'test-options-secret-0123456789abcdef' },
      });
    });
    afterAll(async () => {
      await app.close();
      await db.cleanup();
    });

    const call = async (method: 'GET' | 'POST', url: string, as?: string, payload?: object) => {
      const token = as === undefined ? undefined : players[as]?.token;
      return app.inject({
        method,
        url,
        ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
        ...(payload !== undefined ? { payload } : {}),
      });
    };
    const get = async (url: string, as?: string): Promise<Record<string, unknown>> => {
      const r = await call('GET', url, as);
      expect(r.statusCode, r.body).toBe(200);
      return r.json<Record<string, unknown>>();
    };

    /** Starts `as`'s ranked attempt at today's PRESET daily and plays `moves` moves (a pile move when legal). */
    async function attempt(as: string, moves: number): Promise<{ id: string; version: number }> {
      const created = await call('POST', `/api/daily/${DATE}/${PRESET}/attempt`, as);
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<{ id: string }>();
      let version = 0;
      for (let i = 0; i < moves; i++) {
        clock += 1000;
        const { moves: legal } = (await get(`/api/games/${id}/legal-moves`, as)) as {
          moves: { type: string }[];
        };
        const move = legal.find((m) => m.type === 'move') ?? legal[0];
        const r = await call('POST', `/api/games/${id}/moves`, as, { move, version });
        expect(r.statusCode, r.body).toBe(200);
        version = r.json<{ version: number }>().version;
      }
      return { id, version };
    }

    it('store no options, answer with the ranked options, and the same bytes after compaction', async () => {
      for (const name of ['Rita', 'Sam']) {
        const r = await call('POST', '/api/players', undefined, { name });
        expect(r.statusCode, r.body).toBe(201);
        players[name] = r.json<{ id: string; token: string }>();
      }
      expect((await call('GET', '/api/daily', 'Rita')).statusCode).toBe(200);
      const rita = await attempt('Rita', 6);
      clock += 1000;
      const resigned = await call('POST', `/api/games/${rita.id}/resign`, 'Rita', { version: rita.version });
      expect(resigned.statusCode, resigned.body).toBe(200);
      const sam = await attempt('Sam', 3); // still playing when the day closes: settled `unfinished`

      const ranked = rankedOptions(PRESET);
      for (const id of [rita.id, sam.id])
        expect(
          await app.prisma.game.findUniqueOrThrow({
            where: { id },
            select: { options: true, preset: true, ranked: true },
          }),
        ).toEqual({ options: null, preset: null, ranked: true });
      // While the day is open its player sees the ranked options, in the order the stored JSON gave.
      const open = await get(`/api/games/${rita.id}`, 'Rita');
      expect(JSON.stringify((open.view as { options: unknown }).options)).toBe(
        JSON.stringify(GameOptionsSchema.parse(ranked)),
      );

      // The day closes: the open attempt is settled, replays and the reveal open, the export can be made.
      clock = closesAt(DATE) + 60_000;
      expect((await call('GET', '/api/daily')).statusCode).toBe(200);
      await app.daily.settled();
      const results = await app.prisma.dailyResult.findMany({ select: { gameId: true, status: true } });
      expect(new Map(results.map((r) => [r.gameId, r.status]))).toEqual(
        new Map([
          [rita.id, 'resigned'],
          [sam.id, 'unfinished'],
        ]),
      );

      const answers = async (): Promise<string[]> => {
        for (const id of [rita.id, sam.id]) app.rooms.evict(id);
        const bodies = await Promise.all([
          get(`/api/games/${rita.id}`, 'Rita'),
          get(`/api/games/${rita.id}/replay`),
          get(`/api/games/${sam.id}`, 'Sam'),
          get(`/api/games/${sam.id}/replay`),
          get(`/api/daily/${DATE}/${PRESET}`),
          get(`/api/daily/${DATE}/${PRESET}/leaderboard`),
          get(`/api/players/${players.Rita?.id ?? ''}/stats`),
        ]);
        const exported = gunzipSync(
          (await buildDayExport(new ExportRepository(app.prisma), DATE)).data,
        ).toString('utf8');
        return [...bodies.map((b) => JSON.stringify(b)), exported];
      };
      const before = await answers();
      const [ritaView, ritaReplay, samView, samReplay] = before
        .slice(0, 4)
        .map((t) => JSON.parse(t) as Record<string, unknown>);
      expect(ritaView).toMatchObject({ preset: null, view: { options: ranked, status: 'resigned' } });
      expect(ritaReplay).toMatchObject({ preset: null, options: ranked });
      expect(samView).toMatchObject({ preset: null, view: { options: ranked, status: 'playing' } });
      expect(samReplay).toMatchObject({ preset: null, options: ranked });
      for (const text of [before[0], before[1], before[2], before[3]])
        expect(text).toContain(JSON.stringify(GameOptionsSchema.parse(ranked)));
      // The export's lines carry the ranked options, one a game.
      const lines = (before[7] ?? '').trim().split('\n');
      expect(lines).toHaveLength(2);
      for (const line of lines)
        expect((JSON.parse(line) as { options: unknown }).options).toEqual(GameOptionsSchema.parse(ranked));
      // The ranked attempt counts under its daily preset, not as Vegas (its options are its daily's).
      const stats = JSON.parse(before[6] ?? '{}') as { presets: { preset: string; vegasBalance: unknown }[] };
      expect(stats.presets).toEqual([expect.objectContaining({ preset: PRESET, vegasBalance: null })]);

      // Compaction takes both: the resigned one, and the one still playing once its day has closed.
      const r = await compactFinishedGames(new MaintenanceRepository(app.prisma), new Date(clock));
      expect(r.games).toBe(2);
      for (const id of [rita.id, sam.id])
        expect(
          await app.prisma.game.findUniqueOrThrow({
            where: { id },
            select: { options: true, moveLog: true },
          }),
        ).toMatchObject({ options: null, moveLog: expect.any(Uint8Array) as unknown });
      // Byte for byte, options included.
      expect(await answers()).toEqual(before);
    }, 60_000); // two dailies made twice (today's and the next day's), each by the solver
  },
);

eachTarget('the ranked_options_by_daily migration', (make) => {
  let target: Target;
  let app: FastifyInstance | undefined;
  let before: string;
  const ranked1 = rankedOptions('classic-draw1');
  const ranked3 = rankedOptions('classic-draw3');
  const untimed3: GameOptions = { ...ranked3, timed: false };
  /** The old rows: id → ranked, the daily's preset, the preset and options as stored before the migration. */
  const rows: [string, boolean, 'classic-draw1' | 'classic-draw3', string | null, GameOptions][] = [
    ['ranked-1', true, 'classic-draw1', null, ranked1],
    ['ranked-3', true, 'classic-draw3', null, ranked3],
    // Options that are not the daily's ranked ones keep their JSON.
    ['ranked-other-daily', true, 'classic-draw1', null, ranked3],
    ['ranked-untimed', true, 'classic-draw3', null, untimed3],
    // Not a ranked attempt: a practice game's preset options with hints off are not its to lose.
    ['practice-like', false, 'classic-draw1', null, ranked1],
  ];

  beforeAll(() => {
    target = make();
    // The migrations before this one only.
    before = migrationsBefore(RANKED_MIGRATION?.name);
  });
  afterAll(async () => {
    await app?.close();
    await target.cleanup();
    rmSync(before, { recursive: true, force: true });
  });

  it("empties the options of ranked rows that are their daily's ranked options, keeps the others", async () => {
    expect(RANKED_MIGRATION).toBeDefined();
    const db = await target.open();
    try {
      const report = await migrate(db.session, before);
      expect(report.applied).not.toContain(RANKED_MIGRATION?.name);
      expect(report.applied).toContain(MIGRATION?.name);
      // Two closed dailies (a day before the games), so anyone may read their games.
      for (const [id, preset] of [
        [1, 'classic-draw1'],
        [2, 'classic-draw3'],
      ] as const)
        await db.session.query(
          `INSERT INTO "DailyDeal" ("id", "date", "preset", "deal", "candidate", "par", "line")
           VALUES ($1, '2026-11-29', $2, $3, 0, 1, '[]'::jsonb)`,
          [id, preset, DEAL_1],
        );
      // Each a finished game of deal 1: two draws and a resignation, as "Move" rows.
      for (const [id, ranked, daily, preset, options] of rows) {
        await insertOldGame(db.session, '2026-11-29', id, preset, options, {
          id: daily === 'classic-draw1' ? 1 : 2,
          ranked,
        });
      }
    } finally {
      await db.close();
    }

    app = await testApp(pgliteDatabase(), { config: { ...target.config(), maintenanceTickMs: 0 } });
    const stored = await app.prisma.game.findMany({ select: { id: true, options: true } });
    const byId = Object.fromEntries(stored.map((r) => [r.id, r.options]));
    expect(byId['ranked-1']).toBeNull();
    expect(byId['ranked-3']).toBeNull();
    expect(byId['ranked-other-daily']).toEqual(ranked3);
    expect(byId['ranked-untimed']).toEqual(untimed3);
    expect(byId['practice-like']).toEqual(ranked1);

    const get = async (url: string): Promise<Record<string, unknown>> => {
      const r = await app?.inject({ method: 'GET', url });
      expect(r?.statusCode, r?.body).toBe(200);
      return r?.json<Record<string, unknown>>() ?? {};
    };
    for (const [id, , , preset, options] of rows) {
      const view = await get(`/api/games/${id}`);
      const replay = await get(`/api/games/${id}/replay`);
      expect(view.preset, id).toBe(preset);
      expect(view.view, id).toMatchObject({ options, status: 'resigned' });
      expect(replay, id).toMatchObject({
        options,
        steps: [{ type: 'move' }, { type: 'move' }, { type: 'resign' }],
      });
      // The options as the old row's JSON gave them, byte for byte.
      const text = JSON.stringify(GameOptionsSchema.parse(options));
      expect(JSON.stringify((view.view as { options: unknown }).options), id).toBe(text);
      expect(JSON.stringify(replay.options), id).toBe(text);
    }
    // A row without options must be named: by its preset, or as a ranked attempt by its daily.
    await expect(
      app.prisma.$executeRawUnsafe(
        `INSERT INTO "Game" ("id", "options", "deal", "ranked", "updatedAt") VALUES ('no-daily', NULL, '', true, now())`,
      ),
    ).rejects.toThrow(/Game_options_named/);
    await expect(
      app.prisma.$executeRawUnsafe(
        `INSERT INTO "Game" ("id", "options", "deal", "dailyId", "updatedAt") VALUES ('unranked', NULL, '', 1, now())`,
      ),
    ).rejects.toThrow(/Game_options_named/);
  }, 120_000); // PGlite on disk: a new cluster and every migration, then the server opens it again
});
