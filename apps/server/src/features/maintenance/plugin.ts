/**
 * Plugin `maintenance`: a timer (every MAINTENANCE_TICK_MS) that deletes idle anonymous games past
 * GAME_RETENTION_DAYS (maintenance/retention.ts), compacts the move logs of games finished more than
 * MOVE_ARCHIVE_AFTER_MS ago, in bounded batches (maintenance/compaction.ts), and closes race lobbies nobody
 * started within RACE_LOBBY_TTL_MS. Failures are logged and retried at the next tick; the timer stops on close.
 */
import fp from 'fastify-plugin';
import { compactFinishedGames } from './compaction.js';
import { deleteIdleAnonymousGames } from './retention.js';
import { MaintenanceRepository } from './repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** One round of maintenance: retention, compaction and stale lobbies (plugin `maintenance`). */
    maintenance: () => Promise<MaintenanceRound>;
  }
}

/** What one round of maintenance did. */
export interface MaintenanceRound {
  /** Idle anonymous games deleted. */
  readonly gamesDeleted: number;
  /** Finished games whose move logs were compacted. */
  readonly gamesCompacted: number;
  /** Race lobbies closed as abandoned. */
  readonly lobbiesClosed: number;
}

const DAY_MS = 86_400_000;

/** Registers the maintenance timer (none when MAINTENANCE_TICK_MS is 0). */
export const maintenancePlugin = fp(
  (app) => {
    const { gameRetentionDays, raceLobbyTtlMs, maintenanceTickMs, moveArchiveAfterMs } = app.config;
    const games = new MaintenanceRepository(app.prisma);
    /** One round of maintenance; exposed for tests and operators as `app.maintenance()`. */
    async function run(): Promise<MaintenanceRound> {
      const gamesDeleted =
        gameRetentionDays > 0
          ? await deleteIdleAnonymousGames(games, app.rooms, new Date(app.now() - gameRetentionDays * DAY_MS))
          : 0;
      const gamesCompacted =
        moveArchiveAfterMs > 0
          ? (
              await compactFinishedGames(games, new Date(app.now() - moveArchiveAfterMs), {
                skipped: (gameId, err) => app.log.warn({ err, gameId }, 'move log not compacted'),
              })
            ).games
          : 0;
      const lobbiesClosed = await app.races.closeStaleLobbies(raceLobbyTtlMs);
      if (gamesDeleted > 0 || gamesCompacted > 0 || lobbiesClosed > 0)
        app.log.info({ gamesDeleted, gamesCompacted, lobbiesClosed }, 'maintenance');
      return { gamesDeleted, gamesCompacted, lobbiesClosed };
    }
    app.decorate('maintenance', run);
    if (maintenanceTickMs === 0) return Promise.resolve();
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      run()
        .catch((err: unknown) => app.log.warn({ err }, 'maintenance failed; retrying at the next tick'))
        .finally(() => {
          running = false;
        });
    }, maintenanceTickMs);
    timer.unref();
    app.addHook('onClose', () => {
      clearInterval(timer);
      return Promise.resolve();
    });
    return Promise.resolve();
  },
  { name: 'maintenance', fastify: '5.x', dependencies: ['config', 'db', 'game-rooms', 'races'] },
);
