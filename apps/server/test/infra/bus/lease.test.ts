/**
 * The cluster lease (src/infra/bus/lease.ts) that the race sweeper and the daily job run under: on a real Redis,
 * of several nodes trying for the same duty exactly one holds it, and when the holder gives it up another
 * takes it within one try interval. One node alone always holds it. Needs Redis (TEST_REDIS_URL, else the standard local one).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { LocalLease, RedisLease } from '../../../src/infra/bus/lease.js';

/** TEST_REDIS_URL, else the standard local Redis (test/support/services.ts); undefined where none answered. */
const TEST_REDIS_URL = inject('testRedisUrl') ?? undefined;
const TTL_MS = 600;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('one node alone', () => {
  it('always holds its lease, and says so at once', () => {
    const lease = new LocalLease();
    const heard: boolean[] = [];
    lease.start((held) => heard.push(held));
    expect(lease.held).toBe(true);
    expect(heard).toEqual([true]);
  });
});

// Skipped where no Redis answered: there is none to share a lease through.
describe.skipIf(TEST_REDIS_URL === undefined)('several nodes on one Redis', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('exactly one of three nodes holds the duty; when it gives it up another takes it', async () => {
    const key = `klondike-test:lease:${randomUUID()}`;
    const leases = ['a', 'b', 'c'].map((node) => {
      const client = new Redis(TEST_REDIS_URL ?? '');
      clients.push(client);
      return new RedisLease(client, key, node, TTL_MS);
    });
    for (const l of leases) l.start(() => {});
    await sleep(TTL_MS);
    expect(leases.filter((l) => l.held)).toHaveLength(1);
    const holder = leases.find((l) => l.held) as RedisLease;
    await holder.stop();
    expect(holder.held).toBe(false);
    await sleep(TTL_MS); // more than one try interval (ttl / 3)
    const next = leases.filter((l) => l.held);
    expect(next).toHaveLength(1);
    expect(next[0]).not.toBe(holder);
    await Promise.all(leases.map((l) => l.stop()));
    expect(await clients[0]?.exists(key)).toBe(0); // the last holder released it
  });
});
