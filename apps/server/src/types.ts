/** Fastify decorations of this server (see the plugins that add them). */
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { SolverPool } from './plugins/solver.js';
import type { GameRooms } from './rooms/game-rooms.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration (plugin `config`). */
    config: AppConfig;
    /** The open database (plugin `db`). */
    db: Database;
    /** Prisma Client of the open database (plugin `db`). */
    prisma: PrismaClient;
    /** The live games (plugin `game-rooms`). */
    rooms: GameRooms;
    /** The solver's worker pool (plugin `solver`). */
    solver: SolverPool;
  }
}
