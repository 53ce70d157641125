/**
 * The rows a ranked daily attempt adds to its game's writes (db/game-store.ts), in the same transaction:
 * its `DailyAttempt` claim when it is created (the unique (daily, player) key refuses a second attempt),
 * and its `DailyResult` leaderboard row when it ends, or when its day closes while it is still playing.
 */
import type { KindRows } from '../../infra/db/game-store.js';

/** The `daily-ranked` kind's rows. */
export const dailyRankedRows: KindRows = {
  async inserted(tx, game) {
    if (game.daily === null || game.owner === null)
      throw new Error(`game ${game.id}: a ranked attempt without its daily or player`);
    await tx.dailyAttempt.create({
      data: {
        dailyId: game.daily.id,
        playerId: game.owner,
        gameId: game.id,
        createdAt: new Date(game.createdAt),
      },
    });
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
