/**
 * Two real server processes on one Postgres schema and one Redis (REDIS_URL): a socket on node B follows a
 * game played over REST on node A — every state frame, in version order — and B, whose copy of the game is
 * then behind, catches up from the database and takes the next move itself, which A's socket hears; and the
 * HTTP and player-creation limits are counted in Redis, so a client gets 429 after the same count whichever
 * node it hits. Needs Postgres and Redis (TEST_DATABASE_URL / else the standard local ones).
 */
import {
  GameResponseSchema,
  LegalMovesResponseSchema,
  PlayerCreatedSchema,
  type ServerFrame,
  StateResponseSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;
const PLAYER_LIMIT = 3;
const HTTP_LIMIT = 150;
/** Node heartbeat in the test: a node silent for 3 of these (1.5 s) is gone. */
const HEARTBEAT_MS = 500;

type Node = ServerProcess;

/** Every node's settings on top of the harness's quiet defaults. */
const ENV = {
  TRUST_PROXY: 'true', // each test speaks as its own client address (X-Forwarded-For)
  RATE_LIMIT_MAX: String(HTTP_LIMIT),
  PLAYER_CREATE_RATE_MAX: String(PLAYER_LIMIT),
  NODE_HEARTBEAT_MS: String(HEARTBEAT_MS),
  DAILY_SOLVE_MS: '300', // the ranked test's dailies are made on first use: keep their deal search short
};

/** A request as client `address` (X-Forwarded-For, believed with TRUST_PROXY). */
async function call(
  node: Node,
  method: string,
  path: string,
  address: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${node.base}${path}`, {
    method,
    headers: {
      'x-forwarded-for': address,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.skipIf(SKIP !== null)(`two nodes on Postgres + Redis${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let pair: NodePair;
  let a: Node;
  let b: Node;

  beforeAll(async () => {
    pair = await startPair({ env: ENV });
    ({ a, b } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.stop();
  });

  it('a socket on B gets every state frame of moves made on A, in order; B catches up and moves on', async () => {
    const me = '10.1.0.1';
    const created = await call(a, 'POST', '/api/games', me, { dealNumber: 21 });
    expect(created.status).toBe(201);
    const { id } = GameResponseSchema.parse(await created.json());

    const onB = await WsClient.connect(b.ws);
    const onA = await WsClient.connect(a.ws);
    try {
      const isState = (f: ServerFrame) => f.type === 'state' && f.gameId === id;
      const first = await onB.request({ type: 'subscribe', gameId: id }, isState);
      expect(first).toMatchObject({ type: 'state', version: 0 });
      await onA.request({ type: 'subscribe', gameId: id }, isState);

      // 30 moves on A: draws (and a recycle when the stock runs out), each at the version it was made on.
      const MOVES = 30;
      let version = 0;
      for (let i = 0; i < MOVES; i++) {
        const legal = LegalMovesResponseSchema.parse(
          await (await call(a, 'GET', `/api/games/${id}/legal-moves`, me)).json(),
        );
        const move = legal.moves.find((m: Move) => m.type === 'draw' || m.type === 'recycle');
        expect(move).toBeDefined();
        const r = await call(a, 'POST', `/api/games/${id}/moves`, me, { move, version });
        expect(r.status, await r.clone().text()).toBe(200);
        version = StateResponseSchema.parse(await r.json()).version;
      }
      await onB.waitFor((f) => isState(f) && f.type === 'state' && f.version === MOVES, 0, 10_000);
      const seen = onB.frames.filter(isState).map((f) => (f.type === 'state' ? f.version : -1));
      expect(seen).toEqual(Array.from({ length: MOVES + 1 }, (_, v) => v));

      // B's copy was behind: it re-reads the game and takes the next move at the database's version; A's
      // socket hears it.
      const legal = LegalMovesResponseSchema.parse(
        await (await call(b, 'GET', `/api/games/${id}/legal-moves`, me)).json(),
      );
      expect(legal.version).toBe(MOVES);
      const move = legal.moves.find((m: Move) => m.type === 'draw' || m.type === 'recycle');
      const r = await call(b, 'POST', `/api/games/${id}/moves`, me, { move, version: MOVES });
      expect(r.status, await r.clone().text()).toBe(200);
      await onA.waitFor((f) => isState(f) && f.type === 'state' && f.version === MOVES + 1, 0, 10_000);
    } finally {
      onA.close();
      onB.close();
    }
  }, 120_000);

  it('a node whose copy of a game nobody follows takes a move at the version another node committed', async () => {
    const me = '10.1.0.2';
    const created = await call(a, 'POST', '/api/games', me, { dealNumber: 22 });
    const { id } = GameResponseSchema.parse(await created.json());
    // B reads the game (its copy: version 0, no socket of B follows it), then A commits versions 1 and 2.
    expect((await call(b, 'GET', `/api/games/${id}`, me)).status).toBe(200);
    let version = 0;
    for (const node of [a, a, b, a, b, b]) {
      const legal = LegalMovesResponseSchema.parse(
        await (await call(node, 'GET', `/api/games/${id}/legal-moves`, me)).json(),
      );
      const move = legal.moves.find((m: Move) => m.type === 'draw' || m.type === 'recycle');
      const r = await call(node, 'POST', `/api/games/${id}/moves`, me, { move, version });
      expect(r.status, await r.clone().text()).toBe(200);
      version = StateResponseSchema.parse(await r.json()).version;
    }
    expect(version).toBe(6);
  }, 60_000);

  it('the player-creation limit holds across nodes: the same client gets 429 after the same count', async () => {
    const client = '10.2.0.1';
    const statuses: number[] = [];
    for (let i = 0; i <= PLAYER_LIMIT; i++) {
      const node = i % 2 === 0 ? a : b;
      const r = await call(node, 'POST', '/api/players', client, {
        name: `Multi ${pair.redisPrefix.slice(5, 9)} ${i}`,
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([...Array<number>(PLAYER_LIMIT).fill(201), 429]);
    // Another client is not affected.
    expect(
      (await call(b, 'POST', '/api/players', '10.2.0.2', { name: `Other ${pair.redisPrefix.slice(5, 9)}` }))
        .status,
    ).toBe(201);
  }, 60_000);

  it('the HTTP limit holds across nodes', async () => {
    const client = '10.3.0.1';
    const statuses: number[] = [];
    for (let i = 0; i <= HTTP_LIMIT; i++)
      statuses.push((await call(i % 2 === 0 ? a : b, 'GET', '/api/games/nope-nope-nope', client)).status);
    expect(statuses.slice(0, HTTP_LIMIT).every((s) => s === 404)).toBe(true);
    expect(statuses[HTTP_LIMIT]).toBe(429);
  }, 60_000);

  it('a leaderboard watcher on B hears a ranked attempt that ended on A', async () => {
    const client = '10.5.0.1';
    const p = await call(a, 'POST', '/api/players', client, {
      name: `Ranked ${pair.redisPrefix.slice(5, 9)}`,
    });
    expect(p.status).toBe(201);
    const player = PlayerCreatedSchema.parse(await p.json());
    const asPlayer = (method: string, path: string, body?: unknown) =>
      fetch(`${a.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${player.token}`,
          'x-forwarded-for': client,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const today = new Date().toISOString().slice(0, 10);
    const attempt = await asPlayer('POST', `/api/daily/${today}/classic-draw1/attempt`);
    expect(attempt.status, await attempt.clone().text()).toBe(201);
    const game = GameResponseSchema.parse(await attempt.json());

    const watcher = await WsClient.connect(b.ws);
    try {
      const first = await watcher.request(
        { type: 'watch-leaderboard', date: today, preset: 'classic-draw1' },
        (f) => f.type === 'leaderboard' || f.type === 'error',
      );
      expect(first).toMatchObject({ type: 'leaderboard', date: today });
      const before = watcher.frames.length;
      const resigned = await asPlayer('POST', `/api/games/${game.id}/resign`, {});
      expect(resigned.status, await resigned.clone().text()).toBe(200);
      const heard = await watcher.waitFor((f) => f.type === 'leaderboard', before, 10_000);
      expect(heard).toMatchObject({ type: 'leaderboard', date: today, preset: 'classic-draw1' });
    } finally {
      watcher.close();
    }
  }, 90_000);
});
