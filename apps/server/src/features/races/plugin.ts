/**
 * Plugin `races`: decorates `app.races` (races/service.ts) with its `RaceEvents` channel: in-process on one
 * node, through the bus with `REDIS_URL`. Its policy for racers' games is declared by its module
 * (races/module.ts).
 *
 * The race sweeper (the cluster's race timers) runs under a lease (bus/lease.ts): one node alone always
 * holds it; several nodes share a Redis lease whose holder renews it every `nodeHeartbeatMs` and which
 * another node takes within 3 × `nodeHeartbeatMs` of the holder's death. Several nodes: each node also
 * beats (`ServerNode.seenAt`) every `nodeHeartbeatMs` and reloads its index of unfinished rooms; nobody ends
 * another node's races. One node: at start-up, races a previous run left unfinished are ended as
 * `interrupted` (not restored). On close the lease is given up and every race timer cleared before the
 * rooms drain.
 */
import fp from 'fastify-plugin';
import { type Lease, clusterLease } from '../../infra/bus/lease.js';
import { BusRaceEvents, InProcessRaceEvents } from './events.js';
import { RatedEligibility } from './eligibility.js';
import { RaceRepository } from './repository.js';
import { RaceService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live races (plugin `races`). */
    races: RaceService;
  }
}

/** Registers the races service. */
export const racesPlugin = fp(
  (app) => {
    const multiNode = app.bus.kind !== 'single';
    const nodeDeadMs = 3 * app.config.nodeHeartbeatMs;
    const repository = new RaceRepository(app.prisma, app.ratings.raceRater);
    const races = new RaceService({
      repository,
      eligibility: new RatedEligibility({
        repository,
        now: app.now,
        rules: {
          minAccountAgeMs: app.config.ratedMinAccountAgeMs,
          minFinishedGames: app.config.ratedMinFinishedGames,
        },
      }),
      rooms: app.rooms,
      solver: app.solver,
      events: multiNode ? new BusRaceEvents(app.bus) : new InProcessRaceEvents(),
      now: app.now,
      log: app.log,
      countdownMs: app.config.raceCountdownMs,
      awayForfeitMs: app.config.raceAwayForfeitMs,
      certifyMs: app.config.raceCertifyMs,
      embargo: app.embargo,
      nodeId: app.bus.nodeId,
      multiNode,
      nodeDeadMs,
      sweepMs: Math.min(1000, app.config.nodeHeartbeatMs),
    });
    app.decorate('races', races);
    const lease: Lease = clusterLease(app.bus, app.config.redisPrefix, 'race-sweeper', nodeDeadMs);
    let beat: NodeJS.Timeout | undefined;
    const heartbeat = (): void => {
      races.heartbeat().catch((err: unknown) => app.log.warn({ err }, 'node heartbeat failed'));
    };
    app.addHook('onReady', async () => {
      if (multiNode) await races.heartbeat();
      else {
        const n = await races.interruptStale();
        if (n > 0) app.log.info({ races: n }, 'unfinished races of a previous run ended as interrupted');
        await races.loadIndex();
      }
      lease.start((held) => {
        if (held) app.log.info('this node runs the race sweeper');
        races.setSweeper(held);
      });
      if (multiNode) {
        beat = setInterval(heartbeat, app.config.nodeHeartbeatMs);
        beat.unref();
      }
    });
    app.addHook('preClose', async () => {
      if (beat) clearInterval(beat);
      await lease.stop();
      await races.stop();
      if (multiNode) await races.leave().catch(() => {});
    });
    return Promise.resolve();
  },
  {
    name: 'races',
    fastify: '5.x',
    dependencies: ['config', 'db', 'bus', 'fair-play', 'game-rooms', 'solver', 'ratings'],
  },
);
