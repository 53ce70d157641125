/** Plugin `game-rooms`: decorates `app.rooms`, the in-memory owner of live games (rooms/game-rooms.ts). */
import fp from 'fastify-plugin';
import { GameRooms } from '../rooms/game-rooms.js';
import '../types.js';

/** Creates the rooms service; on close, waits for queued writes before the database closes. */
export const gameRoomsPlugin = fp(
  async (app) => {
    const rooms = new GameRooms(app.prisma, app.db.writeMoves, {
      maxLiveGames: app.config.maxLiveGames,
      now: app.now,
      commitQueue: app.config.commitQueue,
      commitConcurrency: app.config.commitConcurrency ?? (app.db.kind === 'postgres' ? 2 : 1),
      bus: app.bus,
      readVersion: app.db.gameVersion,
    });
    app.decorate('rooms', rooms);
    app.addHook('preClose', async () => {
      await rooms.drain();
    });
  },
  { name: 'game-rooms', fastify: '5.x', dependencies: ['config', 'db', 'bus'] },
);
