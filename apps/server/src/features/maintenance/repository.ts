/**
 * The games' rows that maintenance rewrites (maintenance/compaction.ts, maintenance/retention.ts decide
 * which and when): a batch of finished games' move logs compacted into their rows, and idle anonymous games
 * deleted with their move log.
 */
import type { StoredEntry } from '../../core/rooms/store.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { gameDay, readLogs } from '../../infra/db/game-log.js';

/** A game whose log a compaction batch encodes. */
export interface CompactionCandidate {
  readonly id: string;
  readonly createdAt: Date;
  readonly version: number;
}

/** What one compaction batch did; `full`: it took as many games as it asked for (more may be waiting). */
export interface CompactionBatch {
  readonly games: number;
  readonly entries: number;
  readonly full: boolean;
}

/** The conditions of an idle anonymous game: no player, no daily, no race, playing, unchanged since `cutoff`. */
function idleWhere(cutoff: Date) {
  return {
    playerId: null,
    dailyId: null,
    raceEntry: { is: null },
    status: 'playing',
    updatedAt: { lt: cutoff },
  } as const;
}

/** The maintenance's rows in one database. Every method throws database errors. */
export class MaintenanceRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * One compaction batch, in one transaction (whole or not at all): locks up to `size` uncompacted games
   * (`FOR UPDATE SKIP LOCKED`, so two nodes never take the same game) — first games won or resigned before
   * `cutoff`, oldest end first, then ranked attempts of days up to `closedBy` (a UTC date) still playing or
   * blocked — leaving out `skip`; reads their logs; stores `encode`'s bytes of each into its row and deletes
   * its "Move" rows (`encode` returns null for a game to leave as it is). Returns null when no game was left.
   */
  compactBatch(
    cutoff: Date,
    closedBy: string,
    size: number,
    skip: ReadonlySet<string>,
    encode: (game: CompactionCandidate, log: readonly StoredEntry[]) => Uint8Array<ArrayBuffer> | null,
  ): Promise<CompactionBatch | null> {
    return this.prisma.$transaction(async (tx) => {
      // The partial index "Game_compaction_idx" holds exactly these games.
      const rows = await tx.$queryRawUnsafe<CompactionCandidate[]>(
        `SELECT id, "createdAt", version FROM "Game"
          WHERE "moveLog" IS NULL AND status IN ('won', 'resigned')
            AND "endedAt" < (to_timestamp($1::float8 / 1000.0) AT TIME ZONE 'UTC')
            AND NOT (id = ANY($3::text[]))
          ORDER BY "endedAt" LIMIT $2 FOR UPDATE SKIP LOCKED`,
        cutoff.getTime(),
        size,
        [...skip],
      );
      if (rows.length < size)
        rows.push(
          ...(await tx.$queryRawUnsafe<CompactionCandidate[]>(
            // "Game_ranked_compaction_idx" holds the ranked attempts not compacted, by daily.
            `SELECT id, "createdAt", version FROM "Game"
              WHERE "moveLog" IS NULL AND ranked AND status IN ('playing', 'blocked')
                AND "dailyId" IN (SELECT id FROM "DailyDeal" WHERE date <= $1)
                AND NOT (id = ANY($3::text[]))
              LIMIT $2 FOR UPDATE SKIP LOCKED`,
            closedBy,
            size - rows.length,
            [...skip],
          )),
        );
      if (rows.length === 0) return null;
      const logs = await readLogs(
        tx,
        rows.map((r) => ({ ...r, moveLog: null })),
      );
      let logged = 0;
      const compacted: CompactionCandidate[] = [];
      for (const r of rows) {
        const log = logs.get(r.id) ?? [];
        const bytes = encode(r, log);
        if (bytes === null) continue;
        await tx.game.updateMany({ where: { id: r.id }, data: { moveLog: bytes } });
        compacted.push(r);
        logged += log.length;
      }
      if (compacted.length > 0) {
        const days = [...new Set(compacted.map((r) => gameDay(r.createdAt).getTime()))].map(
          (d) => new Date(d),
        );
        await tx.move.deleteMany({
          where: { gameId: { in: compacted.map((r) => r.id) }, gameDay: { in: days } },
        });
      }
      return { games: compacted.length, entries: logged, full: rows.length === size };
    });
  }

  /** Up to `take` idle anonymous games (see `idleWhere`) last changed before `cutoff`. */
  idleAnonymousGames(cutoff: Date, take: number): Promise<{ id: string; createdAt: Date }[]> {
    return this.prisma.game.findMany({
      where: idleWhere(cutoff),
      select: { id: true, createdAt: true },
      take,
    });
  }

  /**
   * Deletes the games `ids` (of `games`, as `idleAnonymousGames` read them) that are still idle before
   * `cutoff` — the same conditions again, in the statement: a move made meanwhile keeps its game — with
   * their move logs, in one transaction (the move log has no foreign key to cascade through). Returns how
   * many were deleted.
   */
  deleteIdleGames(
    cutoff: Date,
    ids: readonly string[],
    games: readonly { createdAt: Date }[],
  ): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const r = await tx.game.deleteMany({ where: { ...idleWhere(cutoff), id: { in: [...ids] } } });
      if (r.count === 0) return 0;
      // The log of each game deleted just now. A move of one of them can no longer commit: the move log's
      // statement logs an entry only for the game row it updates, and that row is gone.
      const kept = new Set(
        (await tx.game.findMany({ where: { id: { in: [...ids] } }, select: { id: true } })).map((g) => g.id),
      );
      // By their games' days, so only those partitions of "Move" are read (prisma/schema.prisma).
      const days = [...new Set(games.map((g) => gameDay(g.createdAt).getTime()))].map((d) => new Date(d));
      await tx.move.deleteMany({
        where: { gameId: { in: ids.filter((id) => !kept.has(id)) }, gameDay: { in: days } },
      });
      return r.count;
    });
  }
}
