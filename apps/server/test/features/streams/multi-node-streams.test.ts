/**
 * NDJSON streams across two server processes on one Postgres schema and one Redis (docs/api.md "Streams"): a
 * stream on node B follows a game played over REST on node A — every state, in version order, to its end — and
 * an events stream on B hears a pairing made on A. Needs Postgres and Redis (TEST_DATABASE_URL / else the
 * standard local ones).
 */
import {
  GameResponseSchema,
  GameStreamLineSchema,
  LegalMovesResponseSchema,
  PairingStatusSchema,
  PlayerCreatedSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import { NdjsonReader } from '../../support/ndjson.js';
import type { ServerProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;

describe.skipIf(SKIP !== null)(
  `streams across nodes on Postgres + Redis${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    let pair: NodePair;
    const readers: NdjsonReader[] = [];
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      const env = { RATE_LIMIT_MAX: '100000', RACE_COUNTDOWN_MS: '60000', STREAM_KEEPALIVE_MS: '500' };
      pair = await startPair({ env, together: true });
      ({ a, b } = pair);
    }, 120_000);
    afterAll(async () => {
      for (const r of readers) r.close();
      await pair?.stop();
    });

    it('a stream on B follows a game played on A, every state in order, and ends with it', async () => {
      const created = await nodeApi(a, 'POST', '/api/games', undefined, { preset: 'classic-draw1' });
      expect(created.status).toBe(201);
      const id = GameResponseSchema.parse(created.json).id;
      const stream = await NdjsonReader.open(`${b.base}/api/stream/games/${id}`);
      readers.push(stream);
      expect(stream.response.status).toBe(200);
      await stream.next((l) => l.type === 'state' && l.version === 0);
      for (let i = 0; i < 5; i++) {
        const legal = LegalMovesResponseSchema.parse(
          (await nodeApi(a, 'GET', `/api/games/${id}/legal-moves`)).json,
        );
        const move = legal.moves[0] as Move;
        const r = await nodeApi(a, 'POST', `/api/games/${id}/moves`, undefined, {
          move,
          version: legal.version,
        });
        expect(r.status).toBe(200);
      }
      expect((await nodeApi(a, 'POST', `/api/games/${id}/resign`)).status).toBe(200);
      await stream.closed();
      const lines = stream.lines.map((l) => GameStreamLineSchema.parse(l));
      expect(lines.map((l) => `${l.type}:${'version' in l ? l.version : ''}`)).toEqual([
        'state:0',
        'state:1',
        'state:2',
        'state:3',
        'state:4',
        'state:5',
        'state:6',
        'end:6',
      ]);
    });

    it('an events stream on B hears a pairing made on A', async () => {
      const mk = async (name: string) => {
        const r = await nodeApi(a, 'POST', '/api/players', undefined, {
          name: `${name}${pair.redisPrefix.slice(5, 9)}`,
        });
        expect(r.status).toBe(201);
        return PlayerCreatedSchema.parse(r.json);
      };
      const p = await mk('strA');
      const q = await mk('strB');
      const events = await NdjsonReader.open(`${b.base}/api/stream/events`, p.token);
      readers.push(events);
      await events.next((l) => l.type === 'open');
      await nodeApi(a, 'POST', '/api/pairing', p.token, { preset: 'classic-draw1' });
      const made = PairingStatusSchema.parse(
        (await nodeApi(a, 'POST', '/api/pairing', q.token, { preset: 'classic-draw1' })).json,
      );
      expect(made.status).toBe('paired');
      if (made.status !== 'paired') return;
      expect(await events.next((l) => l.type === 'paired')).toEqual({ type: 'paired', code: made.code });
    });
  },
);
