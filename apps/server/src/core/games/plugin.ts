/**
 * Plugin `game-rooms`: decorates `app.rooms`, the in-memory owner of live games (rooms/game-rooms.ts), and
 * `app.gameKinds`, where each feature declares its kinds of game (games/kinds.ts).
 */
import type { GameKind } from '@klondike/protocol';
import fp from 'fastify-plugin';
import { type KindRows, PrismaGameStore } from '../../infra/db/game-store.js';
import { GameRooms } from '../rooms/game-rooms.js';
import { COMMIT_LATENCY_BUCKETS, type HistogramRecorder } from '../../infra/metrics/recorder.js';
import type { Metrics } from '../../infra/metrics/registry.js';
import { GameKindRegistry } from './kinds.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live games (plugin `game-rooms`). */
    rooms: GameRooms;
    /** The kinds of game, each with its policy and rows, as the feature modules declare them (plugin `game-rooms`). */
    gameKinds: GameKindRegistry;
  }
}

/**
 * The rooms' figures, read at scrape time: live rooms, the commit queue's depth and bound, `overloaded`
 * refusals, and the actions stored (the latency histogram's count when metrics are on).
 */
function registerRoomMetrics(
  metrics: Metrics,
  rooms: GameRooms,
  latency: HistogramRecorder | undefined,
): void {
  metrics.gauge('live_rooms', 'Games held in memory by this node.', () => rooms.size);
  metrics.gauge('commit_queue_depth', 'Writes admitted and not yet stored (COMMIT_QUEUE bounds it).', () => {
    return rooms.commitQueue.depth;
  });
  metrics.gauge('commit_queue_limit', 'COMMIT_QUEUE: the depth past which writes are refused.', () => {
    return rooms.commitQueue.bound;
  });
  metrics.counter(
    'overloaded_refusals_total',
    'Writes refused with `overloaded` (commit queue full).',
    () => {
      return rooms.commitQueue.refused;
    },
  );
  metrics.counter(
    'moves_committed_total',
    'Actions (moves, undos, resignations) stored by this node.',
    () => {
      return latency?.count ?? rooms.commitStats.committed;
    },
  );
}

/** Creates the rooms service; on close, waits for queued writes before the database closes. */
export const gameRoomsPlugin = fp(
  (app) => {
    // The rows a kind adds to its game's writes are that kind's own (a ranked daily's attempt and result),
    // declared by its feature through `app.gameKinds`, which fills this record before any game is written.
    const rows: Partial<Record<GameKind, KindRows>> = {};
    const store = new PrismaGameStore(app.prisma, app.db.writeMoves, app.db.gameVersion, app.db.query, rows);
    // Metrics on (METRICS_PORT): each stored action's commit latency goes to an allocation-free histogram.
    const latency = app.metrics.enabled
      ? app.metrics.recorded(
          'move_commit_duration_seconds',
          'Stored actions (moves, undos, resignations) by seconds from commit to durable write.',
          COMMIT_LATENCY_BUCKETS,
        )
      : undefined;
    const rooms = new GameRooms(store, {
      maxLiveGames: app.config.maxLiveGames,
      now: app.now,
      commitQueue: app.config.commitQueue,
      commitConcurrency: app.config.commitConcurrency ?? (app.db.kind === 'postgres' ? 2 : 1),
      bus: app.bus,
      ...(latency ? { commitObserver: latency } : {}),
    });
    registerRoomMetrics(app.metrics, rooms, latency);
    app.decorate('rooms', rooms);
    app.decorate('gameKinds', new GameKindRegistry(rooms, rows));
    app.addHook('preClose', async () => {
      await rooms.drain();
    });
    return Promise.resolve();
  },
  { name: 'game-rooms', fastify: '5.x', dependencies: ['config', 'db', 'bus', 'metrics'] },
);
