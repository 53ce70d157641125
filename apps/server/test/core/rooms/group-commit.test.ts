/**
 * The move log's hot path (core/rooms/group-commit.ts, infra/db/move-log.ts): one statement per flush, concurrent moves of different games
 * grouped in one flush, each acknowledged only once stored; a failed flush fails its own moves only, with a
 * typed error; a full commit queue sheds moves with `overloaded`. PGlite and Postgres.
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  type ServerFrame,
  StateResponseSchema,
} from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitFailedError, GroupCommitter } from '../../../src/core/rooms/group-commit.js';
import {
  COMMIT_MOVES_SQL,
  COMMIT_MOVE_SQL,
  type MoveCommit,
  batchParameters,
  entryParameters,
} from '../../../src/infra/db/move-log.js';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';

const DRAW = { type: 'draw' } as const;

describeEachDatabase('group commit', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function newGames(n: number, on: FastifyInstance = app): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = await on.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 1000 + i } });
      ids.push(GameResponseSchema.parse(r.json()).id);
    }
    return ids;
  }

  const move = (id: string, version: number, on: FastifyInstance = app) =>
    on.inject({ method: 'POST', url: `/api/games/${id}/moves`, payload: { move: DRAW, version } });

  /** The stored log of each game: its seqs in order, and the Game row's version. */
  async function stored(ids: readonly string[]): Promise<Map<string, { seqs: number[]; version: number }>> {
    const rows = await app.prisma.move.findMany({
      where: { gameId: { in: [...ids] } },
      orderBy: [{ gameId: 'asc' }, { seq: 'asc' }],
      select: { gameId: true, seq: true, kind: true },
    });
    const games = await app.prisma.game.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, version: true },
    });
    const out = new Map(games.map((g) => [g.id, { seqs: [] as number[], version: g.version }]));
    for (const r of rows) out.get(r.gameId)?.seqs.push(r.seq);
    return out;
  }

  it('flushes in flight: COMMIT_CONCURRENCY when set, else 2 on Postgres and 1 on PGlite', async () => {
    expect(app.rooms.commitConcurrency).toBe(db.kind === 'postgres' ? 2 : 1);
    const three = await testApp(db, { config: { commitConcurrency: 3 } });
    try {
      expect(three.rooms.commitConcurrency).toBe(3);
      // The wiring carries moves as before: one game, three moves in order.
      const [id] = await newGames(1, three);
      for (let v = 0; v < 3; v++) expect((await move(id as string, v, three)).statusCode).toBe(200);
      const rows = await three.prisma.move.findMany({
        where: { gameId: id as string },
        orderBy: { seq: 'asc' },
      });
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    } finally {
      await three.close();
    }
  });

  it('40 games × 12 moves at once: flushes carry many games, every game logs seq 1…12 in order, one row per version', async () => {
    const ids = await newGames(40);
    const before = { ...app.rooms.commitStats };
    const answers = await Promise.all(
      ids.map(async (id) => {
        const versions: number[] = [];
        for (let v = 0; v < 12; v++) {
          const r = await move(id, v);
          expect(r.statusCode).toBe(200);
          versions.push(StateResponseSchema.parse(r.json()).version);
        }
        return versions;
      }),
    );
    for (const v of answers) expect(v).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const stats = app.rooms.commitStats;
    const flushes = stats.flushes - before.flushes;
    // 480 moves in far fewer statements: concurrent games shared flushes.
    expect(stats.committed - before.committed).toBe(480);
    expect(flushes).toBeLessThan(480);
    expect(stats.largestBatch).toBeGreaterThan(1);
    const log = await stored(ids);
    for (const id of ids)
      expect(log.get(id)).toEqual({ seqs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], version: 12 });
  });

  it('two writers per game at every version, 30 games at once: exactly one 200 per version, the other 409; one row per version', async () => {
    const ids = await newGames(30);
    for (let v = 0; v < 5; v++) {
      const results = await Promise.all(ids.flatMap((id) => [move(id, v), move(id, v)]));
      for (let i = 0; i < ids.length; i++) {
        const pair = [results[2 * i]?.statusCode, results[2 * i + 1]?.statusCode].sort();
        expect(pair).toEqual([200, 409]);
      }
    }
    const log = await stored(ids);
    for (const id of ids) expect(log.get(id)).toEqual({ seqs: [1, 2, 3, 4, 5], version: 5 });
  });

  // Two servers on one database: only meaningful where two processes can share it — Postgres.
  // Declared on Postgres alone (not skipped on PGlite, whose one process cannot share its database).
  if (db.kind === 'postgres')
    it('two nodes writing the same 20 games at the same versions: one commit per version, the loser gets 409 and catches up', async () => {
      const other = await testApp({
        kind: 'postgres',
        config: () => ({ databaseUrl: app.config.databaseUrl, dataDir: 'memory://' }),
        cleanup: async () => {},
      });
      try {
        const ids = await newGames(20);
        let version = 0;
        for (let round = 0; round < 4; round++) {
          const results = await Promise.all(
            ids.flatMap((id) => [move(id, version), move(id, version, other)]),
          );
          for (let i = 0; i < ids.length; i++) {
            const pair = [results[2 * i]?.statusCode, results[2 * i + 1]?.statusCode].sort();
            expect(pair).toEqual([200, 409]);
          }
          version++;
        }
        const log = await stored(ids);
        for (const id of ids) expect(log.get(id)).toEqual({ seqs: [1, 2, 3, 4], version: 4 });
      } finally {
        await other.close();
      }
    });

  it('a failed flush fails only its own moves (CommitFailedError, nothing stored); the next flush commits', async () => {
    const ids = await newGames(12);
    const victim = ids[0] as string;
    await app.prisma.$executeRawUnsafe(
      `ALTER TABLE "Move" ADD CONSTRAINT "test_refuse_victim" CHECK ("gameId" <> '${victim}')`,
    );
    try {
      const committer = new GroupCommitter(app.db.writeMoves);
      const entry = (gameId: string): MoveCommit => ({
        gameId,
        version: 1,
        status: 'playing',
        score: 0,
        moves: 0,
        startedAt: Date.now(),
        endedAt: null,
        at: Date.now(),
        kind: 'move',
        move: DRAW,
      });
      // First flush: the victim and five others, submitted in one turn of the event loop.
      const first = Promise.allSettled(ids.slice(0, 6).map((id) => committer.submit(entry(id))));
      await new Promise((r) => setImmediate(r));
      // Second flush: submitted once the first has been sent.
      const second = Promise.allSettled(ids.slice(6).map((id) => committer.submit(entry(id))));
      const firstResults = await first;
      const secondResults = await second;
      for (const r of firstResults) {
        expect(r.status).toBe('rejected');
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(CommitFailedError);
      }
      expect(secondResults.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as unknown)))).toEqual([
        true,
        true,
        true,
        true,
        true,
        true,
      ]);
      expect(committer.stats).toMatchObject({ flushes: 2, failedFlushes: 1, committed: 6 });
      const log = await stored(ids);
      for (const id of ids.slice(0, 6)) expect(log.get(id)).toEqual({ seqs: [], version: 0 });
      for (const id of ids.slice(6)) expect(log.get(id)).toEqual({ seqs: [1], version: 1 });
    } finally {
      await app.prisma.$executeRawUnsafe(`ALTER TABLE "Move" DROP CONSTRAINT "test_refuse_victim"`);
    }
  });

  it('the statement stores the times it is given (ms since the epoch) as those instants, and null as null', async () => {
    const [id] = await newGames(1);
    const gameId = id as string;
    const startedAt = Date.UTC(2026, 0, 31, 23, 59, 59, 7);
    const at = Date.UTC(2026, 1, 1, 0, 0, 1, 999);
    const committed = await app.db.writeMoves([
      {
        gameId,
        version: 1,
        status: 'playing',
        score: 5,
        moves: 1,
        startedAt,
        endedAt: null,
        at,
        kind: 'move',
        move: DRAW,
      },
    ]);
    expect([...committed]).toEqual([gameId]);
    const game = await app.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    expect(game.startedAt?.getTime()).toBe(startedAt);
    expect(game.updatedAt.getTime()).toBe(at);
    expect(game.endedAt).toBeNull();
    expect({ version: game.version, score: game.score, moves: game.moves }).toEqual({
      version: 1,
      score: 5,
      moves: 1,
    });
    const [row] = await app.prisma.move.findMany({ where: { gameId } });
    expect(row?.createdAt.getTime()).toBe(at);
    expect(row?.move).toEqual(DRAW);
    const ended = await app.db.writeMoves([
      {
        gameId,
        version: 2,
        status: 'resigned',
        score: 5,
        moves: 1,
        startedAt,
        endedAt: at + 1,
        at: at + 1,
        kind: 'resign',
        move: null,
      },
    ]);
    expect([...ended]).toEqual([gameId]);
    const after = await app.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    expect(after.endedAt?.getTime()).toBe(at + 1);
    expect(after.status).toBe('resigned');
    const log = await app.prisma.move.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
    expect(log.map((m) => [m.seq, m.kind, m.move])).toEqual([
      [1, 'move', DRAW],
      [2, 'resign', null],
    ]);
  });

  it('the statement stores each value as given whatever a string holds (quotes, backslashes, commas, braces, "NULL"); negative scores; no move is SQL NULL', async () => {
    // batchParameters writes the array literals itself: these ids would break an unquoted or unescaped one.
    const ids = ['q"uote', 'back\\slash', 'com,ma', '{brace}', 'NULL', ' spaced '];
    await app.prisma.$executeRawUnsafe(
      `INSERT INTO "Game" (id, options, deal, "updatedAt") SELECT unnest($1::text[]), '{}', 'x', now()`,
      ids,
    );
    try {
      const odd = { type: 'draw', note: 'a "quoted" \\ back,slash {x}' };
      const batch: MoveCommit[] = ids.map((gameId, i) => ({
        gameId,
        version: 1,
        status: 'playing',
        score: -52 * (i + 1),
        moves: i,
        startedAt: 1_000 + i,
        endedAt: null,
        at: 2_000 + i,
        kind: i % 2 === 0 ? 'move' : 'undo',
        move: i % 2 === 0 ? odd : null,
      }));
      const committed = await app.db.writeMoves(batch);
      expect([...committed].sort()).toEqual([...ids].sort());
      const games = await app.prisma.game.findMany({
        where: { id: { in: ids } },
        select: { id: true, version: true, score: true, moves: true },
      });
      expect(new Map(games.map((g) => [g.id, g]))).toEqual(
        new Map(ids.map((id, i) => [id, { id, version: 1, score: -52 * (i + 1), moves: i }])),
      );
      const rows = await app.prisma.$queryRawUnsafe<
        { gameId: string; kind: string; absent: boolean; move: unknown }[]
      >(
        `SELECT "gameId", kind::text AS kind, move IS NULL AS absent, move FROM "Move" WHERE "gameId" = ANY($1::text[])`,
        ids,
      );
      expect(rows).toHaveLength(ids.length);
      for (const r of rows) {
        const i = ids.indexOf(r.gameId);
        expect(r.kind).toBe(i % 2 === 0 ? 'move' : 'undo');
        expect(r.absent).toBe(i % 2 !== 0);
        if (i % 2 === 0) expect(r.move).toEqual(odd);
      }
    } finally {
      await app.prisma.$executeRawUnsafe(`DELETE FROM "Move" WHERE "gameId" = ANY($1::text[])`, ids);
      await app.prisma.$executeRawUnsafe(`DELETE FROM "Game" WHERE id = ANY($1::text[])`, ids);
    }
  });

  it('a flush of one entry (its own statement): a stale version is refused and stores nothing; quotes, backslashes and braces in the id and the move are stored as given', async () => {
    const gameId = 'one "q\\uote", {NULL}';
    await app.prisma.$executeRawUnsafe(
      `INSERT INTO "Game" (id, options, deal, "updatedAt") VALUES ($1, '{}', 'x', now())`,
      gameId,
    );
    try {
      const odd = { type: 'draw', note: 'a "quoted" \\ back,slash {x} null' };
      const entry = (version: number, move: object | null): MoveCommit => ({
        gameId,
        version,
        status: 'playing',
        score: -7,
        moves: version,
        startedAt: 1_000,
        endedAt: null,
        at: 2_000 + version,
        kind: move === null ? 'undo' : 'move',
        move,
      });
      // The game is at version 0: version 2 (the database must hold 1) is a conflict, nothing is stored.
      expect([...(await app.db.writeMoves([entry(2, odd)]))]).toEqual([]);
      expect(await app.prisma.move.count({ where: { gameId } })).toBe(0);
      expect((await app.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).version).toBe(0);
      expect([...(await app.db.writeMoves([entry(1, odd)]))]).toEqual([gameId]);
      expect([...(await app.db.writeMoves([entry(2, null)]))]).toEqual([gameId]);
      // The same version again (a second writer that lost): refused.
      expect([...(await app.db.writeMoves([entry(2, odd)]))]).toEqual([]);
      const game = await app.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
      expect({ version: game.version, score: game.score, moves: game.moves }).toEqual({
        version: 2,
        score: -7,
        moves: 2,
      });
      expect(game.updatedAt.getTime()).toBe(2_002);
      const rows = await app.prisma.$queryRawUnsafe<
        { seq: number; kind: string; absent: boolean; move: unknown; at: Date }[]
      >(
        `SELECT seq, kind::text AS kind, move IS NULL AS absent, move, "createdAt" AS at FROM "Move" WHERE "gameId" = $1 ORDER BY seq`,
        gameId,
      );
      expect(rows.map((r) => [r.seq, r.kind, r.absent, r.absent ? null : r.move, r.at.getTime()])).toEqual([
        [1, 'move', false, odd, 2_001],
        [2, 'undo', true, null, 2_002],
      ]);
    } finally {
      await app.prisma.$executeRawUnsafe(`DELETE FROM "Move" WHERE "gameId" = $1`, gameId);
      await app.prisma.$executeRawUnsafe(`DELETE FROM "Game" WHERE id = $1`, gameId);
    }
  });

  it('entryParameters refuses what the statement must not store: a fractional count, a time that is not finite', () => {
    const base: MoveCommit = {
      gameId: 'g',
      version: 1,
      status: 'playing',
      score: 0,
      moves: 1,
      startedAt: 0,
      endedAt: null,
      at: 0,
      kind: 'move',
      move: DRAW,
    };
    expect(entryParameters(base)).toEqual(['g', 1, 'playing', 0, 1, 0, null, 0, 'move', '{"type":"draw"}']);
    expect(() => entryParameters({ ...base, version: 1.5 })).toThrow(TypeError);
    expect(() => entryParameters({ ...base, score: Number.NaN })).toThrow(TypeError);
    expect(() => entryParameters({ ...base, endedAt: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => entryParameters({ ...base, at: Number.NaN })).toThrow(TypeError);
  });

  it('the statement probes "Game" by primary key per entry, never scans it (5,000 games, batches of 1 and 1,000, and the one-entry statement)', async () => {
    // Games inserted directly (5,000 over REST would be slow); the plan is what is tested, not their moves.
    await app.prisma.$executeRawUnsafe(
      `INSERT INTO "Game" (id, options, deal, "updatedAt")
       SELECT 'plan-' || i, '{}', 'x', now() FROM generate_series(1, 5000) AS i`,
    );
    try {
      const entry = (i: number): MoveCommit => ({
        gameId: `plan-${i}`,
        version: 1,
        status: 'playing',
        score: 0,
        moves: 1,
        startedAt: 0,
        endedAt: null,
        at: 0,
        kind: 'move',
        move: DRAW,
      });
      for (const n of [1, 1000]) {
        const batch = Array.from({ length: n }, (_, i) => entry(i + 1));
        // EXPLAIN plans the statement with this parameter without running it.
        const plan = await app.prisma.$queryRawUnsafe<Record<string, string>[]>(
          `EXPLAIN ${COMMIT_MOVES_SQL}`,
          ...batchParameters(batch),
        );
        const text = plan.map((r) => Object.values(r)[0]).join('\n');
        expect(text).not.toMatch(/Seq Scan on "Game"/);
        expect(text.match(/Index Scan using "Game_pkey"/g)).toHaveLength(1);
        // The UPDATE's outer side is the input sorted by game id, so it locks the rows in id order: two nodes
        // flushing overlapping games cannot deadlock.
        expect(text).toMatch(/Nested Loop[\s\S]*Sort Key: \w+\.g\b[\s\S]*Index Scan using "Game_pkey"/);
        // The answer (the entries not logged) filters the input through a hash, never a nested loop over
        // the input and the logged entries (quadratic in the batch).
        expect(text).toMatch(/hashed SubPlan/);
        expect(text).not.toMatch(/Anti Join/);
      }
      // The one-entry statement: one probe of the primary key, no scan.
      const plan = await app.prisma.$queryRawUnsafe<Record<string, string>[]>(
        `EXPLAIN ${COMMIT_MOVE_SQL}`,
        ...entryParameters(entry(1)),
      );
      const text = plan.map((r) => Object.values(r)[0]).join('\n');
      expect(text).not.toMatch(/Seq Scan on "Game"/);
      expect(text.match(/Index Scan using "Game_pkey"/g)).toHaveLength(1);
    } finally {
      await app.prisma.$executeRawUnsafe(`DELETE FROM "Game" WHERE id LIKE 'plan-%'`);
    }
  });

  it('a move whose flush fails → 503 commit-failed, the game unchanged in memory and in the database; the retry commits', async () => {
    const [victim] = await newGames(1);
    const id = victim as string;
    await app.prisma.$executeRawUnsafe(
      `ALTER TABLE "Move" ADD CONSTRAINT "test_refuse_one" CHECK ("gameId" <> '${id}')`,
    );
    try {
      const r = await move(id, 0);
      expect(r.statusCode).toBe(503);
      const body = ErrorBodySchema.parse(r.json());
      expect(body.error.code).toBe('commit-failed');
      expect(body.error.version).toBe(0);
      const g = GameResponseSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/games/${id}` })).json(),
      );
      expect(g.version).toBe(0);
      expect(g.view.stock.count).toBe(24);
      expect((await stored([id])).get(id)).toEqual({ seqs: [], version: 0 });
    } finally {
      await app.prisma.$executeRawUnsafe(`ALTER TABLE "Move" DROP CONSTRAINT "test_refuse_one"`);
    }
    const retry = await move(id, 0);
    expect(retry.statusCode).toBe(200);
    expect((await stored([id])).get(id)).toEqual({ seqs: [1], version: 1 });
  });
});

describeEachDatabase('overload shedding (COMMIT_QUEUE = 1)', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db, { config: { commitQueue: 1 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function newGame(dealNumber: number): Promise<string> {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber } });
    return GameResponseSchema.parse(r.json()).id;
  }

  it('REST: moves past the queue → 503 overloaded with Retry-After, nothing stored for them; accepted ones are stored', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => newGame(500 + i)));
    const results = await Promise.all(
      ids.map((id) =>
        app.inject({ method: 'POST', url: `/api/games/${id}/moves`, payload: { move: DRAW, version: 0 } }),
      ),
    );
    const shed = results.filter((r) => r.statusCode === 503);
    const ok = results.filter((r) => r.statusCode === 200);
    expect(shed.length + ok.length).toBe(20);
    expect(shed.length).toBeGreaterThan(0);
    expect(ok.length).toBeGreaterThan(0);
    for (const r of shed) {
      expect(ErrorBodySchema.parse(r.json()).error.code).toBe('overloaded');
      expect(r.headers['retry-after']).toBe('1');
    }
    const games = await app.prisma.game.findMany({
      where: { id: { in: ids } },
      select: { id: true, version: true },
    });
    const rows = await app.prisma.move.count({ where: { gameId: { in: ids } } });
    expect(rows).toBe(ok.length);
    const version = new Map(games.map((g) => [g.id, g.version]));
    results.forEach((r, i) => expect(version.get(ids[i] as string)).toBe(r.statusCode === 200 ? 1 : 0));
  });

  it('WebSocket: moves past the queue → error frame overloaded with the request id; the game stays at its version', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => newGame(600 + i)));
    const clients = await Promise.all(ids.map(() => WsClient.connect(wsUrl(app))));
    try {
      await Promise.all(
        clients.map((c, i) => c.request({ type: 'subscribe', gameId: ids[i] }, (f) => f.type === 'state')),
      );
      const version = ids.map(() => 0);
      let overloaded: Extract<ServerFrame, { type: 'error' }>[] = [];
      // Every socket sends at once; repeat a few rounds in case the frames happened to arrive one by one.
      for (let round = 0; round < 5 && overloaded.length === 0; round++) {
        const answers = await Promise.all(
          clients.map((c, i) =>
            c.request(
              { type: 'move', gameId: ids[i], version: version[i], move: DRAW, requestId: `r${round}-${i}` },
              (f) => (f.type === 'state' || f.type === 'error') && f.requestId === `r${round}-${i}`,
            ),
          ),
        );
        answers.forEach((f, i) => {
          if (f.type === 'state') version[i] = f.version;
        });
        overloaded = answers.filter(
          (f): f is Extract<ServerFrame, { type: 'error' }> => f.type === 'error' && f.code === 'overloaded',
        );
        for (const f of answers)
          expect(f.type === 'state' || (f.type === 'error' && f.code === 'overloaded')).toBe(true);
      }
      expect(overloaded.length).toBeGreaterThan(0);
      expect(overloaded[0]?.gameId).toBeDefined();
      const games = await app.prisma.game.findMany({
        where: { id: { in: ids } },
        select: { id: true, version: true },
      });
      const stored = new Map(games.map((g) => [g.id, g.version]));
      ids.forEach((id, i) => expect(stored.get(id)).toBe(version[i]));
    } finally {
      for (const c of clients) c.close();
    }
  });
});

describe('GroupCommitter without a database', () => {
  it('keeps at most `concurrency` flushes in flight; the next starts when one ends', async () => {
    const releases: (() => void)[] = [];
    let inFlight = 0;
    let most = 0;
    const committer = new GroupCommitter(
      async (batch) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise<void>((r) => releases.push(r));
        inFlight--;
        return new Set(batch.map((e) => e.gameId));
      },
      { concurrency: 3 },
    );
    // Five entries of one game each submitted in its own turn: each would start a flush of its own.
    const done: Promise<boolean>[] = [];
    for (const g of ['a', 'b', 'c', 'd', 'e']) {
      done.push(committer.submit(undoEntry(g)));
      await new Promise((r) => setImmediate(r));
    }
    expect(most).toBe(3);
    expect(releases).toHaveLength(3);
    expect(committer.queued).toBe(2);
    releases.shift()?.();
    await new Promise((r) => setImmediate(r));
    // One ended: the two waiting entries go together in the next flush, still at most three at once.
    expect(releases).toHaveLength(3);
    expect(most).toBe(3);
    expect(committer.queued).toBe(0);
    for (const r of releases.splice(0)) r();
    expect(await Promise.all(done)).toEqual([true, true, true, true, true]);
  });

  it('a writer that throws rejects every entry of that flush with CommitFailedError; later flushes still run', async () => {
    let calls = 0;
    const committer = new GroupCommitter((batch) => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('connection lost'));
      return Promise.resolve(new Set(batch.map((e) => e.gameId)));
    });
    const first = await Promise.allSettled([
      committer.submit(undoEntry('a')),
      committer.submit(undoEntry('b')),
    ]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await committer.submit(undoEntry('c'))).toBe(true);
  });
});

/** A log entry of game `gameId` at version 1 (an undo: no move), for committers with a stand-in writer. */
function undoEntry(gameId: string): MoveCommit {
  return {
    gameId,
    version: 1,
    status: 'playing',
    score: 0,
    moves: 0,
    startedAt: 0,
    endedAt: null,
    at: 0,
    kind: 'undo',
    move: null,
  };
}
