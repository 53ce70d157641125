/** Plugin `game-rooms`: decorates `app.rooms`, the in-memory owner of live games (rooms/game-rooms.ts). */
import fp from 'fastify-plugin';
import { GameRooms } from '../rooms/game-rooms.js';
import '../types.js';

/** Options of the game-rooms plugin. */
export interface GameRoomsPluginOptions {
  /** Server clock override (ms since epoch), for tests. */
  readonly now?: () => number;
}

/** Creates the rooms service; on close, waits for queued writes before the database closes. */
export const gameRoomsPlugin = fp<GameRoomsPluginOptions>(
  async (app, opts) => {
    const rooms = new GameRooms(app.prisma, {
      maxLiveGames: app.config.maxLiveGames,
      ...(opts.now ? { now: opts.now } : {}),
    });
    app.decorate('rooms', rooms);
    app.addHook('preClose', async () => {
      await rooms.drain();
    });
  },
  { name: 'game-rooms', fastify: '5.x', dependencies: ['config', 'db'] },
);
