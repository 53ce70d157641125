/**
 * Plugin `game-rooms`: decorates `app.rooms`, the in-memory owner of live games (rooms/game-rooms.ts), and
 * `app.gameKinds`, where each feature declares its kinds of game (games/kinds.ts).
 */
import type { GameKind } from '@klondike/protocol';
import fp from 'fastify-plugin';
import { type KindRows, PrismaGameStore } from '../../infra/db/game-store.js';
import { GameRooms } from '../rooms/game-rooms.js';
import { GameKindRegistry } from './kinds.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live games (plugin `game-rooms`). */
    rooms: GameRooms;
    /** The kinds of game, each with its policy and rows, as the feature modules declare them (plugin `game-rooms`). */
    gameKinds: GameKindRegistry;
  }
}

/** Creates the rooms service; on close, waits for queued writes before the database closes. */
export const gameRoomsPlugin = fp(
  (app) => {
    // The rows a kind adds to its game's writes are that kind's own (a ranked daily's attempt and result),
    // declared by its feature through `app.gameKinds`, which fills this record before any game is written.
    const rows: Partial<Record<GameKind, KindRows>> = {};
    const store = new PrismaGameStore(app.prisma, app.db.writeMoves, app.db.gameVersion, rows);
    const rooms = new GameRooms(store, {
      maxLiveGames: app.config.maxLiveGames,
      now: app.now,
      commitQueue: app.config.commitQueue,
      commitConcurrency: app.config.commitConcurrency ?? (app.db.kind === 'postgres' ? 2 : 1),
      bus: app.bus,
    });
    app.decorate('rooms', rooms);
    app.decorate('gameKinds', new GameKindRegistry(rooms, rows));
    app.addHook('preClose', async () => {
      await rooms.drain();
    });
    return Promise.resolve();
  },
  { name: 'game-rooms', fastify: '5.x', dependencies: ['config', 'db', 'bus'] },
);
