/**
 * The daily's rows (issue 54 "one persistence rule": Prisma only in `infra/db/` and the repositories): the
 * stored dailies (`DailyDeal`), the ranked attempts' claims (`DailyAttempt`), the daily secret (`Setting`),
 * the players' rows a daily view shows, and the counts and rows the leaderboards rank (`DailyResult`). The
 * rules that decide what those rows mean are in daily/decisions.ts, daily/leaderboard.ts and daily/players.ts;
 * the open data files' rows are in daily/export-repository.ts.
 */
import type { Board } from '@klondike/protocol';
import type { DailyDeal, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { KindRows } from '../../infra/db/game-store.js';
import { optionsToStore } from '../../infra/db/game-options.js';
import { optionsNamesOf } from '../../infra/db/game-rows.js';

/** A stored daily (table `DailyDeal`): its deal, key, candidate, par and solver line (`line`: JSON moves). */
export type DailyRow = DailyDeal;

/** What a certified daily stores (daily/generate.ts `certifyDaily`). */
export interface NewDailyRow {
  readonly date: string;
  readonly preset: string;
  readonly deal: string;
  readonly dealKey: string;
  readonly candidate: number;
  readonly par: number;
  readonly parProven: boolean;
  readonly parLowerBound: number | null;
  /** The solver line, as JSON moves. */
  readonly line: readonly object[];
}

/** A refined par (daily/generate.ts `refinePar`) and, when the line changed, the new line (JSON moves). */
export interface RefinedParRow {
  readonly par: number;
  readonly parProven: boolean;
  readonly parLowerBound: number | null;
  readonly line?: readonly object[];
}

/** A stored leaderboard row (the fields ranking needs). */
export interface ResultRowLike {
  readonly dailyId: number;
  readonly playerId: string;
  readonly gameId: string;
  readonly status: 'won' | 'resigned' | 'blocked' | 'unfinished';
  readonly won: boolean;
  readonly score: number;
  readonly timeMs: number;
  readonly moves: number;
  readonly finishedAt: Date;
}

/** A leaderboard row with the player fields a page shows. */
export type ResultWithPlayer = ResultRowLike & {
  readonly player: { readonly name: string; readonly createdAt: Date; readonly bot: boolean };
};

/** A ranked attempt still without its leaderboard row, with its game's standing (a player's own view). */
export interface AttemptRow {
  readonly dailyId: number;
  readonly gameId: string;
  readonly game: { readonly score: number; readonly moves: number; readonly startedAt: Date | null };
}

/** A player as the daily's pages show them. */
export interface PlayerRow {
  readonly id: string;
  readonly name: string;
  readonly bot: boolean;
  readonly createdAt: Date;
  /** The stored settings (JSON, read with players/players.ts `storedSettings`). */
  readonly settings: unknown;
  /** When a moderator marked the player (docs/moderation.md), or null. */
  readonly markedAt: Date | null;
}

/** A player's leaderboard row with its daily's date and preset (statistics, recent results). */
export type DatedResultRow = ResultRowLike & {
  readonly daily: { readonly date: string; readonly preset: string };
};

/** A won-or-not row of a player, as statistics count them. */
export interface StatsRow {
  readonly playerId: string;
  readonly won: boolean;
  readonly timeMs: number;
  readonly daily: { readonly date: string; readonly preset: string };
}

/** How many rows (`played`) and won rows (`wins`) a player has on a board. */
export interface PlayerCounts {
  readonly playerId: string;
  readonly played: number;
  readonly wins: number;
}

/**
 * The rows of one board: people's rows (`humans`) or bot accounts' rows (`bots`), never both; with
 * `established`, only accounts created before it (the others' rows are provisional). Marked and closed
 * accounts' rows are on no board (docs/moderation.md "Marks").
 */
export function boardWhere(board: Board, established?: Date): Prisma.DailyResultWhereInput {
  return {
    player: {
      is: {
        bot: board === 'bots',
        markedAt: null,
        closedAt: null,
        ...(established ? { createdAt: { lt: established } } : {}),
      },
    },
  };
}

/** Leaderboard order: winners first, score high first, then time, moves, finishing time (then player id). */
export const ORDER: Prisma.DailyResultOrderByWithRelationInput[] = [
  { won: 'desc' },
  { score: 'desc' },
  { timeMs: 'asc' },
  { moves: 'asc' },
  { finishedAt: 'asc' },
  { playerId: 'asc' },
];

const PLAYER_OF_ROW = { player: { select: { name: true, createdAt: true, bot: true } } } as const;

/** The daily's rows in one database (see the module comment). Every method throws database errors. */
export class DailyRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  // ---------- settings ----------

  /**
   * The value stored under `key` in table `Setting`, storing `make()` first when there is none (race-free:
   * the first value stored wins on every node).
   */
  async setting(key: string, make: () => string): Promise<string> {
    await this.prisma.setting.createMany({ data: [{ key, value: make() }], skipDuplicates: true });
    return (await this.prisma.setting.findUniqueOrThrow({ where: { key } })).value;
  }

  // ---------- dailies ----------

  /** The stored daily of a date and preset, or null. */
  daily(date: string, preset: string): Promise<DailyRow | null> {
    return this.prisma.dailyDeal.findUnique({ where: { date_preset: { date, preset } } });
  }

  /** The stored dailies of the given dates (any order). */
  dailiesOn(dates: readonly string[]): Promise<DailyRow[]> {
    return this.prisma.dailyDeal.findMany({ where: { date: { in: [...dates] } } });
  }

  /** The stored dailies of one date, by preset. */
  dailiesOf(date: string): Promise<DailyRow[]> {
    return this.prisma.dailyDeal.findMany({ where: { date }, orderBy: { preset: 'asc' } });
  }

  /** The `date|preset` of every daily stored at the given dates. */
  async storedKeys(dates: readonly string[]): Promise<Set<string>> {
    const rows = await this.prisma.dailyDeal.findMany({
      where: { date: { in: [...dates] } },
      select: { date: true, preset: true },
    });
    return new Set(rows.map((r) => `${r.date}|${r.preset}`));
  }

  /** Deletes the daily `id` if it was dealt from a v1 deal number (no key) and no game was played of it. */
  async deleteUnplayedNumbered(id: number): Promise<void> {
    await this.prisma.dailyDeal.deleteMany({ where: { id, dealKey: null, games: { none: {} } } });
  }

  /** Stores a certified daily unless one of its date and preset exists (the first stored wins); returns the stored one. */
  async storeDaily(d: NewDailyRow): Promise<DailyRow> {
    await this.prisma.dailyDeal.createMany({
      data: [{ ...d, line: d.line.map((m) => ({ ...m })) }],
      skipDuplicates: true,
    });
    return this.prisma.dailyDeal.findUniqueOrThrow({
      where: { date_preset: { date: d.date, preset: d.preset } },
    });
  }

  /**
   * Stores a refined par on daily `id` if it is still unproven and its par is not shorter than the new one;
   * when the line changed, the day's fair-play signals are cleared (computed again against the new line).
   * Returns whether the row was updated.
   */
  async storeRefinedPar(id: number, r: RefinedParRow): Promise<boolean> {
    const n = await this.prisma.dailyDeal.updateMany({
      where: { id, parProven: false, par: { gte: r.par } },
      data: {
        par: r.par,
        parProven: r.parProven,
        parLowerBound: r.parLowerBound,
        ...(r.line !== undefined ? { line: r.line.map((m) => ({ ...m })) } : {}),
      },
    });
    if (n.count > 0 && r.line !== undefined)
      await this.prisma.dailyResult.updateMany({ where: { dailyId: id }, data: { lineShare: null } });
    return n.count > 0;
  }

  // ---------- attempts ----------

  /** The game ids of the ranked attempts of days before `today` that have no leaderboard row yet. */
  async unsettledAttempts(today: string): Promise<string[]> {
    const open = await this.prisma.dailyAttempt.findMany({
      where: { daily: { date: { lt: today } }, game: { result: { is: null } } },
      select: { gameId: true },
    });
    return open.map((a) => a.gameId);
  }

  /** How many ranked attempts each of the given dailies has, by daily id (absent: none). */
  async attemptCounts(dailyIds: readonly number[]): Promise<Map<number, number>> {
    const counts = await this.prisma.dailyAttempt.groupBy({
      by: ['dailyId'],
      where: { dailyId: { in: [...dailyIds] } },
      _count: { _all: true },
    });
    return new Map(counts.map((c) => [c.dailyId, c._count._all]));
  }

  /** A player's ranked attempts and leaderboard rows at the given dailies. */
  async playerAt(
    playerId: string,
    dailyIds: readonly number[],
  ): Promise<{ attempts: AttemptRow[]; results: ResultRowLike[] }> {
    const ids = [...dailyIds];
    const [attempts, results] = await Promise.all([
      this.prisma.dailyAttempt.findMany({
        where: { playerId, dailyId: { in: ids } },
        select: {
          dailyId: true,
          gameId: true,
          game: { select: { score: true, moves: true, startedAt: true } },
        },
      }),
      this.prisma.dailyResult.findMany({ where: { playerId, dailyId: { in: ids } } }),
    ]);
    return { attempts, results };
  }

  // ---------- results ----------

  /** The fair-play signals stored on a player's row at a daily, or null without a row. */
  fairPlayOf(
    dailyId: number,
    playerId: string,
  ): Promise<{ firstMoveMs: number | null; lineShare: number | null; moves: number } | null> {
    return this.prisma.dailyResult.findUnique({
      where: { dailyId_playerId: { dailyId, playerId } },
      select: { firstMoveMs: true, lineShare: true, moves: true },
    });
  }

  /** How many rows a daily has on a board (`established`: accounts created before it only). */
  countOnBoard(dailyId: number, board: Board, established?: Date): Promise<number> {
    return this.prisma.dailyResult.count({ where: { dailyId, ...boardWhere(board, established) } });
  }

  /** 1 + the number of rows of the same daily and board that rank before `r` (ORDER). */
  async rankOf(r: ResultRowLike, board: Board, established?: Date): Promise<number> {
    const same = { won: r.won, score: r.score, timeMs: r.timeMs, moves: r.moves };
    const before = await this.prisma.dailyResult.count({
      where: {
        dailyId: r.dailyId,
        ...boardWhere(board, established),
        OR: [
          ...(r.won ? [] : [{ won: true }]),
          { won: r.won, score: { gt: r.score } },
          { won: r.won, score: r.score, timeMs: { lt: r.timeMs } },
          { won: r.won, score: r.score, timeMs: r.timeMs, moves: { lt: r.moves } },
          { ...same, finishedAt: { lt: r.finishedAt } },
          { ...same, finishedAt: r.finishedAt, playerId: { lt: r.playerId } },
        ],
      },
    });
    return before + 1;
  }

  /**
   * A player's row at a daily with the player fields a page shows, or null (also for a marked or closed
   * account, which is on no board: docs/moderation.md "Marks").
   */
  resultWithPlayer(dailyId: number, playerId: string): Promise<ResultWithPlayer | null> {
    return this.prisma.dailyResult.findUnique({
      where: { dailyId_playerId: { dailyId, playerId }, player: { is: { markedAt: null, closedAt: null } } },
      include: PLAYER_OF_ROW,
    });
  }

  /** `limit` rows of a daily's board from `offset`, in leaderboard order (ORDER). */
  pageOfBoard(
    dailyId: number,
    board: Board,
    established: Date | undefined,
    offset: number,
    limit: number,
  ): Promise<ResultWithPlayer[]> {
    return this.prisma.dailyResult.findMany({
      where: { dailyId, ...boardWhere(board, established) },
      orderBy: ORDER,
      skip: offset,
      take: limit,
      include: PLAYER_OF_ROW,
    });
  }

  // ---------- players ----------

  /** A player's row, or null. */
  player(id: string): Promise<PlayerRow | null> {
    return this.prisma.player.findUnique({
      where: { id },
      select: { id: true, name: true, bot: true, createdAt: true, settings: true, markedAt: true },
    });
  }

  /** The names of the given players, by id. */
  async names(ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.prisma.player.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, name: true },
    });
    return new Map(rows.map((p) => [p.id, p.name]));
  }

  /** A player's `take` latest leaderboard rows, newest day first (then by preset). */
  recentResults(playerId: string, take: number): Promise<DatedResultRow[]> {
    return this.prisma.dailyResult.findMany({
      where: { playerId },
      orderBy: [{ daily: { date: 'desc' } }, { daily: { preset: 'asc' } }],
      take,
      include: { daily: { select: { date: true, preset: true } } },
    });
  }

  /** Every leaderboard row of the given players (what their statistics count). */
  statsRows(playerIds: readonly string[]): Promise<StatsRow[]> {
    return this.prisma.dailyResult.findMany({
      where: { playerId: { in: [...playerIds] } },
      select: { playerId: true, won: true, timeMs: true, daily: { select: { date: true, preset: true } } },
    });
  }

  /** Rows played and won per player on a board (every player with a row). */
  async countsOnBoard(board: Board): Promise<PlayerCounts[]> {
    const [played, wins] = await Promise.all([
      this.prisma.dailyResult.groupBy({ by: ['playerId'], where: boardWhere(board), _count: { _all: true } }),
      this.prisma.dailyResult.groupBy({
        by: ['playerId'],
        where: { won: true, ...boardWhere(board) },
        _count: { _all: true },
      }),
    ]);
    const winsOf = new Map(wins.map((w) => [w.playerId, w._count._all]));
    return played.map((p) => ({
      playerId: p.playerId,
      played: p._count._all,
      wins: winsOf.get(p.playerId) ?? 0,
    }));
  }
}

