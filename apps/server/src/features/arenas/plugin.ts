/**
 * Plugin `arenas`: decorates `app.arenas` (arenas/service.ts). Arenas live in the database and their changes
 * cross nodes on the bus, so any node serves any arena. The schedule's arenas are made by the daily job's
 * lease holder (`app.dailyJobs`, with ARENA_SCHEDULE on); the tick starts at once (arenas left running by a
 * previous run carry on), runs again at once when this node finishes an arena race (`app.races.onFinished`)
 * and stops on close. It keeps the races' certified deals ready for its running arenas (`prepareDeals`).
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
    const scoring = app.metrics.recorded(
      'arena_scoring_seconds',
      "Arena races scored on this node: from the race's end to the commit of the tick that scored it, seconds.",
      [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    );
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
      tickMs: app.config.arenaTickMs,
      prepareDeals: (preset, count) => app.races.prepareDeals(preset, count),
      scored: (ms) => scoring.record(ms / 1000),
    });
    app.decorate('arenas', arenas);
    const stopFinished = app.races.onFinished((race) => {
      if (race.arenaId !== null) arenas.raceFinished();
    });
    app.metrics.gaugeByLabel(
      'arenas',
      'Arenas by phase (`upcoming`, `running`), the whole cluster: read from the database at scrape time.',
      'phase',
      async () => Object.entries(await repository.countsAt(new Date(app.now()))),
    );
    app.metrics.counterByLabel(
      'arena_ticks_total',
      'Arena ticks this node ran holding the lock, by what asked for them (`race-end`, `request`, `timer`).',
      'cause',
      () => Object.entries(arenas.ticksRun()),
    );
    if (app.config.arenaSchedule) app.dailyJobs.add(() => arenas.makeSchedule());
    app.addHook('onReady', () => {
      void arenas.tick();
      return Promise.resolve();
    });
    app.addHook('preClose', () => {
      stopFinished();
      return arenas.stop();
    });
    return Promise.resolve();
  },
  {
    name: 'arenas',
    fastify: '5.x',
    dependencies: ['config', 'db', 'bus', 'metrics', 'game-rooms', 'races', 'pairing', 'daily'],
  },
);
