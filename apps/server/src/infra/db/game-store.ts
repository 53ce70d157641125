/**
 * The database's game store: the game log in Prisma's `Game` and `Move` tables, the hot path of actions
 * through the group-commit statement (move-log.ts; the batching itself is the core's, core/rooms/
 * group-commit.ts), and the rows a kind of game adds in the same transaction as its game's write, written by
 * that kind's `KindRows` (daily/rows.ts). It meets the core's `GameStore` contract (core/rooms/store.ts)
 * by shape, in the contract's row types (game-rows.ts), and imports nothing from the core: the plugin
 * (core/games/plugin.ts) hands it to the rooms.
 */
import type { GameKind } from '@klondike/protocol';
import { DailyPresetSchema } from '@klondike/protocol';
import { closesAt } from '../dates.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import {
  type DealSource,
  type GameRef,
  type NewGameRecord,
  type ReplayRecord,
  type ResultRow,
  RowExists,
  type RowCommit,
  type StoredGame,
  optionsNamesOf,
} from './game-rows.js';
import { gameDay, readLog } from './game-log.js';
import { optionsToStore } from './game-options.js';
import type { DriverQuery } from './database.js';
import type { BatchWriter, MoveCommit } from './move-log.js';
import { InsertBatcher } from './insert-batches.js';

/** A transaction of the database (or the client itself, for a write of one statement). */
export type Tx = Prisma.TransactionClient;

/** The rows one kind of game adds to its game's writes, in the same transaction. */
export interface KindRows {
  /**
   * Inserts new games of this kind (`games`, all of it) with the rows they come with (a ranked attempt's
   * claim), in ONE statement; resolves with the ids of the games it stored. A game it did not store was
   * refused by a unique row (`RowExists`) and nothing of it is stored. The store gathers the games created
   * while such a statement is on its way into the next one (insert-batches.ts), so the openings of a
   * midnight share a few statements. `query` sends it on the driver itself (database.ts `DriverQuery`).
   */
  insertBatch?(this: void, query: DriverQuery, games: readonly NewGameRecord[]): Promise<ReadonlySet<string>>;
  /** Inserts the game's leaderboard row; resolves false when it already existed (nothing inserted). */
  result?(this: void, tx: Tx, game: GameRef, row: ResultRow): Promise<boolean>;
}

/** Thrown inside the commit transaction when the database's version is not the expected one. */
class VersionConflict extends Error {}

/** Thrown inside the commit transaction when the game's leaderboard row already exists. */
class ResultExists extends Error {}

const isUniqueViolation = (e: unknown): boolean =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';

/** A game's kind from what is stored with it. */
function kindOf(g: { dailyId: number | null; ranked: boolean; raceCode: string | null }): GameKind {
  if (g.raceCode !== null) return 'race';
  if (g.dailyId !== null) return g.ranked ? 'daily-ranked' : 'daily-practice';
  return 'casual';
}

/**
 * A game's row as `load` reads it on the driver, with its daily's date and preset, its result and its race
 * seat; times as ms since the epoch (the drivers read a `timestamp` column by different time zone rules).
 */
interface LoadedRow {
  readonly id: string;
  readonly preset: string | null;
  readonly options: Prisma.JsonValue | null;
  readonly deal: string;
  /** A bigint column: text on node-postgres, a bigint or number on PGlite. */
  readonly dealNumber: string | bigint | number | null;
  readonly version: number;
  readonly createdAtMs: number;
  readonly startedAtMs: number | null;
  readonly endedAtMs: number | null;
  readonly moveLog: Uint8Array | null;
  readonly playerId: string | null;
  readonly dailyId: number | null;
  readonly ranked: boolean;
  readonly raceCode: string | null;
  readonly dailyDate: string | null;
  readonly dailyPreset: string | null;
  readonly hasResult: boolean;
  readonly seatRaceCode: string | null;
}

/**
 * `load`'s statement: the game `$1` with what it links to. `extract(epoch …)` reads a `timestamp` (UTC, as
 * Prisma stores it) as seconds since the epoch.
 */
