/**
 * Compaction of finished games' move logs (maintenance/compaction.ts, db/log-codec.ts): the compact form
 * decodes to the same entries; a finished game's replay, resume and log read the same before and after; a
 * second run does nothing; a batch that fails in its middle leaves its games as they were and the next run
 * compacts them; a game still playing is never touched.
 */
import { PILE_IDS } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLog } from '../../../src/infra/db/game-log.js';
import { decodeLog, encodeLog } from '../../../src/infra/db/log-codec.js';
import { compactFinishedGames } from '../../../src/features/maintenance/compaction.js';
import { MaintenanceRepository } from '../../../src/features/maintenance/repository.js';
import type { StoredEntry } from '../../../src/core/rooms/store.js';
import {
  TEST_DATABASE_URL,
  describeEachDatabase,
  dropSchema,
  pgliteDatabase,
  testApp,
  testSchemaName,
  withSchema,
} from '../../support/helpers.js';
import { type ServerProcess, killProcess, startServerProcess } from '../../support/processes.js';
import { call, newPlayer } from '../../support/race-helpers.js';

const entry = fc.oneof(
  fc.constant({ kind: 'undo' as const, move: null }),
  fc.constant({ kind: 'resign' as const, move: null }),
  fc.constantFrom('draw', 'recycle', 'last-pass').map((type) => ({ kind: 'move' as const, move: { type } })),
  fc
    .record({
      from: fc.constantFrom(...PILE_IDS),
      to: fc.constantFrom(...PILE_IDS),
      count: fc.integer({ min: 1, max: 13 }),
    })
    .map((m) => ({ kind: 'move' as const, move: { type: 'move', ...m } })),
);

describe('the compact log format', () => {
  it('decodes to the entries encoded: kinds, moves and times to the ms (also a clock a little behind)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.array(fc.tuple(entry, fc.integer({ min: -5_000, max: 90_000_000 })), { maxLength: 300 }),
        (createdAt, items) => {
          let at = createdAt;
          const log: StoredEntry[] = items.map(([e, gap], i) => {
            at += gap;
            return { seq: i + 1, ...e, at };
          });
          expect(decodeLog(createdAt, encodeLog(createdAt, log))).toEqual(log);
        },
      ),
    );
  });

  it('a move with a pile or shape it does not know is refused, not stored wrongly', () => {
    const bad = {
      seq: 1,
      kind: 'move' as const,
      move: { type: 'move', from: 'x9', to: 't1', count: 1 },
      at: 0,
    };
    expect(() => encodeLog(0, [bad])).toThrow(/cannot encode/);
    expect(() => encodeLog(0, [{ ...bad, move: { type: 'draw', extra: 1 } }])).toThrow(/cannot encode/);
  });
});

