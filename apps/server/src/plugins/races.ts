/**
 * Plugin `races`: decorates `app.races` (races/service.ts) with its `RaceEvents` channel: in-process on one
 * node, through the bus with `REDIS_URL`. Its policy for racers' games is declared with the others in
 * plugins/game-policies.ts. One node: at start-up, races a previous run left unfinished are ended as
 * `interrupted` (not restored). Several nodes: each node beats (`ServerNode.seenAt`) every
 * `nodeHeartbeatMs` and ends only the races of nodes that stopped beating. On close every race timer is
 * cleared before the rooms drain.
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
      nodeId: app.bus.nodeId,
      multiNode: app.bus.kind !== 'single',
      nodeDeadMs: 3 * app.config.nodeHeartbeatMs,
    });
    app.decorate('races', races);
    // Several nodes: a heartbeat, and a sweep that ends the races of nodes that stopped beating (a starting
    // node never ends the races of a node alive). One node: every race of a previous run ends at start-up.
    let beat: NodeJS.Timeout | undefined;
    const sweep = (): void => {
      races.heartbeat().then(
        (n) => {
          if (n > 0) app.log.info({ races: n }, 'races of a node that stopped ended as interrupted');
        },
        (err: unknown) => app.log.warn({ err }, 'node heartbeat failed'),
      );
    };
    app.addHook('onReady', async () => {
      const n = app.bus.kind === 'single' ? await races.interruptStale() : await races.heartbeat();
      if (n > 0) app.log.info({ races: n }, 'unfinished races no live node holds ended as interrupted');
      if (app.bus.kind !== 'single') {
        beat = setInterval(sweep, app.config.nodeHeartbeatMs);
        beat.unref();
      }
    });
    app.addHook('preClose', async () => {
      if (beat) clearInterval(beat);
      await races.stop();
      if (app.bus.kind !== 'single') await races.leave().catch(() => {});
    });
  },
  {
    name: 'races',
    fastify: '5.x',
    dependencies: ['config', 'db', 'bus', 'fair-play', 'game-rooms', 'solver'],
  },
);