const LOAD_GAME_SQL = `
  SELECT g.id, g.preset, g.options, g.deal, g."dealNumber", g.version,
    (extract(epoch FROM g."createdAt") * 1000)::float8 AS "createdAtMs",
    (extract(epoch FROM g."startedAt") * 1000)::float8 AS "startedAtMs",
    (extract(epoch FROM g."endedAt") * 1000)::float8 AS "endedAtMs",
    g."moveLog", g."playerId", g."dailyId", g.ranked, g."raceCode",
    d.date AS "dailyDate", d.preset AS "dailyPreset", r."gameId" IS NOT NULL AS "hasResult",
    rr."raceCode" AS "seatRaceCode"
  FROM "Game" g
  LEFT JOIN "DailyDeal" d ON d.id = g."dailyId"
  LEFT JOIN "DailyResult" r ON r."gameId" = g.id
  LEFT JOIN "RaceRacer" rr ON rr."gameId" = g.id
  WHERE g.id = $1`;

/** The game log in the database. */
export class PrismaGameStore {
  /**
   * `writeMoves` and `version` are the database's group-commit statement and freshness probe
   * (Database.writeMoves, Database.gameVersion), `query` its driver (Database.query: the kinds' batched
   * inserts); `rows` the rows each kind adds to its writes.
   */
  constructor(
    private readonly prisma: PrismaClient,
    readonly writeMoves: BatchWriter,
    readonly version: (id: string) => Promise<number | null>,
    private readonly query: DriverQuery,
    private readonly rows: Partial<Record<GameKind, KindRows>> = {},
  ) {}

  /** The batched inserts of the kinds with `insertBatch` (null: none), made on first use. */
  private readonly batchers = new Map<GameKind, InsertBatcher<NewGameRecord> | null>();

  /** The kind's batched insert, or null when its games are inserted one by one. */
  private batcherOf(kind: GameKind): InsertBatcher<NewGameRecord> | null {
    let b = this.batchers.get(kind);
    if (b === undefined) {
      // `rows` is filled by the features before the first game is written, never after.
      const insertBatch = this.rows[kind]?.insertBatch;
      b =
        insertBatch &&
        new InsertBatcher(
          (games) => insertBatch(this.query, games),
          (g) => g.id,
        );
      this.batchers.set(kind, b ?? null);
    }
    return b ?? null;
  }

  async load(id: string): Promise<StoredGame | null> {
    // One round trip for the row and what it links to (its daily, its leaderboard row, its race seat), on the
    // driver: a node loads every game a socket follows that another node made, thousands at midnight, and
    // Prisma's include would send a statement per relation (and its engine costs more than the statement).
    const [game] = await this.query<LoadedRow & Record<string, unknown>>('load-game', LOAD_GAME_SQL, [id]);
    if (game === undefined) return null;
    // The log up to the version just read (readLog).
    const createdAt = new Date(game.createdAtMs);
    const log = await readLog(this.prisma, { id, createdAt, version: game.version, moveLog: game.moveLog });
    // Stored with the game at its creation; the seat's link for games dealt before that column existed.
    const raceCode = game.raceCode ?? game.seatRaceCode;
    return {
      id,
      kind: kindOf({ dailyId: game.dailyId, ranked: game.ranked, raceCode }),
      raceCode,
      daily:
        game.dailyId === null || game.dailyDate === null || game.dailyPreset === null
          ? null
          : {
              id: game.dailyId,
              date: game.dailyDate,
              preset: DailyPresetSchema.parse(game.dailyPreset),
              closesAt: closesAt(game.dailyDate),
            },
      owner: game.playerId,
      preset: game.preset,
      options: game.options,
      ranked: game.ranked,
      dailyPreset: game.dailyPreset,
      deal: game.deal,
      dealNumber: game.dealNumber === null ? null : Number(game.dealNumber),
      version: game.version,
      startedAt: game.startedAtMs,
      endedAt: game.endedAtMs,
      finished: game.ranked && game.hasResult,
      log,
    };
  }

  async dealSource(id: string): Promise<DealSource | null> {
    const source = await this.prisma.game.findUnique({
      where: { id },
      select: {
        deal: true,
        dealKey: true,
        dealNumber: true,
        options: true,
        preset: true,
        ranked: true,
        daily: { select: { preset: true } },
      },
    });
    if (source === null) return null;
    const { daily, ...rest } = source;
    return {
      ...rest,
      dealNumber: source.dealNumber === null ? null : Number(source.dealNumber),
      dailyPreset: daily?.preset ?? null,
    };
  }

