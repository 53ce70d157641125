/**
 * Plugin `arenas`: decorates `app.arenas` (arenas/service.ts). Arenas live in the database and their changes
 * cross nodes on the bus, so any node serves any arena. The schedule's arenas are made by the daily job's
 * lease holder (`app.dailyJobs`, with ARENA_SCHEDULE on); the tick starts at once (arenas left running by a
 * previous run carry on) and stops on close.
 */
import fp from 'fastify-plugin';
import { ApiError } from '../../infra/errors.js';
import { ArenaRepository } from './repository.js';
import { ArenaService } from './service.js';
import { DEFAULT_SCHEDULE } from './schedule.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Arenas (plugin `arenas`). */
    arenas: ArenaService;
  }
}

/** Registers the arena service. */
export const arenasPlugin = fp(
  (app) => {
    const repository = new ArenaRepository(app.prisma);
    const arenas = new ArenaService({
      repository,
      bus: app.bus,
      now: app.now,
      log: app.log,
      makeRace: (preset, racers, extra) => app.races.createPaired(preset, racers, extra),
      notifyPaired: (ids, code) => app.pairing.notifyPaired(ids, code),
      stopGame: async (gameId, owner) => {
        try {
          await app.rooms.act(gameId, { type: 'resign' }, { actor: owner });
        } catch (err) {
          if (!(err instanceof ApiError)) app.log.error({ err, gameId }, 'arena: berserk stop failed');
        }
      },
      schedule: DEFAULT_SCHEDULE,
      publicLimit: app.config.arenaPublicLimit,
    });
    app.decorate('arenas', arenas);
    app.metrics.gaugeByLabel(
      'arenas',
      'Arenas by phase (`upcoming`, `running`), the whole cluster: read from the database at scrape time.',
      'phase',
      async () => Object.entries(await repository.countsAt(new Date(app.now()))),
    );
    if (app.config.arenaSchedule) app.dailyJobs.add(() => arenas.makeSchedule());
    app.addHook('onReady', () => {
      void arenas.tick();
      return Promise.resolve();
    });
    app.addHook('preClose', () => arenas.stop());
    return Promise.resolve();
  },
  {
    name: 'arenas',
    fastify: '5.x',
    dependencies: ['config', 'db', 'bus', 'metrics', 'game-rooms', 'races', 'pairing', 'daily'],
  },
);
