/**
 * Midnight on two nodes: many players open today's ranked attempt at once, each asking both nodes several
 * times over REST and with a `daily-attempt` frame on a socket to each node (a double click, a retry through
 * the load balancer, a second tab). The openings are batched into shared statements
 * (features/daily/repository.ts `dailyRankedRows.insertBatch`): whatever shares a statement, every player
 * gets exactly one game, one claim and one answer that opened it (201 or `daily-opened`), every other
 * request a `conflict`, and no request another player's game. Needs Postgres and Redis
 * (test/support/services.ts).
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  PlayerCreatedSchema,
  type ServerFrame,
} from '@klondike/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;
const PLAYERS = 40;
/** Requests each player sends at once, alternating between the two nodes. */
const TRIES = 4;

describe.skipIf(SKIP !== null)(`midnight openings on two nodes${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  const env = { RATE_LIMIT_MAX: '0', PLAYER_CREATE_RATE_MAX: '1000', DAILY_SOLVE_MS: '300' };
  let pair: NodePair;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    pair = await startPair({ env });
    ({ a, b } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.stop();
  });

  it('every player opens exactly one ranked attempt, whichever node and however many tries', async () => {
    const players = await Promise.all(
      Array.from({ length: PLAYERS }, async (_, i) => {
        const r = await nodeApi(i % 2 === 0 ? a : b, 'POST', '/api/players', undefined, {
          name: `Midnight ${i}`,
        });
        expect(r.status).toBe(201);
        return PlayerCreatedSchema.parse(r.json);
      }),
    );
    // Today's dailies are made on first use; both nodes have them ready before the instant.
    for (const n of [a, b]) expect((await nodeApi(n, 'GET', '/api/daily')).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const path = `/api/daily/${today}/classic-draw1/attempt`;

    // Each player's socket on each node, authenticated before the instant.
    const sockets = await Promise.all(
      players.flatMap((p) =>
        [a, b].map(async (n) => {
          const s = await WsClient.connect(n.ws);
          const authed = await s.request({ type: 'auth', token: p.token }, (f) => f.type !== 'pong');
          expect(authed.type).toBe('authed');
          return s;
        }),
      ),
    );
    const answerTo = (id: string) => (f: ServerFrame) =>
      (f.type === 'daily-opened' || f.type === 'error') && f.requestId === id;

    try {
      const [rest, frames] = await Promise.all([
        Promise.all(
          players.flatMap((p, i) =>
            Array.from({ length: TRIES }, (_, t) =>
              nodeApi((i + t) % 2 === 0 ? a : b, 'POST', path, p.token).then((r) => ({ player: p.id, ...r })),
            ),
          ),
        ),
        Promise.all(
          players.flatMap((p, i) =>
            [0, 1].map(async (k) => {
              const socket = sockets[2 * i + k] as WsClient;
              const requestId = `${i}-${k}`;
              const frame = { type: 'daily-attempt', date: today, preset: 'classic-draw1', requestId };
              return { player: p.id, frame: await socket.request(frame, answerTo(requestId)) };
            }),
          ),
        ),
      ]);

      const gameOf = new Map<string, string>();
      for (const r of rest) {
        if (r.status === 201) {
          expect(gameOf.has(r.player), `two openings for ${r.player}`).toBe(false);
          gameOf.set(r.player, GameResponseSchema.parse(r.json).id);
        } else {
          expect(r.status).toBe(409);
          expect(ErrorBodySchema.parse(r.json).error.code).toBe('conflict');
        }
      }
      for (const { player, frame } of frames) {
        if (frame.type === 'daily-opened') {
          expect(gameOf.has(player), `two openings for ${player}`).toBe(false);
          gameOf.set(player, frame.game.id);
        } else expect(frame).toMatchObject({ type: 'error', code: 'conflict' });
      }
      expect(gameOf.size).toBe(PLAYERS);
      await checkStored(gameOf);
      await checkReadable(players, gameOf);
    } finally {
      for (const s of sockets) s.close();
    }
  }, 120_000);

  /** Exactly one ranked game and one claim a player, the one answered to them. */
  async function checkStored(gameOf: ReadonlyMap<string, string>): Promise<void> {
    const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    try {
      const schema = new URL(pair.databaseUrl).searchParams.get('schema') ?? 'public';
      await db.query(`SET search_path TO "${schema}"`);
      const games = await db.query<{ id: string; playerId: string }>(
        `SELECT id, "playerId" FROM "Game" WHERE ranked`,
      );
      const claims = await db.query<{ gameId: string; playerId: string }>(
        `SELECT "gameId", "playerId" FROM "DailyAttempt"`,
      );
      expect(games.rows).toHaveLength(PLAYERS);
      expect(claims.rows).toHaveLength(PLAYERS);
      // Each player's one game is the one answered to them, and its claim names it.
      for (const g of games.rows) expect(gameOf.get(g.playerId)).toBe(g.id);
      for (const c of claims.rows) expect(gameOf.get(c.playerId)).toBe(c.gameId);
    } finally {
      await db.end();
    }
  }

  /** The game answered is the player's own, and readable from either node. */
  async function checkReadable(
    players: readonly { id: string; token: string }[],
    gameOf: ReadonlyMap<string, string>,
  ): Promise<void> {
    const [first] = players;
    const firstGame = first === undefined ? undefined : gameOf.get(first.id);
    if (first === undefined || firstGame === undefined) throw new Error('no player');
    for (const n of [a, b]) {
      const read = await nodeApi(n, 'GET', `/api/games/${firstGame}`, first.token);
      expect(read.status).toBe(200);
      expect(GameResponseSchema.parse(read.json).version).toBe(0);
    }
  }
});
