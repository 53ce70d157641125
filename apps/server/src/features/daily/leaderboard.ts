/**
 * Daily leaderboards (daily/service.ts): the rows of a board (people or bots), their order and a row's rank,
 * a page of a daily's leaderboard, and the sockets watching a daily's leaderboard live.
 */
import {
  type Board,
  DailyPresetSchema,
  type LeaderboardEntrySchema,
  type LeaderboardQuerySchema,
  type LeaderboardSchema,
  type ServerFrame,
} from '@klondike/protocol';
import type { z } from 'zod';
import type { DailyDeal, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { Subscriber } from '../../core/rooms/game-rooms.js';
import { startOfDate } from '../../infra/dates.js';
import type { DailyPreset } from './generate.js';

type Leaderboard = z.infer<typeof LeaderboardSchema>;
type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;
type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;

/**
 * The rows of one board: people's rows (`humans`) or bot accounts' rows (`bots`), never both; with
 * `established`, only accounts created before it (the others' rows are provisional).
 */
export function boardWhere(board: Board, established?: Date): Prisma.DailyResultWhereInput {
  return {
    player: {
      is: { bot: board === 'bots', ...(established ? { createdAt: { lt: established } } : {}) },
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

/** A `leaderboard` frame as published on the bus channel `leaderboards`. */
export type LeaderboardFrame = Extract<ServerFrame, { type: 'leaderboard' }>;

/** Whether a bus message is a `leaderboard` frame. */
export function isLeaderboardFrame(m: unknown): m is LeaderboardFrame {
  const f = m as Partial<LeaderboardFrame> | null;
  return (
    typeof f === 'object' &&
    f !== null &&
    f.type === 'leaderboard' &&
    typeof f.date === 'string' &&
    DailyPresetSchema.safeParse(f.preset).success &&
    typeof f.total === 'number'
  );
}

/** Live daily leaderboards: the sockets that sent `watch-leaderboard`, per daily. */
export class LeaderboardWatchers {
  private readonly byDaily = new Map<string, Set<Subscriber>>();

  /** Adds a watcher of a daily. */
  add(date: string, preset: DailyPreset, subscriber: Subscriber): void {
    const key = `${date}|${preset}`;
    let set = this.byDaily.get(key);
    if (!set) {
      set = new Set();
      this.byDaily.set(key, set);
    }
    set.add(subscriber);
  }

  /** Removes a watcher from every daily (its socket closed). */
  removeAll(subscriber: Subscriber): void {
    for (const [key, set] of this.byDaily) {
      set.delete(subscriber);
      if (set.size === 0) this.byDaily.delete(key);
    }
  }

  /** Whether anyone watches this daily. */
  watched(date: string, preset: DailyPreset): boolean {
    return this.byDaily.has(`${date}|${preset}`);
  }

  /** Sends a frame to every watcher of a daily. */
  send(date: string, preset: DailyPreset, frame: ServerFrame): void {
    const set = this.byDaily.get(`${date}|${preset}`);
    if (!set) return;
    const text = JSON.stringify(frame);
    for (const s of set) s.send(text);
  }
}

/** 1 + the number of rows of the same daily and board that rank before `r`. */
export async function rankOf(
  prisma: PrismaClient,
  r: ResultRowLike,
  board: Board,
  established?: Date,
): Promise<number> {
  const same = { won: r.won, score: r.score, timeMs: r.timeMs, moves: r.moves };
  const before = await prisma.dailyResult.count({
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

/** A leaderboard row as the page shows it: provisional when the account is as new as the day. */
function entryOf(
  r: ResultRowLike & { player: { name: string; createdAt: Date; bot: boolean } },
  rank: number,
  dayStart: Date,
): LeaderboardEntry {
  return {
    provisional: r.player.createdAt >= dayStart,
    rank,
    playerId: r.playerId,
    name: r.player.name,
    bot: r.player.bot,
    status: r.status,
    score: r.score,
    timeMs: r.timeMs,
    moves: r.moves,
    finishedAt: r.finishedAt.toISOString(),
    gameId: r.gameId,
  };
}

/**
 * A page of the daily `row`'s finished attempts on `query.board` in leaderboard order, or (`around=me`) the
 * page holding the row of player `me` (null: the caller has no row on this board).
 */
export async function leaderboardPage(
  prisma: PrismaClient,
  row: DailyDeal,
  preset: DailyPreset,
  query: LeaderboardQuery,
  me: string | null,
): Promise<Omit<Leaderboard, 'distribution'>> {
  const board = query.board;
  // Second accounts: rows of accounts created on the daily's date or later are provisional, left out of
  // the default view and its ranks (docs/features.md "Ranked rules").
  const dayStart = new Date(startOfDate(row.date));
  const established = query.include === 'provisional' ? undefined : dayStart;
  const where = { dailyId: row.id, ...boardWhere(board, established) };
  const playerSelect = { player: { select: { name: true, createdAt: true, bot: true } } };
  const [total, mine] = await Promise.all([
    prisma.dailyResult.count({ where }),
    me !== null
      ? prisma.dailyResult.findUnique({
          where: { dailyId_playerId: { dailyId: row.id, playerId: me } },
          include: playerSelect,
        })
      : Promise.resolve(null),
  ]);
  const myRank = mine ? await rankOf(prisma, mine, board, established) : null;
  const limit = query.limit;
  const offset =
    query.around === 'me' && myRank !== null ? Math.floor((myRank - 1) / limit) * limit : query.offset;
  const rows = await prisma.dailyResult.findMany({
    where,
    orderBy: ORDER,
    skip: offset,
    take: limit,
    include: playerSelect,
  });
  return {
    date: row.date,
    preset,
    board,
    par: row.par,
    parProven: row.parProven,
    total,
    offset,
    limit,
    entries: rows.map((r, i) => entryOf(r, offset + i + 1, dayStart)),
    me: mine && myRank !== null ? entryOf(mine, myRank, dayStart) : null,
  };
}
