/**
 * Issue 59 item 1 across nodes, as the attacker: a script keeps a socket authenticated on node B with a
 * personal access token (and B has the token cached from a REST call) while the player revokes the token on
 * node A. B closes the socket (4401 after an `unknown-token` frame) as soon as the revocation's bus message
 * arrives, and B's REST answers 401 from then on. Two real server processes on one Postgres schema and one
 * Redis; needs TEST_DATABASE_URL and TEST_REDIS_URL (CI sets both).
 */
import { CreatedAccessTokenSchema, GameResponseSchema, PlayerCreatedSchema } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_REVOKED_CLOSE_CODE } from '../../../src/edge/socket.js';
import { WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;
/** What the issue allows between a revocation on one node and its sockets on another going quiet, ms. */
const WITHIN_MS = 1000;

describe.skipIf(SKIP !== null)(
  `revoked personal tokens on two nodes${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    let pair: NodePair;
    let a: ServerProcess;
    let b: ServerProcess;
    const sockets: WsClient[] = [];

    beforeAll(async () => {
      pair = await startPair({ env: { RATE_LIMIT_MAX: '0', PLAYER_CREATE_RATE_MAX: '0' } });
      ({ a, b } = pair);
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await pair?.stop();
    });

    async function call(
      node: ServerProcess,
      method: string,
      path: string,
      token?: string,
      body?: unknown,
    ): Promise<Response> {
      return fetch(`${node.base}${path}`, {
        method,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    }

    it('revoked on A: B closes its socket and answers 401, though it had the token cached', async () => {
      const created = await call(a, 'POST', '/api/players', undefined, {
        name: `Remote ${pair.redisPrefix.slice(5, 9)}`,
      });
      const p = PlayerCreatedSchema.parse(await created.json());
      const minted = await call(a, 'POST', '/api/tokens', p.token, {
        name: 'bot',
        scopes: ['read', 'game:play'],
      });
      expect(minted.status, await minted.clone().text()).toBe(201);
      const pat = CreatedAccessTokenSchema.parse(await minted.json());
      const g = await call(a, 'POST', '/api/games', p.token, { dealNumber: 23 });
      const id = GameResponseSchema.parse(await g.json()).id;

      // B knows the token: a REST call caches it, a socket holds it and plays.
      expect((await call(b, 'GET', '/api/me', pat.token)).status).toBe(200);
      const onB = await WsClient.connect(b.ws);
      sockets.push(onB);
      await onB.request({ type: 'auth', token: pat.token }, (f) => f.type === 'authed');
      await onB.request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state');
      await onB.request(
        { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 },
        (f) => f.type === 'state' && f.version === 1,
      );

      const r = await call(a, 'DELETE', `/api/tokens/${pat.id}`, p.token);
      expect(r.status, await r.clone().text()).toBe(200);
      expect(await onB.closed(WITHIN_MS)).toBe(TOKEN_REVOKED_CLOSE_CODE);
      expect(onB.frames.some((f) => f.type === 'error' && f.code === 'unknown-token')).toBe(true);
      // The socket closed on B's hearing the revocation, so B's cache has forgotten the token as well.
      const after = await call(b, 'GET', '/api/me', pat.token);
      expect(after.status).toBe(401);
      expect(((await after.json()) as { error: { code: string } }).error.code).toBe('unknown-token');
      expect((await call(b, 'GET', '/api/me', p.token)).status).toBe(200);
    }, 60_000);
  },
);
