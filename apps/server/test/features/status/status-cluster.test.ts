/**
 * Issue 58, the status page with several nodes (test/support/multi-node-harness.ts): two nodes on one
 * Postgres schema and a private Redis this test owns (never the shared one). Both count each other
 * (`nodes: 2`) and say up; once Redis is killed each says the cluster and races are degraded (`redis`)
 * while moves stay up; Redis back, they say up again.
 */
import { type StatusResponse, StatusResponseSchema } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';
import { HAVE_REDIS_SERVER, type PrivateRedis, startPrivateRedis } from '../../support/redis-server.js';

const SKIP = MULTI_NODE_SKIP ?? (HAVE_REDIS_SERVER ? null : 'needs the redis-server binary');

/** Polls `/api/status` on `node` until `accept` holds; returns that answer. */
async function statusUntil(
  node: ServerProcess,
  accept: (s: StatusResponse) => boolean,
  timeoutMs = 20_000,
): Promise<StatusResponse> {
  const deadline = Date.now() + timeoutMs;
  let last: StatusResponse | undefined;
  for (;;) {
    const r = await nodeApi(node, 'GET', '/api/status');
    expect(r.status).toBe(200);
    last = StatusResponseSchema.parse(r.json);
    if (accept(last)) return last;
    if (Date.now() > deadline)
      throw new Error(`status never matched on ${node.base}: ${JSON.stringify(last)}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

describe.skipIf(SKIP !== null)(`status page on two nodes${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let redis: PrivateRedis;
  let pair: NodePair | undefined;
  let nodes: ServerProcess[] = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    // The first node migrates the schema; the second starts on it.
    pair = await startPair({ env: { REDIS_URL: redis.url, NODE_HEARTBEAT_MS: '500' } });
    nodes = [pair.a, pair.b];
  }, 180_000);

  afterAll(async () => {
    await pair?.stop();
    await redis.stop();
  }, 60_000);

  it('up with both nodes counted; degraded (redis) while Redis is away; up again when it returns', async () => {
    for (const node of nodes) {
      const s = await statusUntil(node, (x) => x.nodes === 2 && x.parts.cluster.level === 'up');
      expect(s.parts.moves.level).toBe('up');
      expect(s.parts.races.level).toBe('up');
    }
    await redis.stop();
    for (const node of nodes) {
      const s = await statusUntil(node, (x) => x.parts.cluster.level === 'degraded');
      expect(s.status).toBe('degraded');
      expect(s.parts.cluster.reason).toBe('redis');
      expect(s.parts.races).toEqual({ level: 'degraded', reason: 'redis' });
      // Moves go on without Redis: the database is the truth.
      expect(s.parts.moves.level).toBe('up');
    }
    await redis.start();
    for (const node of nodes) await statusUntil(node, (x) => x.parts.cluster.level === 'up', 30_000);
  }, 120_000);
});
