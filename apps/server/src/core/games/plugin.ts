/** Plugin `game-rooms`: decorates `app.rooms`, the in-memory owner of live games (rooms/game-rooms.ts). */
import fp from 'fastify-plugin';
import { dailyRankedRows } from '../../features/daily/rows.js';
import { PrismaGameStore } from '../../infra/db/game-store.js';
import { GameRooms } from '../rooms/game-rooms.js';
import '../../types.js';

/** Creates the rooms service; on close, waits for queued writes before the database closes. */
export const gameRoomsPlugin = fp(
  async (app) => {
    // The rows a kind adds to its game's writes are that kind's own (a ranked daily's attempt and result).
    const store = new PrismaGameStore(app.prisma, app.db.writeMoves, app.db.gameVersion, {
      'daily-ranked': dailyRankedRows,
    });
    const rooms = new GameRooms(store, {
      maxLiveGames: app.config.maxLiveGames,
      now: app.now,
      commitQueue: app.config.commitQueue,
      commitConcurrency: app.config.commitConcurrency ?? (app.db.kind === 'postgres' ? 2 : 1),
      bus: app.bus,
    });
    app.decorate('rooms', rooms);
    app.addHook('preClose', async () => {
      await rooms.drain();
    });
  },
  { name: 'game-rooms', fastify: '5.x', dependencies: ['config', 'db', 'bus'] },
);
