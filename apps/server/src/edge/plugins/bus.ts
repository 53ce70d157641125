/**
 * Plugin `bus`: decorates `app.bus`, the event bus between server nodes (bus/event-bus.ts): Redis pub/sub
 * when `REDIS_URL` is set, else the single-node bus. Start-up waits a few seconds for Redis and then starts
 * without it (logged; `/api/ready` says `redis: false`): Redis is an accelerator, and the bus joins as soon
 * as it answers. Closed last, after the rooms and races have stopped publishing.
 */
import fp from 'fastify-plugin';
import { type EventBus, RedisBus, SingleNodeBus } from '../../infra/bus/event-bus.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The event bus between server nodes (plugin `bus`). */
    bus: EventBus;
  }
}

/** How long start-up waits for Redis before going on without it, ms. */
export const REDIS_START_WAIT_MS = 5000;

/** Registers the event bus. */
export const busPlugin = fp(
  async (app) => {
    let bus: EventBus;
    if (app.config.redisUrl === undefined) bus = new SingleNodeBus();
    else {
      let warned = false;
      const redis = new RedisBus(
        app.config.redisUrl,
        app.config.redisPrefix,
        (err) => {
          // One line per outage, not one per reconnection attempt.
          if (warned) return;
          warned = true;
          app.log.warn({ err }, 'redis connection error');
        },
        (up) => {
          if (up) {
            warned = false;
            app.log.info('redis up: events between nodes and shared rate limits resume');
          } else
            app.log.warn(
              'redis away: moves go on; events between nodes are dropped and rate limits count per node until it returns',
            );
        },
      );
      try {
        await redis.ready(REDIS_START_WAIT_MS);
      } catch {
        app.log.warn('redis did not answer at start-up: starting without it, it joins when it answers');
      }
      bus = redis;
    }
    app.decorate('bus', bus);
    app.addHook('onClose', async () => {
      await bus.close();
    });
  },
  { name: 'bus', fastify: '5.x', dependencies: ['config'] },
);