/**
 * The ranked openings' statement (`dailyRankedRows.insertBatch`): `$1` is the batch as a JSON array of
 * {id, player, daily, deal, options, status, score, moves, ca, sa, ea} (times in ms since the epoch); the rows
 * are the ids of the games stored.
 */
const RANKED_OPENINGS_SQL = `
  WITH input AS (
    SELECT id, player, daily, deal, NULLIF(options, 'null'::jsonb) AS options, status::"GameStatus" AS status,
      score, moves, to_timestamp(ca / 1000.0) AT TIME ZONE 'UTC' AS ca,
      to_timestamp(sa / 1000.0) AT TIME ZONE 'UTC' AS sa, to_timestamp(ea / 1000.0) AT TIME ZONE 'UTC' AS ea
    FROM jsonb_to_recordset($1::jsonb) AS t(id text, player text, daily int, deal text,
      options jsonb, status text, score int, moves int, ca float8, sa float8, ea float8)
  ), claimed AS (
    INSERT INTO "DailyAttempt" ("dailyId", "playerId", "gameId", "createdAt")
    SELECT daily, player, id, ca FROM input
    ON CONFLICT DO NOTHING
    RETURNING "gameId"
  )
  INSERT INTO "Game" (id, preset, options, deal, version, status, score, moves, "createdAt", "updatedAt",
    "startedAt", "endedAt", "playerId", "dailyId", ranked)
  SELECT i.id, NULL, i.options, i.deal, 0, i.status, i.score, i.moves, i.ca, i.ca, i.sa, i.ea, i.player,
    i.daily, true
  FROM input i JOIN claimed c ON c."gameId" = i.id
  RETURNING id`;