describeEachDatabase('compaction of finished games', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db, { config: { maintenanceTickMs: 0 } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  /** A game with draws, a recycle, a pile move when one is legal and an undo; resigned unless `playing`. */
  async function playedGame(playing = false): Promise<string> {
    const { id } = (await app.inject({ method: 'POST', url: '/api/games', payload: {} })).json<{
      id: string;
    }>();
    let version = 0;
    const act = async (url: string, payload: object): Promise<void> => {
      const r = await app.inject({ method: 'POST', url: `/api/games/${id}/${url}`, payload });
      expect(r.statusCode).toBe(200);
      version = r.json<{ version: number }>().version;
    };
    for (let i = 0; i < 8; i++) {
      const legal = (await app.inject({ method: 'GET', url: `/api/games/${id}/legal-moves` })).json<{
        moves: { type: string }[];
      }>().moves;
      const move = legal.find((m) => m.type === 'move') ?? legal[0];
      await act('moves', { move, version });
    }
    await act('undo', { version });
    if (!playing) await act('resign', { version });
    return id;
  }

  const replay = async (id: string): Promise<unknown> => {
    const r = await app.inject({ method: 'GET', url: `/api/games/${id}/replay` });
    expect(r.statusCode).toBe(200);
    return r.json();
  };
  const rows = (id: string): Promise<number> => app.prisma.move.count({ where: { gameId: id } });
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  const future = (): Date => new Date(Date.now() + 60_000);

  it("folds a finished game's log into its row: same replay, same game, no rows left, a few bytes a move", async () => {
    const id = await playedGame();
    const before = await replay(id);
    const game: unknown = (await app.inject({ method: 'GET', url: `/api/games/${id}` })).json();
    const logBefore = await readLog(app.prisma, await app.prisma.game.findUniqueOrThrow({ where: { id } }));
    expect(await rows(id)).toBe(10);

    const r = await compactFinishedGames(new MaintenanceRepository(app.prisma), future());
    expect(r.games).toBeGreaterThanOrEqual(1);
    expect(await rows(id)).toBe(0);
    const row = await app.prisma.game.findUniqueOrThrow({ where: { id } });
    expect(row.moveLog?.length).toBeLessThanOrEqual(1 + 10 * 6);
    expect(await readLog(app.prisma, row)).toEqual(logBefore);
    app.rooms.evict(id);
    expect(await replay(id)).toEqual(before);
    expect((await app.inject({ method: 'GET', url: `/api/games/${id}` })).json()).toEqual(game);
  });

  it('is idempotent: a second run compacts nothing and changes no byte', async () => {
    const id = await playedGame();
    await compactFinishedGames(new MaintenanceRepository(app.prisma), future());
    const once = await app.prisma.game.findUniqueOrThrow({ where: { id } });
    const before = await replay(id);
    expect(await compactFinishedGames(new MaintenanceRepository(app.prisma), future())).toEqual({
      games: 0,
      entries: 0,
      batches: 0,
    });
    const twice = await app.prisma.game.findUniqueOrThrow({ where: { id } });
    expect(Buffer.from(twice.moveLog ?? [])).toEqual(Buffer.from(once.moveLog ?? []));
    expect(await replay(id)).toEqual(before);
  });

  it('never touches a game still playing, however old, nor one finished after the cutoff', async () => {
    const playing = await playedGame(true);
    const recent = await playedGame();
    await sleep(5);
    const cutoff = new Date();
    await sleep(5);
    const late = await playedGame();
    await compactFinishedGames(new MaintenanceRepository(app.prisma), cutoff);
    // `recent` ended before the cutoff; `late` after it.
    expect((await app.prisma.game.findUniqueOrThrow({ where: { id: recent } })).moveLog).not.toBeNull();
    for (const id of [playing, late]) {
      expect((await app.prisma.game.findUniqueOrThrow({ where: { id } })).moveLog).toBeNull();
      expect(await rows(id)).toBe(id === playing ? 9 : 10);
    }
    await compactFinishedGames(new MaintenanceRepository(app.prisma), future());
    expect((await app.prisma.game.findUniqueOrThrow({ where: { id: playing } })).moveLog).toBeNull();
    expect(await rows(playing)).toBe(9);
    // And it plays on.
    const v = (await app.inject({ method: 'GET', url: `/api/games/${playing}` })).json<{ version: number }>();
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${playing}/resign`,
      payload: { version: v.version },
    });
    expect(r.statusCode).toBe(200);
  });

  it('takes a ranked attempt still playing once its day has closed, never before; the log reads the same', async () => {
    const player = await newPlayer(app, 'ranked');
    const today = new Date().toISOString().slice(0, 10);
    const created = await call(app, 'POST', `/api/daily/${today}/classic-draw1/attempt`, { as: player });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const moved = await call(app, 'POST', `/api/games/${id}/moves`, {
      as: player,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const logOf = async (): Promise<unknown> =>
      readLog(app.prisma, await app.prisma.game.findUniqueOrThrow({ where: { id } }));
    const before = await logOf();
    // The day is open (and closes at the next midnight): a cutoff before its close leaves it.
    await compactFinishedGames(new MaintenanceRepository(app.prisma), new Date());
    expect((await app.prisma.game.findUniqueOrThrow({ where: { id } })).moveLog).toBeNull();
    expect(await rows(id)).toBe(1);
    // A day after its close.
    await compactFinishedGames(
      new MaintenanceRepository(app.prisma),
      new Date(Date.now() + 2 * 86_400_000 + 60_000),
    );
    const row = await app.prisma.game.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('playing');
    expect(row.moveLog).not.toBeNull();
    expect(await rows(id)).toBe(0);
    expect(await logOf()).toEqual(before);
  });

  it('a batch that fails in its middle leaves its games whole; the next run compacts them', async () => {
    await compactFinishedGames(new MaintenanceRepository(app.prisma), future()); // nothing else pending
    const ids = [await playedGame(), await playedGame(), await playedGame(), await playedGame()];
    const before = await Promise.all(ids.map(replay));
    // The fourth game's rows cannot be deleted: the second batch (games 3 and 4, by end) fails at its
    // last step, after its games' rows were updated.
    const victim = ids[3] as string;
    await app.prisma.$executeRawUnsafe(
      `CREATE FUNCTION test_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF OLD."gameId" = '${victim}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN OLD; END $$`,
    );
    await app.prisma.$executeRawUnsafe(
      `CREATE TRIGGER test_refuse_delete BEFORE DELETE ON "Move" FOR EACH ROW EXECUTE FUNCTION test_refuse_delete()`,
    );
    try {
      await expect(
        compactFinishedGames(new MaintenanceRepository(app.prisma), future(), { batch: 2 }),
      ).rejects.toThrow(/refused/);
    } finally {
      await app.prisma.$executeRawUnsafe(`DROP TRIGGER test_refuse_delete ON "Move"`);
      await app.prisma.$executeRawUnsafe(`DROP FUNCTION test_refuse_delete()`);
    }
    const state = async (): Promise<[boolean, number][]> =>
      Promise.all(
        ids.map(async (id) => [
          (await app.prisma.game.findUniqueOrThrow({ where: { id } })).moveLog !== null,
          await rows(id),
        ]),
      );
    // The first batch committed; the second is as it was, both of its games (not only the victim).
    expect(await state()).toEqual([
      [true, 0],
      [true, 0],
      [false, 10],
      [false, 10],
    ]);
    for (const id of ids) app.rooms.evict(id);
    expect(await Promise.all(ids.map(replay))).toEqual(before);
    await compactFinishedGames(new MaintenanceRepository(app.prisma), future(), { batch: 2 });
    expect(await state()).toEqual(ids.map(() => [true, 0]));
    for (const id of ids) app.rooms.evict(id);
    expect(await Promise.all(ids.map(replay))).toEqual(before);
  });
});

