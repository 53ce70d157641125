/**
 * The rows of the open data files (daily/open-data.ts, docs/data.md): the ranked attempts of a closed day in
 * file order, what one batch of their lines reads (rows, players, games and move logs), and the stored files
 * (table `DailyExport`).
 */
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { StoredEntry } from '../../core/rooms/store.js';
import { readLogs } from '../../infra/db/game-log.js';
import { ORDER } from './repository.js';

/** What one line of an export file is made of: a leaderboard row with its player, game and daily. */
export interface ExportRow {
  readonly gameId: string;
  readonly playerId: string;
  readonly status: 'won' | 'resigned' | 'blocked' | 'unfinished';
  readonly score: number;
  readonly timeMs: number;
  readonly moves: number;
  readonly finishedAt: Date;
  readonly player: { readonly name: string; readonly bot: boolean; readonly createdAt: Date };
  readonly game: {
    readonly preset: string | null;
    readonly options: unknown;
    readonly ranked: boolean;
    readonly deal: string;
    readonly createdAt: Date;
    readonly startedAt: Date | null;
  };
  readonly daily: { readonly preset: string };
}

/** A stored export file's listing. */
export interface ExportListing {
  readonly date: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly games: number;
}

/** The open data's rows in one database. Every method throws database errors. */
export class ExportRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * The game ids of the leaderboard rows of `date`'s dailies, in file order: preset, then board (people
   * before bots), then leaderboard order; each with its rank on its board.
   */
  async rankedGames(date: string): Promise<{ gameId: string; rank: number }[]> {
    const dailies = await this.prisma.dailyDeal.findMany({
      where: { date },
      orderBy: { preset: 'asc' },
      select: { id: true },
    });
    const out: { gameId: string; rank: number }[] = [];
    for (const d of dailies)
      for (const bot of [false, true]) {
        const rows = await this.prisma.dailyResult.findMany({
          // Marked and closed accounts are on no board, so in no file (docs/data.md).
          where: { dailyId: d.id, player: { is: { bot, markedAt: null, closedAt: null } } },
          orderBy: ORDER,
          select: { gameId: true },
        });
        rows.forEach((r, i) => out.push({ gameId: r.gameId, rank: i + 1 }));
      }
    return out;
  }

  /** The rows of the given games' lines, by game id, and their logged moves (only moves), by game id. */
  async linesOf(
    gameIds: readonly string[],
  ): Promise<{ rows: Map<string, ExportRow>; logs: Map<string, StoredEntry[]> }> {
    const ids = [...gameIds];
    const [results, logs] = await Promise.all([
      this.prisma.dailyResult.findMany({
        where: { gameId: { in: ids } },
        include: {
          player: { select: { name: true, bot: true, createdAt: true } },
          game: {
            select: {
              preset: true,
              options: true,
              ranked: true,
              deal: true,
              createdAt: true,
              startedAt: true,
            },
          },
          daily: { select: { preset: true } },
        },
      }),
      this.prisma.game
        .findMany({
          where: { id: { in: ids } },
          select: { id: true, createdAt: true, version: true, moveLog: true },
        })
        .then((games) => readLogs(this.prisma, games, 'moves')),
    ]);
    return { rows: new Map(results.map((r) => [r.gameId, r])), logs };
  }

  /** The dates before `today` that have a stored daily, and the dates that have an export file. */
  async exportable(today: string): Promise<{ days: string[]; exported: Set<string> }> {
    const [days, have] = await Promise.all([
      this.prisma.dailyDeal.findMany({
        where: { date: { lt: today } },
        distinct: ['date'],
        select: { date: true },
      }),
      this.prisma.dailyExport.findMany({ select: { date: true } }),
    ]);
    return { days: days.map((d) => d.date), exported: new Set(have.map((h) => h.date)) };
  }

  /** Stores a day's file unless one is stored (the first stored wins). */
  async store(file: { date: string; data: Buffer; sha256: string; games: number }): Promise<void> {
    await this.prisma.dailyExport.createMany({
      data: [
        {
          date: file.date,
          data: Uint8Array.from(file.data),
          sha256: file.sha256,
          bytes: file.data.byteLength,
          games: file.games,
        },
      ],
      skipDuplicates: true,
    });
  }

  /** The stored files, newest day first. */
  list(): Promise<ExportListing[]> {
    return this.prisma.dailyExport.findMany({
      orderBy: { date: 'desc' },
      select: { date: true, sha256: true, bytes: true, games: true },
    });
  }

  /** A day's stored file, or null. */
  file(date: string): Promise<{ data: Uint8Array; sha256: string } | null> {
    return this.prisma.dailyExport.findUnique({ where: { date }, select: { data: true, sha256: true } });
  }
}
