/**
 * The rows the exports read (features/streams): the ids of a player's games, of a race's games and of a
 * day's ranked attempts, in pages. Whether each may be shown is the replay rule's (GameRooms.replay).
 */
import type { GameKind } from '@klondike/protocol';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';

/** A game an export may list: its id and the facts of its line. */
export interface ExportRow {
  readonly id: string;
  readonly status: 'playing' | 'won' | 'blocked' | 'resigned';
  readonly score: number;
  readonly moves: number;
  readonly createdAt: Date;
  readonly endedAt: Date | null;
  readonly ranked: boolean;
  readonly raceCode: string | null;
  readonly daily: { readonly date: string; readonly preset: string } | null;
}

const SELECT = {
  id: true,
  status: true,
  score: true,
  moves: true,
  createdAt: true,
  endedAt: true,
  ranked: true,
  raceCode: true,
  daily: { select: { date: true, preset: true } },
} as const satisfies Prisma.GameSelect;

/** The kind of an export row (as the game store names it). */
export function kindOfRow(row: ExportRow): GameKind {
  if (row.raceCode !== null) return 'race';
  if (row.daily !== null) return row.ranked ? 'daily-ranked' : 'daily-practice';
  return 'casual';
}

/** The exports' reads. Every method throws database errors. */
export class StreamsRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /** Whether player `id` exists. */
  async playerExists(id: string): Promise<boolean> {
    return (await this.prisma.player.count({ where: { id } })) > 0;
  }

  /**
   * One page of player `playerId`'s games after id `after` (in id order), `limit` at most; `publicOnly`: only
   * those whose replay may be public to others (race games and ranked attempts).
   */
  playerGames(
    playerId: string,
    publicOnly: boolean,
    after: string | null,
    limit: number,
  ): Promise<ExportRow[]> {
    return this.prisma.game.findMany({
      where: {
        playerId,
        ...(after !== null ? { id: { gt: after } } : {}),
        ...(publicOnly ? { OR: [{ raceCode: { not: null } }, { ranked: true }] } : {}),
      },
      select: SELECT,
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /** One page of race `code`'s games after id `after`. */
  raceGames(code: string, after: string | null, limit: number): Promise<ExportRow[]> {
    return this.prisma.game.findMany({
      where: { raceCode: code, ...(after !== null ? { id: { gt: after } } : {}) },
      select: SELECT,
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /** One page of the ranked attempts of the daily of `date` and `preset`, after id `after`. */
  dailyGames(date: string, preset: string, after: string | null, limit: number): Promise<ExportRow[]> {
    return this.prisma.game.findMany({
      where: {
        ranked: true,
        daily: { is: { date, preset } },
        ...(after !== null ? { id: { gt: after } } : {}),
      },
      select: SELECT,
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /** Race `code`'s status (`lobby`, `countdown`, `running`, `finished`), or null without such a race. */
  async raceStatus(code: string): Promise<string | null> {
    const race = await this.prisma.race.findUnique({ where: { code }, select: { status: true } });
    return race?.status ?? null;
  }

  /** Whether a daily of `date` and `preset` exists. */
  async dailyExists(date: string, preset: string): Promise<boolean> {
    return (await this.prisma.dailyDeal.count({ where: { date, preset } })) > 0;
  }
}