  async insert(g: NewGameRecord): Promise<void> {
    const batched = this.batcherOf(g.kind);
    if (batched !== null) {
      if (!(await batched.submit(g))) throw new RowExists();
      return;
    }
    const names = optionsNamesOf(g);
    const options = optionsToStore(names, g.options);
    const data = {
      id: g.id,
      preset: g.preset,
      // NULL when the preset, or a ranked attempt's daily, names them (db/game-options.ts): read back through
      // gameOptionsOf.
      options: options === null ? Prisma.DbNull : { ...options },
      deal: g.deal,
      dealNumber: g.dealNumber === null ? null : BigInt(g.dealNumber),
      dealKey: g.dealKey,
      version: 0,
      status: g.status,
      score: g.score,
      moves: g.moves,
      createdAt: new Date(g.createdAt),
      updatedAt: new Date(g.createdAt), // the server clock, as every commit sets it (GET /api/me/games/current)
      startedAt: g.startedAt === null ? null : new Date(g.startedAt),
      endedAt: g.endedAt === null ? null : new Date(g.endedAt),
      playerId: g.owner,
      dailyId: g.daily?.id ?? null,
      ranked: names.ranked,
      raceCode: g.raceCode,
    };
    await this.prisma.game.create({ data });
  }

  async commitWithRow(game: GameRef, w: MoveCommit, row: ResultRow): Promise<RowCommit> {
    const result = this.rows[game.kind]?.result;
    try {
      await this.prisma.$transaction(async (tx) => {
        const updated = await tx.game.updateMany({
          where: { id: w.gameId, version: w.version - 1 },
          data: {
            version: w.version,
            status: w.status,
            score: w.score,
            moves: w.moves,
            startedAt: new Date(w.startedAt),
            endedAt: w.endedAt === null ? null : new Date(w.endedAt),
          },
        });
        if (updated.count !== 1) throw new VersionConflict();
        // The entry's partition: its game's creation day (the row is locked by the update above).
        const { createdAt } = await tx.game.findUniqueOrThrow({
          where: { id: w.gameId },
          select: { createdAt: true },
        });
        await tx.move.create({
          data: {
            gameDay: gameDay(createdAt),
            gameId: w.gameId,
            seq: w.version,
            kind: w.kind,
            move: w.move === null ? Prisma.DbNull : { ...w.move },
            createdAt: new Date(w.at),
          },
        });
        if (result !== undefined && !(await result(tx, game, row))) throw new ResultExists();
      });
    } catch (e) {
      if (e instanceof ResultExists) return 'row-exists';
      if (e instanceof VersionConflict || isUniqueViolation(e)) return 'stale';
      throw e;
    }
    return 'committed';
  }

  async settle(game: GameRef, row: ResultRow): Promise<boolean> {
    const result = this.rows[game.kind]?.result;
    return result === undefined ? false : result(this.prisma, game, row);
  }

  async replay(id: string): Promise<ReplayRecord | null> {
    const row = await this.prisma.game.findUnique({
      where: { id },
      include: {
        daily: { select: { date: true, preset: true } },
        player: { select: { id: true, name: true, bot: true } },
        raceEntry: { select: { race: { select: { status: true } } } },
      },
    });
    if (!row) return null;
    // The log up to the version just read ("Move" has no relation to "Game": read by its key).
    const log = await readLog(this.prisma, row);
    const raceFinished = row.raceEntry === null ? null : row.raceEntry.race.status === 'finished';
    return {
      id: row.id,
      // A seat in a race makes it a race game whatever else is stored with it.
      kind:
        raceFinished !== null ? 'race' : kindOf({ dailyId: row.dailyId, ranked: row.ranked, raceCode: null }),
      status: row.status,
      deal: row.deal,
      options: row.options,
      preset: row.preset,
      ranked: row.ranked,
      dailyPreset: row.daily?.preset ?? null,
      player: row.player,
      daily:
        row.daily === null
          ? null
          : {
              date: row.daily.date,
              preset: DailyPresetSchema.parse(row.daily.preset),
              closesAt: closesAt(row.daily.date),
            },
      raceFinished,
      log,
    };
  }
}
