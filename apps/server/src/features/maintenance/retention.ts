/**
 * Retention: what the server stops keeping. Anonymous casual games that nobody finished and nobody touched
 * for `GAME_RETENTION_DAYS` are deleted with their move log (games of players, dailies and races are kept:
 * they feed statistics, leaderboards and replays).
 */
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import type { MaintenanceRepository } from './repository.js';

/** Games deleted per statement (a large backlog is worked off in batches). */
export const RETENTION_BATCH = 500;

/**
 * Deletes unfinished anonymous casual games last changed before `cutoff`, with their moves (in the same
 * transaction: the move log has no foreign key to cascade through, prisma/schema.prisma). A game held in
 * memory with a subscriber is kept (someone is looking at it). Returns how many were deleted.
 */
export async function deleteIdleAnonymousGames(
  repo: MaintenanceRepository,
  rooms: GameRooms,
  cutoff: Date,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await repo.idleAnonymousGames(cutoff, RETENTION_BATCH);
    if (rows.length === 0) return deleted;
    // A room in memory with subscribers cannot be evicted: leave it (it is not idle after all).
    const ids = rows.map((r) => r.id).filter((id) => rooms.evict(id) || rooms.peekState(id) === undefined);
    if (ids.length === 0) return deleted;
    deleted += await repo.deleteIdleGames(cutoff, ids, rows);
    if (rows.length < RETENTION_BATCH) return deleted;
  }
}
