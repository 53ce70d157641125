/**
 * The bus's topics on a real Redis (bus/event-bus.ts `send`/`watch`): three `RedisBus` nodes under one
 * prefix of their own, and a tap (test/support/redis-monitor.ts: MONITOR, which counts as no receiver) that
 * sees every PUBLISH Redis is sent under the prefix.
 * A topic's message goes to the other nodes watching it and nowhere else; nothing reaches Redis when no
 * other node watches; a node never hears its own; a node joining late learns the interest already
 * announced; a node that stops watching, closes or dies stops being sent to. Needs Redis (TEST_REDIS_URL /
 * else the standard local one).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisBus } from '../../../src/infra/bus/event-bus.js';
import { TEST_REDIS_URL } from '../../support/helpers.js';
import { type PublishTap, tapPublishes } from '../../support/redis-monitor.js';

const SKIP = TEST_REDIS_URL === undefined ? 'needs Redis (test/support/services.ts found none)' : null;
const SETTLE_MS = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(SKIP !== null)(`bus topics on Redis${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  const url = TEST_REDIS_URL ?? 'redis://unused';
  const prefix = `topics-${randomBytes(4).toString('hex')}:`;
  let tap: PublishTap;
  const buses: RedisBus[] = [];

  async function node(): Promise<RedisBus> {
    const bus = new RedisBus(url, prefix, () => {}, undefined, { interestSettleMs: SETTLE_MS });
    buses.push(bus);
    await bus.ready(5000);
    return bus;
  }
  /** The messages carried since `from` that were not interest announcements. */
  const frames = (from: number) => tap.published.slice(from).filter((m) => m.channel !== 'bus:interest');
  /** Waits until `pred` holds (polling), failing after `timeoutMs`. */
  async function until(pred: () => boolean, timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(10);
    }
  }
  /** Watches `topic` on `bus`, recording what it hears; resolves once the others have heard of it. */
  async function watching(bus: RedisBus, topic: string): Promise<{ heard: unknown[]; stop: () => void }> {
    const heard: unknown[] = [];
    let settled = false;
    const stop = bus.watch(
      topic,
      (m) => heard.push(m),
      () => (settled = true),
    );
    await until(() => settled);
    return { heard, stop };
  }

  beforeAll(async () => {
    tap = await tapPublishes(url, prefix);
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });
  afterAll(() => {
    tap.close();
  });

  it('a topic watched by no other node sends nothing to Redis, and the sender never hears its own', async () => {
    const a = await node();
    const b = await node();
    const own = await watching(a, 'game:g1');
    const from = tap.published.length;
    for (let i = 0; i < 10; i++) a.send('game:g1', { version: i });
    b.send('game:nobody', { version: 1 });
    await sleep(100);
    expect(frames(from)).toEqual([]);
    expect(own.heard).toEqual([]);
  });

  it('a topic watched on two other nodes reaches both, once each, on their own channels only', async () => {
    const a = await node();
    const b = await node();
    const c = await node();
    const onB = await watching(b, 'race:R');
    const onC = await watching(c, 'race:R');
    const onA = await watching(a, 'race:R'); // the sender watches too: it still hears nothing of its own
    const from = tap.published.length;
    a.send('race:R', { n: 1 });
    await until(() => onB.heard.length === 1 && onC.heard.length === 1);
    await sleep(50);
    expect(onB.heard).toEqual([{ n: 1 }]);
    expect(onC.heard).toEqual([{ n: 1 }]);
    expect(onA.heard).toEqual([]);
    expect(
      frames(from)
        .map((m) => m.channel)
        .sort(),
    ).toEqual([`bus:node:${b.nodeId}`, `bus:node:${c.nodeId}`].sort());
  });

  it('a node joining late learns the interest already announced; a watcher that stops is sent nothing more', async () => {
    const a = await node();
    const onA = await watching(a, 'arena:X');
    const late = await node(); // joins after the announcement: learns it from a's answer to its hello
    const from = tap.published.length;
    late.send('arena:X', { id: 'X' });
    await until(() => onA.heard.length === 1);
    expect(frames(from)).toHaveLength(1);

    onA.stop();
    await sleep(SETTLE_MS + 100); // the unwatch announcement reaches `late`
    const after = tap.published.length;
    late.send('arena:X', { id: 'X' });
    await sleep(100);
    expect(frames(after)).toEqual([]);
    expect(onA.heard).toHaveLength(1);
  });

  it('a node that closes, or dies without a word, is no longer sent to', async () => {
    const a = await node();
    const b = await node();
    const c = await node();
    await watching(b, 'game:g2');
    await watching(c, 'game:g2');
    await b.close(); // says it watches nothing
    await sleep(100);
    // c dies: its connections drop with no announcement.
    (c as unknown as { sub: Redis }).sub.disconnect();
    await sleep(100);
    let from = tap.published.length;
    a.send('game:g2', { version: 1 }); // reaches nobody on c's channel: a forgets c
    await sleep(100);
    expect(frames(from).map((m) => m.channel)).toEqual([`bus:node:${c.nodeId}`]);
    from = tap.published.length;
    a.send('game:g2', { version: 2 });
    await sleep(100);
    expect(frames(from)).toEqual([]);
  });

  it('a node whose connection returns announces its interest again and is sent to', async () => {
    const a = await node();
    const b = await node();
    const onB = await watching(b, 'game:g3');
    (b as unknown as { sub: Redis }).sub.disconnect(true); // reconnects by itself
    await sleep(50);
    a.send('game:g3', { version: 1 }); // lost (b's channel has no listener): a forgets b
    await until(() => b.connected, 5000);
    a.send('game:g3', { version: 2 });
    await until(() => onB.heard.length === 1);
    expect(onB.heard).toEqual([{ version: 2 }]);
  });
});
