/** Fastify decorations of this server (see the plugins that add them). */
import type { EventBus } from './infra/bus/event-bus.js';
import type { SolverAllowance } from './features/solve/allowance.js';
import type { AppConfig } from './infra/config.js';
import type { DailyService } from './features/daily/service.js';
import type { Database } from './infra/db/database.js';
import type { DealEmbargo } from './features/fairness/embargo.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { AuthedPlayer } from './features/players/players.js';
import type { PlayerTokenCache } from './features/players/token-cache.js';
import type { SolverPool } from './features/solve/task.js';
import type { PairingService } from './features/pairing/service.js';
import type { ArenaService } from './features/arenas/service.js';
import type { RaceService } from './features/races/service.js';
import type { RatingService } from './features/ratings/service.js';
import type { GameRooms } from './core/rooms/game-rooms.js';
import type { TokenRevocations } from './features/players/token-revocation.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration (plugin `config`). */
    config: AppConfig;
    /** The server clock, ms since the epoch (plugin `config`; injectable for tests). */
    now: () => number;
    /** The event bus between server nodes (plugin `bus`). */
    bus: EventBus;
    /** The open database (plugin `db`). */
    db: Database;
    /** Prisma Client of the open database (plugin `db`). */
    prisma: PrismaClient;
    /** Players of recently seen bearer tokens (plugin `auth`). */
    playerTokens: PlayerTokenCache;
    /**
     * The player of a bearer token, or null when unknown (plugin `auth`): through `playerTokens`, so a
     * burst of look-ups of one token (HTTP or a socket's `auth`) costs one database read.
     */
    playerOfToken: (token: string) => Promise<AuthedPlayer | null>;
    /**
     * Token revocations (plugin `auth`): rotation and sign-out tell every node, which forget the player's
     * cached tokens and close the sockets authenticated with a revoked token.
     */
    tokenRevocations: TokenRevocations;
    /** The live games (plugin `game-rooms`). */
    rooms: GameRooms;
    /**
     * Counts a request against its client's solver allowance (`SOLVE_RATE_MAX` a minute, shared by
     * POST /api/solve and typed-deal games); 429 `rate-limited` over it (plugin `rate-limit`).
     */
    solverAllowance: SolverAllowance;
    /** The solver's worker pool (plugin `solver`). */
    solver: SolverPool;
    /** Daily deals, their schedule and leaderboards (plugin `daily`). */
    daily: DailyService;
    /** Ratings: rating closed dailies, players' ratings, rating leaderboards (plugin `ratings`). */
    ratings: RatingService;
    /** Keyed deal hashes and the deal embargo (plugin `fair-play`). */
    embargo: DealEmbargo;
    /** Live races (plugin `races`). */
    races: RaceService;
    /** Quick pairing pools (plugin `pairing`). */
    pairing: PairingService;
    /** Arenas (plugin `arenas`). */
    arenas: ArenaService;
    /** More work of the daily job's lease holder, run after each daily run (plugin `daily`). */
    dailyJobs: Set<() => Promise<unknown>>;
    /** One round of maintenance: retention, compaction and stale lobbies (plugin `maintenance`). */
    maintenance: () => Promise<{ gamesDeleted: number; gamesCompacted: number; lobbiesClosed: number }>;
  }
  interface FastifyRequest {
    /** The player whose bearer token the request carries, or null (plugin `auth`). */
    player: AuthedPlayer | null;
  }
}