/**
 * A real kill: a server process compacting a backlog is sent SIGKILL while one of its batches holds its
 * games' locks (Postgres only: the test watches the batches from another connection). Every game is then
 * either compacted whole or untouched, and after a restart every game is compacted with the same replay.
 */
describe.skipIf(TEST_DATABASE_URL === undefined)(
  'compaction: SIGKILL in the middle of a batch [Postgres]',
  () => {
    const GAMES = 600;
    const url = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    let server: ServerProcess | undefined;
    afterAll(async () => {
      if (server) await killProcess(server);
      await client.end().catch(() => undefined);
      await dropSchema(url);
    });

    it('leaves each game compacted whole or not at all; the restarted server compacts the rest, replays unchanged', async () => {
      const app = await testApp(pgliteDatabase(), { config: { databaseUrl: url, maintenanceTickMs: 0 } });
      const ids: string[] = [];
      const before = new Map<string, unknown>();
      try {
        for (let i = 0; i < GAMES; i++) {
          const { id } = (await app.inject({ method: 'POST', url: '/api/games', payload: {} })).json<{
            id: string;
          }>();
          for (let v = 0; v < 3; v++)
            await app.inject({
              method: 'POST',
              url: `/api/games/${id}/moves`,
              payload: { move: { type: 'draw' }, version: v },
            });
          await app.inject({ method: 'POST', url: `/api/games/${id}/resign`, payload: { version: 3 } });
          ids.push(id);
          before.set(id, (await app.inject({ method: 'GET', url: `/api/games/${id}/replay` })).json());
          app.rooms.evict(id);
        }
      } finally {
        await app.close();
      }
      await client.connect();
      await client.query(`SET search_path TO "${new URL(url).searchParams.get('schema') ?? ''}"`);
      const count = async (sql: string): Promise<number> =>
        Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
      const env = {
        DATABASE_URL: url,
        RATE_LIMIT_MAX: '0',
        DAILY_SCHEDULE: 'off',
        SOLVER_THREADS: '1',
        MAINTENANCE_TICK_MS: '100',
        MOVE_ARCHIVE_AFTER_MS: '1',
      };
      server = await startServerProcess(env, undefined, 45_000);
      // Watch: once a batch has committed and the next one holds its games' locks, kill.
      let midBatch = false;
      for (let tries = 0; tries < 20_000 && !midBatch; tries++) {
        const done = await count(`SELECT count(*) AS n FROM "Game" WHERE "moveLog" IS NOT NULL`);
        if (done >= GAMES) break;
        if (done === 0) continue;
        await client.query('BEGIN');
        const free = await count(
          `SELECT count(*) AS n FROM (SELECT id FROM "Game" WHERE "moveLog" IS NULL FOR UPDATE SKIP LOCKED) x`,
        );
        await client.query('ROLLBACK');
        if (free < GAMES - done) {
          await killProcess(server);
          midBatch = true;
        }
      }
      expect(midBatch).toBe(true);
      const rows = await client.query<{ id: string; compacted: boolean; entries: number }>(
        `SELECT g.id, g."moveLog" IS NOT NULL AS compacted,
              (SELECT count(*) FROM "Move" m WHERE m."gameId" = g.id)::int AS entries FROM "Game" g`,
      );
      const compacted = rows.rows.filter((r) => r.compacted).length;
      expect(compacted).toBeGreaterThan(0);
      expect(compacted).toBeLessThan(GAMES);
      for (const r of rows.rows) expect([r.id, r.entries]).toEqual([r.id, r.compacted ? 0 : 4]);

      server = await startServerProcess(env, undefined, 45_000);
      for (let i = 0; i < 300; i++) {
        if ((await count(`SELECT count(*) AS n FROM "Game" WHERE "moveLog" IS NULL`)) === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await count(`SELECT count(*) AS n FROM "Move"`)).toBe(0);
      for (const id of ids) {
        const r = await fetch(`${server.base}/api/games/${id}/replay`);
        expect(await r.json()).toEqual(before.get(id));
      }
    }, 120_000);
  },
);
