/**
 * Issue 53 item 6, as the attacker: a player's device keeps an authenticated socket open, then the player
 * signs out everywhere (or rotates that device's token) over REST. The old socket must not move or resign
 * for the player any more: it is closed at once with TOKEN_REVOKED_CLOSE_CODE after an `unknown-token`
 * error frame, and a move sent on it changes nothing. Sockets of other tokens (rotation) and of other
 * players stay. On PGlite and on Postgres.
 */
import {
  GameResponseSchema,
  PlayerCreatedSchema,
  type ServerFrame,
  TransferSchema,
} from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOKEN_REVOKED_CLOSE_CODE } from '../../../src/edge/socket.js';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;
const isState = (f: ServerFrame): boolean => f.type === 'state';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeEachDatabase('a revoked token’s socket', (db) => {
  let app: FastifyInstance;
  const clients: WsClient[] = [];
  beforeAll(async () => {
    app = await testApp(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  async function create(name: string): Promise<Player> {
    const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
    expect(r.statusCode, r.body).toBe(201);
    return PlayerCreatedSchema.parse(r.json());
  }
  /** A second device of `p`: a token of its own through a sign-in code. */
  async function secondDevice(p: Player): Promise<string> {
    const { code } = TransferSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/me/transfer', headers: bearer(p.token) })).json(),
    );
    const r = await app.inject({ method: 'POST', url: '/api/players/transfer', payload: { code } });
    return PlayerCreatedSchema.parse(r.json()).token;
  }
  async function ownGame(token: string): Promise<string> {
    const r = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: bearer(token),
      payload: { dealNumber: 17 },
    });
    expect(r.statusCode, r.body).toBe(201);
    return GameResponseSchema.parse(r.json()).id;
  }
  /** A socket authenticated with `token` and subscribed to `gameId`. */
  async function playing(token: string, gameId: string): Promise<WsClient> {
    const c = await WsClient.connect(wsUrl(app));
    clients.push(c);
    await c.request({ type: 'auth', token }, (f) => f.type === 'authed');
    await c.request({ type: 'subscribe', gameId }, isState);
    return c;
  }
  async function versionOf(gameId: string): Promise<{ version: number; status: string }> {
    const row = await app.prisma.game.findUniqueOrThrow({
      where: { id: gameId },
      select: { version: true, status: true },
    });
    return { version: row.version, status: row.status };
  }

  it('sign out everywhere: every socket of the player is closed (typed) and its move and resign change nothing', async () => {
    const p = await create('Revoked One');
    const other = await secondDevice(p);
    const id = await ownGame(p.token);
    const first = await playing(p.token, id);
    const second = await playing(other, id);
    await first.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 },
      (f) => f.type === 'state' && f.version === 1,
    );

    const r = await app.inject({
      method: 'POST',
      url: '/api/me/sign-out-everywhere',
      headers: bearer(p.token),
    });
    expect(r.statusCode, r.body).toBe(200);
    // The attacker's devices go on as if nothing happened.
    first.send({ type: 'move', gameId: id, move: { type: 'draw' }, version: 1, requestId: 'after' });
    second.send({ type: 'resign', gameId: id, version: 1, requestId: 'after' });

    for (const c of [first, second]) {
      expect(await c.closed(1000)).toBe(TOKEN_REVOKED_CLOSE_CODE);
      expect(c.frames.some((f) => f.type === 'error' && f.code === 'unknown-token')).toBe(true);
      expect(c.frames.some((f) => 'requestId' in f && f.requestId === 'after' && f.type === 'state')).toBe(
        false,
      );
    }
    expect(await versionOf(id)).toEqual({ version: 1, status: 'playing' });

    // Reconnecting with a revoked token is refused too.
    const again = await WsClient.connect(wsUrl(app));
    clients.push(again);
    expect(
      await again.request({ type: 'auth', token: other }, (f) => f.type === 'authed' || f.type === 'error'),
    ).toMatchObject({ type: 'error', code: 'unknown-token' });
  });

  it('rotation: the rotated token’s socket is closed; the player’s other token and other players play on', async () => {
    const p = await create('Rotated One');
    const kept = await secondDevice(p);
    const bystander = await create('Bystander');
    const id = await ownGame(p.token);
    const theirs = await ownGame(bystander.token);
    const rotated = await playing(p.token, id);
    const stays = await playing(kept, id);
    const unrelated = await playing(bystander.token, theirs);

    const r = await app.inject({ method: 'POST', url: '/api/me/token', headers: bearer(p.token) });
    expect(r.statusCode, r.body).toBe(200);
    rotated.send({ type: 'move', gameId: id, move: { type: 'draw' }, version: 0, requestId: 'after' });

    expect(await rotated.closed(1000)).toBe(TOKEN_REVOKED_CLOSE_CODE);
    expect(await versionOf(id)).toEqual({ version: 0, status: 'playing' });
    await stays.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 },
      (f) => f.type === 'state' && f.version === 1,
    );
    await unrelated.request(
      { type: 'move', gameId: theirs, move: { type: 'draw' }, version: 0 },
      (f) => f.type === 'state' && f.version === 1,
    );
    expect(stays.closeCode).toBeUndefined();
    expect(unrelated.closeCode).toBeUndefined();
  });

  it('a revocation whose bus message was lost (Redis away): the bus coming back closes the socket', async () => {
    const p = await create('Missed One');
    const id = await ownGame(p.token);
    const c = await playing(p.token, id);
    // Another node signed the player out while Redis was away: the rows are gone, no message came.
    await app.prisma.playerToken.deleteMany({ where: { playerId: p.id } });
    await app.tokenRevocations.recheck(); // what every node runs when its bus is back
    expect(await c.closed(1000)).toBe(TOKEN_REVOKED_CLOSE_CODE);
    expect(await versionOf(id)).toEqual({ version: 0, status: 'playing' });
  });
});
