/**
 * Types of @fastify/rate-limit's two built-in stores, which the package ships without declarations
 * (used by rate-limit-store.ts).
 */
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';
  type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
  /** Counters in Redis (one Lua script per request), keys `<key><client key>`. */
  export default class RedisStore implements FastifyRateLimitStore {
    constructor(
      continueExceeding: boolean | undefined,
      exponentialBackoff: boolean | undefined,
      redis: Redis,
      key?: string,
    );
    incr(key: string, callback: Callback, timeWindow: number, max: number): void;
    read(key: string, callback: Callback, timeWindow: number, max: number): void;
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): RedisStore;
  }
}

declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
  /** Counters in this process (an LRU of `cache` keys, default 5,000). */
  export default class LocalStore implements FastifyRateLimitStore {
    constructor(
      continueExceeding: boolean | undefined,
      exponentialBackoff: boolean | undefined,
      cache?: number,
    );
    incr(key: string, callback: Callback, timeWindow: number, max: number): void;
    read(key: string, callback: Callback, timeWindow: number, max: number): void;
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): LocalStore;
  }
}
