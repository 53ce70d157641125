/**
 * A lease: the duty that exactly one node of the cluster holds at a time (the race sweeper, the daily job).
 *
 * One node alone (`LocalLease`) always holds it. Several nodes (`RedisLease`): a Redis key
 * `<prefix>lease:<name>` holds the id of the node that has the duty, with an expiry of `ttlMs`; the holder
 * renews it every `ttlMs / 3`, the others try to take it at the same pace (`SET … NX PX`). A node that dies
 * stops renewing, and another node takes the duty at most `ttlMs` (plus one try interval) later. A holder
 * that cannot renew in time (Redis away) gives the duty up itself before the key expires elsewhere.
 */
import type { Redis } from 'ioredis';
import { RedisBus, type EventBus } from './event-bus.js';

/** Hears the lease being taken (true) or lost (false). Must not throw. */
export type LeaseListener = (held: boolean) => void;

/** A duty one node of the cluster holds at a time. */
export interface Lease {
  /** Whether this node holds it now. */
  readonly held: boolean;
  /** Starts trying to hold it; `listener` hears every change. */
  start(listener: LeaseListener): void;
  /** Stops trying and gives it up (the next node takes it at once). */
  stop(): Promise<void>;
}

/** One node alone: it always holds the lease. */
export class LocalLease implements Lease {
  held = false;
  /** See `Lease.start`: held at once. */
  start(listener: LeaseListener): void {
    this.held = true;
    listener(true);
  }
  /** See `Lease.stop`. */
  stop(): Promise<void> {
    this.held = false;
    return Promise.resolve();
  }
}

/** Renews the key only while it still names this node (the compare and the expiry in one step). */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Deletes the key only while it still names this node. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** The lease as a Redis key with an expiry (see the module comment). */
export class RedisLease implements Lease {
  held = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: LeaseListener = () => {};
  /** Server time (ms) until which the key surely names this node: renewed before, expires at `ttlMs`. */
  private validUntil = 0;
  private stopped = false;

  /**
   * `redis`: a command connection; `key`: the full key; `nodeId`: this node; `ttlMs`: how long a dead
   * holder keeps the duty at most.
   */
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly nodeId: string,
    private readonly ttlMs: number,
  ) {}

  /** See `Lease.start`. */
  start(listener: LeaseListener): void {
    this.listener = listener;
    const tick = (): void => {
      if (this.stopped) return;
      // attempt() handles its own failures (see below); the chain only re-arms the tick.
      void this.attempt().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, Math.max(50, Math.floor(this.ttlMs / 3)));
      });
    };
    tick();
  }

  /** See `Lease.stop`. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const was = this.held;
    this.set(false);
    if (was) await this.redis.eval(RELEASE, 1, this.key, this.nodeId).catch(() => {});
  }

  private async attempt(): Promise<void> {
    const asked = Date.now();
    try {
      let ok: boolean;
      if (this.held) ok = (await this.redis.eval(RENEW, 1, this.key, this.nodeId, this.ttlMs)) === 1;
      else ok = (await this.redis.set(this.key, this.nodeId, 'PX', this.ttlMs, 'NX')) === 'OK';
      if (ok) this.validUntil = asked + this.ttlMs;
      if (!this.stopped) this.set(ok);
    } catch {
      // Redis away: keep the duty only while the key surely still names this node.
      if (Date.now() >= this.validUntil - Math.floor(this.ttlMs / 3)) this.set(false);
    }
  }

  private set(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    this.listener(held);
  }
}

/**
 * The lease named `name` for this node: a `RedisLease` on the bus's Redis (key `<prefix>lease:<name>`) when the
 * nodes share a Redis bus, else a `LocalLease` (one node alone always holds it). `ttlMs`: how long a dead
 * holder keeps the duty at most.
 */
export function clusterLease(bus: EventBus, prefix: string, name: string, ttlMs: number): Lease {
  const lease =
    bus instanceof RedisBus
      ? new RedisLease(bus.commands, `${prefix}lease:${name}`, bus.nodeId, ttlMs)
      : new LocalLease();
  let leases = LEASES.get(bus);
  if (leases === undefined) LEASES.set(bus, (leases = new Map<string, Lease>()));
  leases.set(name, lease);
  return lease;
}

/** The leases made on each bus (`clusterLease`), by name. */
const LEASES = new WeakMap<EventBus, Map<string, Lease>>();

/**
 * The leases made on `bus` so far, by name (`daily-job`, `race-sweeper`): whether this node holds each is
 * a metric (`klondike_lease_held`) and a part of the status page.
 */
export function leasesOf(bus: EventBus): ReadonlyMap<string, Lease> {
  return LEASES.get(bus) ?? new Map();
}
