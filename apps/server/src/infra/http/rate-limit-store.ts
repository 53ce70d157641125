/**
 * The rate limits' counters with several nodes: in Redis while it answers (one count for the whole
 * cluster, @fastify/rate-limit's own Redis store), in this node's memory while it does not (its own LRU
 * store), so a Redis outage never holds a request up nor turns the limits off: for that time each node
 * counts on its own (a client may make up to `max` requests per node), and the shared count resumes when
 * Redis returns.
 */
import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

type Incr = FastifyRateLimitStore['incr'];
type Callback = Parameters<Incr>[1];

/** A store that also reads a counter without counting (`{ increment: false }`), as both built-in ones do. */
interface ReadableStore extends FastifyRateLimitStore {
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): ReadableStore;
}

/** The settings @fastify/rate-limit hands a store's constructor (its global parameters) that matter here. */
interface StoreParams {
  readonly continueExceeding?: boolean;
  readonly exponentialBackoff?: boolean;
  readonly cache?: number;
}

/** Shared counters while `up()`, else local ones; a failed shared command also falls back to the local count. */
class FallbackStore implements ReadableStore {
  constructor(
    private readonly shared: ReadableStore,
    private readonly local: ReadableStore,
    private readonly up: () => boolean,
  ) {}

  /** See FastifyRateLimitStore.incr. */
  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    if (!this.up()) return this.local.incr(key, callback, timeWindow, max);
    this.shared.incr(
      key,
      (err, res) => (err ? this.local.incr(key, callback, timeWindow, max) : callback(null, res)),
      timeWindow,
      max,
    );
  }

  /** Reads a counter without counting (`createRateLimit(...)(req, { increment: false })`). */
  read(key: string, callback: Callback, timeWindow: number, max: number): void {
    if (!this.up()) return this.local.read(key, callback, timeWindow, max);
    this.shared.read(
      key,
      (err, res) => (err ? this.local.read(key, callback, timeWindow, max) : callback(null, res)),
      timeWindow,
      max,
    );
  }

  /** See FastifyRateLimitStore.child: a route's own counters, shared and local alike. */
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FallbackStore {
    return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.up);
  }
}

/**
 * The store for @fastify/rate-limit's `store` option: counters under `nameSpace` in `redis` while its
 * connection is ready, this node's own counters otherwise (see the module comment).
 */
export function redisWithLocalFallback(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  const up = (): boolean => redis.status === 'ready';
  return class extends FallbackStore {
    constructor(options: FastifyRateLimitOptions) {
      const p: StoreParams = options;
      super(
        new RedisStore(p.continueExceeding, p.exponentialBackoff, redis, nameSpace),
        new LocalStore(p.continueExceeding, p.exponentialBackoff, p.cache),
        up,
      );
    }
  };
}
