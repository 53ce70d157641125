/**
 * The rows players' statistics, history and a daily's result distribution are read from (players/stats.ts
 * computes them): a player's finished games, their recent leaderboard rows, the rows of a board.
 */
import type { Board, StatsPreset } from '@klondike/protocol';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';

/** The finished statuses of a game (docs/rules.md R12/R13). */
export type FinishedStatus = 'won' | 'resigned' | 'blocked';

const GAME_SELECT = {
  id: true,
  preset: true,
  options: true,
  status: true,
  score: true,
  moves: true,
  createdAt: true,
  startedAt: true,
  endedAt: true,
  ranked: true,
  dailyId: true,
  raceCode: true,
  daily: { select: { date: true, preset: true } },
  raceEntry: { select: { race: { select: { status: true } } } },
} as const satisfies Prisma.GameSelect;

/** A finished game as statistics and history read it. */
export type GameRow = Prisma.GameGetPayload<{ select: typeof GAME_SELECT }>;

/** A leaderboard row of a player with its daily's date and preset (the fields ranking needs). */
export interface DailyRankRow {
  readonly dailyId: number;
  readonly playerId: string;
  readonly gameId: string;
  readonly status: 'won' | 'resigned' | 'blocked' | 'unfinished';
  readonly won: boolean;
  readonly score: number;
  readonly timeMs: number;
  readonly moves: number;
  readonly finishedAt: Date;
  readonly daily: { readonly date: string; readonly preset: string };
}

/**
 * Where-clause of a board's rows (bots or people; `established`: accounts created before it only); marked and
 * closed accounts are on no board (docs/moderation.md "Marks").
 */
function onBoard(board: Board, established?: Date): Prisma.DailyResultWhereInput {
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

/** The where-clause of games counted under a preset (a ranked attempt under its daily's preset). */
function presetWhere(preset: StatsPreset): Prisma.GameWhereInput {
  if (preset === 'custom') return { preset: null, dailyId: null };
  return { OR: [{ preset }, { preset: null, ranked: true, daily: { is: { preset } } }] };
}

/** The statistics' rows in one database. Every method throws database errors. */
export class StatsRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /** Player `id`'s name and bot flag, or null without such a player. */
  player(id: string): Promise<{ id: string; name: string; bot: boolean } | null> {
    return this.prisma.player.findUnique({ where: { id }, select: { id: true, name: true, bot: true } });
  }

  /** Every finished game of player `id`, in end-time order (then id). */
  finishedGames(id: string, statuses: readonly FinishedStatus[]): Promise<GameRow[]> {
    return this.prisma.game.findMany({
      // Imported games (played offline, unverified) never count (docs/api.md "Imported games").
      where: { playerId: id, status: { in: [...statuses] }, importKey: null },
      select: GAME_SELECT,
      orderBy: [{ endedAt: 'asc' }, { id: 'asc' }],
    });
  }

  /** Player `id`'s leaderboard rows of dailies from UTC date `from` on, by date then preset. */
  dailyResultsSince(id: string, from: string): Promise<DailyRankRow[]> {
    return this.prisma.dailyResult.findMany({
      where: { playerId: id, daily: { date: { gte: from } } },
      include: { daily: { select: { date: true, preset: true } } },
      orderBy: [{ daily: { date: 'asc' } }, { daily: { preset: 'asc' } }],
    });
  }

  /** How many rows daily `dailyId` has on `board`. */
  countOnBoard(dailyId: number, board: Board): Promise<number> {
    return this.prisma.dailyResult.count({ where: { dailyId, ...onBoard(board) } });
  }

  /**
   * Up to `take` finished games of player `id` of `statuses`, newest end first (then id), counted under
   * `preset` when given, strictly after the history cursor `after` (end time, id) when given.
   */
  historyPage(
    id: string,
    statuses: readonly FinishedStatus[],
    preset: StatsPreset | undefined,
    after: { endedAt: Date; id: string } | undefined,
    take: number,
  ): Promise<GameRow[]> {
    const and: Prisma.GameWhereInput[] = [{ playerId: id, status: { in: [...statuses] }, importKey: null }];
    if (preset !== undefined) and.push(presetWhere(preset));
    if (after !== undefined)
      and.push({
        OR: [{ endedAt: { lt: after.endedAt } }, { endedAt: after.endedAt, id: { lt: after.id } }],
      });
    return this.prisma.game.findMany({
      where: { AND: and },
      select: GAME_SELECT,
      orderBy: [{ endedAt: 'desc' }, { id: 'desc' }],
      take,
    });
  }

  /** The rows of a daily's `board` (`established`: accounts created before it only): won, time, player. */
  boardRows(
    date: string,
    preset: string,
    board: Board,
    established: Date | undefined,
  ): Promise<{ won: boolean; timeMs: number; playerId: string }[]> {
    return this.prisma.dailyResult.findMany({
      where: { daily: { is: { date, preset } }, ...onBoard(board, established) },
      select: { won: true, timeMs: true, playerId: true },
    });
  }
}
