/**
 * Retention: what the server stops keeping. Anonymous casual games that nobody finished and nobody touched
 * for `GAME_RETENTION_DAYS` are deleted with their move log (games of players, dailies and races are kept:
 * they feed statistics, leaderboards and replays).
 */
import { gameDay } from '../../infra/db/game-log.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { GameRooms } from '../../core/rooms/game-rooms.js';

/** Games deleted per statement (a large backlog is worked off in batches). */
export const RETENTION_BATCH = 500;

/**
 * Deletes unfinished anonymous casual games last changed before `cutoff`, with their moves (in the same
 * transaction: the move log has no foreign key to cascade through, prisma/schema.prisma). A game held in
 * memory with a subscriber is kept (someone is looking at it). Returns how many were deleted.
 */
export async function deleteIdleAnonymousGames(
  prisma: PrismaClient,
  rooms: GameRooms,
  cutoff: Date,
): Promise<number> {
  const idle = {
    playerId: null,
    dailyId: null,
    raceEntry: { is: null },
    status: 'playing',
    updatedAt: { lt: cutoff },
  } as const;
  let deleted = 0;
  for (;;) {
    const rows = await prisma.game.findMany({
      where: idle,
      select: { id: true, createdAt: true },
      take: RETENTION_BATCH,
    });
    if (rows.length === 0) return deleted;
    // A room in memory with subscribers cannot be evicted: leave it (it is not idle after all).
    const ids = rows.map((r) => r.id).filter((id) => rooms.evict(id) || rooms.peekState(id) === undefined);
    if (ids.length === 0) return deleted;
    deleted += await prisma.$transaction(async (tx) => {
      // The same conditions again, in the statement: a move made meanwhile keeps its game.
      const r = await tx.game.deleteMany({ where: { ...idle, id: { in: ids } } });
      if (r.count === 0) return 0;
      // The log of each game deleted just now. A move of one of them can no longer commit: the move log's
      // statement logs an entry only for the game row it updates, and that row is gone.
      const kept = new Set(
        (await tx.game.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((g) => g.id),
      );
      // By their games' days, so only those partitions of "Move" are read (prisma/schema.prisma).
      const days = [...new Set(rows.map((g) => gameDay(g.createdAt).getTime()))].map((d) => new Date(d));
      await tx.move.deleteMany({
        where: { gameId: { in: ids.filter((id) => !kept.has(id)) }, gameDay: { in: days } },
      });
      return r.count;
    });
    if (rows.length < RETENTION_BATCH) return deleted;
  }
}
