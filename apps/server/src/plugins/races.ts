/**
 * Plugin `races`: decorates `app.races` (races/service.ts) with its `RaceEvents` channel — in-process on
 * one node, through the bus with `REDIS_URL` so a room's sockets may sit on any node (its
 * policy for racers' games is declared with the others in plugins/game-policies.ts). At start-up, races a previous run left unfinished are ended as `interrupted` (not
 * restored). On close every race timer is cleared before the rooms drain.
 */
import fp from 'fastify-plugin';
import { BusRaceEvents, InProcessRaceEvents } from '../races/events.js';
import { RaceService } from '../races/service.js';
import '../types.js';

/** Registers the races service. */
export const racesPlugin = fp(
  async (app) => {
    const races = new RaceService({
      prisma: app.prisma,
      rooms: app.rooms,
      solver: app.solver,
      events: app.bus.kind === 'single' ? new InProcessRaceEvents() : new BusRaceEvents(app.bus),
      now: app.now,
      log: app.log,
      countdownMs: app.config.raceCountdownMs,
      awayForfeitMs: app.config.raceAwayForfeitMs,
      certifyMs: app.config.raceCertifyMs,
      embargo: app.embargo,
    });
    app.decorate('races', races);
    app.addHook('onReady', async () => {
      const n = await races.interruptStale();
      if (n > 0) app.log.info({ races: n }, 'unfinished races of a previous run ended as interrupted');
    });
    app.addHook('preClose', async () => {
      await races.stop();
    });
  },
  {
    name: 'races',
    fastify: '5.x',
    dependencies: ['config', 'db', 'bus', 'fair-play', 'game-rooms', 'solver'],
  },
);
