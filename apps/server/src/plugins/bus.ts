/**
 * Plugin `bus`: decorates `app.bus`, the event bus between server nodes (bus/event-bus.ts): Redis pub/sub
 * when `REDIS_URL` is set (start-up waits until Redis answers), else the single-node bus. Closed last, after
 * the rooms and races have stopped publishing.
 */
import fp from 'fastify-plugin';
import { type EventBus, RedisBus, SingleNodeBus } from '../bus/event-bus.js';
import '../types.js';

/** Registers the event bus. */
export const busPlugin = fp(
  async (app) => {
    let bus: EventBus;
    if (app.config.redisUrl === undefined) bus = new SingleNodeBus();
    else {
      const redis = new RedisBus(app.config.redisUrl, app.config.redisPrefix, (err) =>
        app.log.warn({ err }, 'redis connection error'),
      );
      try {
        await redis.ready();
      } catch (e) {
        await redis.close();
        throw e;
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
