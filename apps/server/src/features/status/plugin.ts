/**
 * Plugin `status`: decorates `app.status`, the public status page's service (service.ts), reading this
 * node's figures from the rooms, the daily job, the bus and the solver.
 */
import fp from 'fastify-plugin';
import { StatusRepository } from './repository.js';
import { StatusService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The status page's service (plugin `status`). */
    status: StatusService;
  }
}

/** Registers the status service. */
export const statusPlugin = fp(
  (app) => {
    const service = new StatusService({
      repository: new StatusRepository(app.prisma),
      now: app.now,
      heartbeatMs: app.config.nodeHeartbeatMs,
      figures: () => {
        const queue = app.rooms.commitQueue;
        return {
          commitQueue: queue,
          refused: queue.refused,
          dailyReady: app.daily.status().todayReady,
          clustered: app.bus.kind === 'redis',
          redis: app.bus.connected,
          solverFailed: app.solver.failed,
          solverBusy: app.solver.queued - app.solver.queuedBackground >= app.config.solverQueue,
        };
      },
    });
    app.decorate('status', service);
    return Promise.resolve();
  },
  {
    name: 'status',
    fastify: '5.x',
    dependencies: ['config', 'db', 'bus', 'game-rooms', 'solver', 'daily'],
  },
);