/**
 * The rows a ranked daily attempt adds to its game's writes (db/game-store.ts): its `DailyAttempt` claim when
 * it is created, in the statement that inserts its game (the unique (daily, player) key refuses a second
 * attempt; the openings created while one statement is on its way share the next), and its `DailyResult`
 * leaderboard row when it ends, or when its day closes while it is still playing, in that commit's transaction.
 */
export const dailyRankedRows: KindRows = {
  async insertBatch(query, games) {
    const rows = games.map((g) => {
      if (g.kind !== 'daily-ranked' || g.daily === null || g.owner === null)
        throw new Error(`game ${g.id}: a ranked attempt without its daily or player`);
      if (g.raceCode !== null || g.dealNumber !== null || g.dealKey !== null)
        throw new Error(`game ${g.id}: a ranked attempt names no race, deal number or deal key`);
      return {
        id: g.id,
        player: g.owner,
        daily: g.daily.id,
        deal: g.deal,
        options: optionsToStore(optionsNamesOf(g), g.options),
        status: g.status,
        score: g.score,
        moves: g.moves,
        ca: g.createdAt,
        sa: g.startedAt,
        ea: g.endedAt,
      };
    });
    // One statement: the claims first (the (daily, player) key; a claim already there, or a second one in
    // this batch, is skipped), then the games of the claims made. The claim's foreign key to its game is
    // checked at the statement's end, when both are in.
    // Times travel as ms since the epoch and become the UTC `timestamp(3)` values Prisma stores. On the driver
    // itself: thousands of these at midnight, and Prisma's engine cost more than the statement.
    const stored = await query<{ id: string }>('daily-ranked-openings', RANKED_OPENINGS_SQL, [
      JSON.stringify(rows),
    ]);
    return new Set(stored.map((r) => r.id));
  },
  async result(tx, game, row) {
    if (game.daily === null || game.owner === null) return true;
    const added = await tx.dailyResult.createMany({
      data: [
        {
          dailyId: game.daily.id,
          playerId: game.owner,
          gameId: game.id,
          status: row.status,
          won: row.status === 'won',
          score: row.score,
          timeMs: row.timeMs,
          moves: row.moves,
          finishedAt: new Date(row.finishedAt),
        },
      ],
      skipDuplicates: true,
    });
    return added.count === 1;
  },
};
