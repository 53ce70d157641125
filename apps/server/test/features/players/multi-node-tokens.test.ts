/**
 * Issue 53 item 6 across nodes, as the attacker: a device keeps a socket authenticated on node B while the
 * player signs out everywhere (or rotates that token) on node A. Within a second B closes the socket (4401
 * after an `unknown-token` frame), so it can no longer move; B forgets its cached copy of the token too, so a
 * new socket on B cannot sign in with it. Two real server processes on one Postgres schema and one Redis;
 * needs TEST_DATABASE_URL and TEST_REDIS_URL (CI sets both).
 */
import {
  GameResponseSchema,
  PlayerCreatedSchema,
  type ServerFrame,
  TransferSchema,
} from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_REVOKED_CLOSE_CODE } from '../../../src/edge/socket.js';
import { WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;
/** What the issue allows between a revocation on one node and its sockets on another going quiet, ms. */
const WITHIN_MS = 1000;

const isState = (f: ServerFrame): boolean => f.type === 'state';

describe.skipIf(SKIP !== null)(`revoked tokens on two nodes${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
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

  async function call(node: ServerProcess, path: string, token?: string, body?: unknown): Promise<Response> {
    return fetch(`${node.base}${path}`, {
      method: 'POST',
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  async function newPlayer(name: string): Promise<{ token: string; second: string }> {
    const r = await call(a, '/api/players', undefined, { name: `${name} ${pair.redisPrefix.slice(5, 9)}` });
    expect(r.status).toBe(201);
    const { token } = PlayerCreatedSchema.parse(await r.json());
    const { code } = TransferSchema.parse(await (await call(a, '/api/me/transfer', token)).json());
    const other = await call(b, '/api/players/transfer', undefined, { code });
    return { token, second: PlayerCreatedSchema.parse(await other.json()).token };
  }
  async function ownGame(token: string): Promise<string> {
    const r = await call(a, '/api/games', token, { dealNumber: 23 });
    expect(r.status, await r.clone().text()).toBe(201);
    return GameResponseSchema.parse(await r.json()).id;
  }
  /** A socket on `node` authenticated with `token` and subscribed to `gameId`. */
  async function playing(node: ServerProcess, token: string, gameId: string): Promise<WsClient> {
    const s = await WsClient.connect(node.ws);
    sockets.push(s);
    await s.request({ type: 'auth', token }, (f) => f.type === 'authed');
    await s.request({ type: 'subscribe', gameId }, isState);
    return s;
  }
  async function signInAgain(node: ServerProcess, token: string): Promise<ServerFrame> {
    const s = await WsClient.connect(node.ws);
    sockets.push(s);
    return s.request({ type: 'auth', token }, (f) => f.type === 'authed' || f.type === 'error');
  }

  it('sign out everywhere on A: the socket on B is closed within a second, so it can no longer move', async () => {
    const p = await newPlayer('Faraway');
    const id = await ownGame(p.token);
    const onB = await playing(b, p.second, id);
    await onB.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 },
      (f) => f.type === 'state' && f.version === 1,
    );

    const r = await call(a, '/api/me/sign-out-everywhere', p.token);
    expect(r.status, await r.clone().text()).toBe(200);
    const revokedAt = Date.now();
    // The attacker's device on B keeps trying to move.
    const tries = setInterval(() => {
      if (onB.closeCode === undefined)
        onB.send({ type: 'move', gameId: id, move: { type: 'draw' }, version: 1, requestId: 'late' });
    }, 50);
    try {
      expect(await onB.closed(WITHIN_MS)).toBe(TOKEN_REVOKED_CLOSE_CODE);
    } finally {
      clearInterval(tries);
    }
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(WITHIN_MS);
    expect(onB.frames.some((f) => f.type === 'error' && f.code === 'unknown-token')).toBe(true);

    // B no longer believes the token (it had it cached from the socket's `auth`).
    expect(await signInAgain(b, p.second)).toMatchObject({ type: 'error', code: 'unknown-token' });
  }, 60_000);

  it('rotation on A closes the socket of that token on B; the new token signs in on B at once', async () => {
    const p = await newPlayer('Rotating');
    const id = await ownGame(p.token);
    const old = await playing(b, p.token, id);
    const kept = await playing(b, p.second, id);

    const r = await call(a, '/api/me/token', p.token);
    expect(r.status, await r.clone().text()).toBe(200);
    const { token } = (await r.json()) as { token: string };

    expect(await old.closed(WITHIN_MS)).toBe(TOKEN_REVOKED_CLOSE_CODE);
    expect(await signInAgain(b, p.token)).toMatchObject({ type: 'error', code: 'unknown-token' });
    expect(await signInAgain(b, token)).toMatchObject({ type: 'authed' });
    await kept.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 },
      (f) => f.type === 'state' && f.version === 1,
    );
    expect(kept.closeCode).toBeUndefined();
  }, 60_000);
});
