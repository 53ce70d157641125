/**
 * Personal access tokens with scopes (issue 59 item 1), as a player who wants more than a token allows: a
 * read-only token tries to move (REST and socket), a personal token tries to mint or list tokens, rename the
 * player, rotate or sign out, and to play a ranked daily without `daily:play`; a revoked or expired token
 * keeps trying. Tokens are stored hashed. The multi-node revocation is multi-node-access-tokens.test.ts.
 */
import { createHash } from 'node:crypto';
import {
  AccessTokenListSchema,
  CreatedAccessTokenSchema,
  ErrorBodySchema,
  GameResponseSchema,
  MeSchema,
  PlayerCreatedSchema,
  type Scope,
  type ServerFrame,
} from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOKEN_REVOKED_CLOSE_CODE } from '../../../src/edge/socket.js';
import { routeScope } from '../../../src/infra/http/api-security.js';
import {
  WsClient,
  describeEachDatabase,
  injectAs,
  newPlayer,
  testApp,
  wsUrl,
} from '../../support/helpers.js';

const DAY = '2025-03-10';
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

function expectError(r: LightMyRequestResponse, status: number, code: string): string {
  expect(r.statusCode, r.body).toBe(status);
  const body = ErrorBodySchema.parse(r.json());
  expect(body.error.code).toBe(code);
  return body.error.message;
}

describe('routeScope', () => {
  it('reads the scope of a declared requirement; public needs none; undeclared needs the account', () => {
    expect(routeScope([])).toBeNull();
    expect(routeScope([{ bearerAuth: ['read'] }])).toBe('read');
    expect(routeScope([{}, { bearerAuth: ['game:play'] }])).toBe('game:play');
    expect(routeScope(undefined)).toBe('account');
    expect(routeScope([{ bearerAuth: [] }])).toBe('account');
    expect(routeScope([{ bearerAuth: ['made-up'] }])).toBe('account');
  });
});

describeEachDatabase('personal access tokens', (db) => {
  let clock = at(DAY);
  let app: FastifyInstance;
  const sockets: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await app.close();
    await db.cleanup();
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token?: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> => injectAs(app, method, url, token, payload);
  const player = (name: string): Promise<Player> => newPlayer(app, name);
  async function mint(
    owner: Player,
    scopes: Scope[],
    extra: { name?: string; expiresAt?: string } = {},
  ): Promise<ReturnType<typeof CreatedAccessTokenSchema.parse>> {
    const r = await call('POST', '/api/tokens', owner.token, {
      name: extra.name ?? 'script',
      scopes,
      ...extra,
    });
    expect(r.statusCode, r.body).toBe(201);
    return CreatedAccessTokenSchema.parse(r.json());
  }
  async function ownGame(token: string): Promise<string> {
    const r = await call('POST', '/api/games', token, { dealNumber: 23 });
    expect(r.statusCode, r.body).toBe(201);
    return GameResponseSchema.parse(r.json()).id;
  }
  async function socket(token: string): Promise<WsClient> {
    const s = await WsClient.connect(wsUrl(app));
    sockets.push(s);
    const authed = await s.request({ type: 'auth', token }, (f) => f.type === 'authed' || f.type === 'error');
    expect(authed.type).toBe('authed');
    return s;
  }
  const isAnswer = (id: string) => (f: ServerFrame) =>
    (f.type === 'state' || f.type === 'error') && 'requestId' in f && f.requestId === id;

  it('POST /api/tokens shows the token once; the table holds only its SHA-256; GET lists it without it', async () => {
    const p = await player('Scripter');
    const made = await mint(p, ['read', 'game:play', 'read'], { name: 'ci bot' });
    expect(made.token.startsWith('kpat_')).toBe(true);
    expect(made).toMatchObject({
      name: 'ci bot',
      scopes: ['read', 'game:play'],
      expiresAt: null,
      lastUsedAt: null,
    });

    const rows = await app.prisma.accessToken.findMany({ where: { playerId: p.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(made.token);
    expect(JSON.stringify(rows)).not.toContain(made.token.slice(5));

    const list = await call('GET', '/api/tokens', p.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).not.toContain(made.token.slice(5));
    const { tokens } = AccessTokenListSchema.parse(list.json());
    expect(tokens).toEqual([
      {
        id: made.id,
        name: 'ci bot',
        scopes: ['read', 'game:play'],
        createdAt: made.createdAt,
        expiresAt: null,
        lastUsedAt: null,
      },
    ]);

    // A use is recorded (off the request's path: wait for the write), and at most once a minute.
    expect((await call('GET', '/api/me', made.token)).statusCode).toBe(200);
    await vi.waitFor(async () => {
      const row = await app.prisma.accessToken.findUniqueOrThrow({ where: { id: made.id } });
      expect(row.lastUsedAt?.getTime()).toBe(clock);
    });
    const before = clock;
    clock += 30_000;
    expect((await call('GET', '/api/me', made.token)).statusCode).toBe(200);
    const row = await app.prisma.accessToken.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.lastUsedAt?.getTime()).toBe(before);
  });

  it('bad bodies → 400 and nothing stored: no scope, an unknown or the account scope, a past or far expiry', async () => {
    const p = await player('Careless');
    const bad = [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['account'] },
      { name: 'x', scopes: ['root'] },
      { name: '', scopes: ['read'] },
      { name: 'x', scopes: ['read'], expiresAt: new Date(clock - 1000).toISOString() },
      { name: 'x', scopes: ['read'], expiresAt: new Date(clock + 400 * 86_400_000).toISOString() },
      { name: 'x', scopes: ['read'], expiresAt: 'tomorrow' },
      { name: 'x', scopes: ['read'], token: 'mine' },
    ];
    for (const payload of bad)
      expectError(await call('POST', '/api/tokens', p.token, payload), 400, 'bad-request');
    expect(await app.prisma.accessToken.count({ where: { playerId: p.id } })).toBe(0);
    expectError(
      await call('POST', '/api/tokens', undefined, { name: 'x', scopes: ['read'] }),
      401,
      'unauthorized',
    );
  });

  it('a token with only `read`: 200 on reads, 403 missing-scope on a move over REST and over the socket', async () => {
    const p = await player('Reader');
    const id = await ownGame(p.token);
    const { token } = await mint(p, ['read']);

    expect((await call('GET', '/api/me', token)).statusCode).toBe(200);
    expect((await call('GET', `/api/games/${id}`, token)).statusCode).toBe(200);
    expect((await call('GET', `/api/games/${id}/legal-moves`, token)).statusCode).toBe(200);
    expect((await call('GET', `/api/players/${p.id}/games`, token)).statusCode).toBe(200);
    expect((await call('GET', '/api/leaderboard', token)).statusCode).toBe(200);

    const move = { move: { type: 'draw' }, version: 0 };
    const msg = expectError(await call('POST', `/api/games/${id}/moves`, token, move), 403, 'missing-scope');
    expect(msg).toContain('game:play');
    expectError(await call('POST', `/api/games/${id}/undo`, token), 403, 'missing-scope');
    expectError(await call('POST', `/api/games/${id}/resign`, token), 403, 'missing-scope');
    expectError(await call('POST', '/api/games', token, { dealNumber: 5 }), 403, 'missing-scope');

    const s = await socket(token);
    const state = await s.request(
      { type: 'subscribe', gameId: id },
      (f) => f.type === 'state' || f.type === 'error',
    );
    expect(state.type).toBe('state');
    const refused = await s.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0, requestId: 'm1' },
      isAnswer('m1'),
    );
    expect(refused).toMatchObject({ type: 'error', code: 'missing-scope' });
    expect(refused.type === 'error' && refused.message).toContain('game:play');
    // Nothing changed.
    expect(GameResponseSchema.parse((await call('GET', `/api/games/${id}`, p.token)).json()).version).toBe(0);

    // With `game:play` the same move is made.
    const play = await mint(p, ['read', 'game:play']);
    const s2 = await socket(play.token);
    await s2.request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state');
    expect(
      await s2.request(
        { type: 'move', gameId: id, move: { type: 'draw' }, version: 0, requestId: 'm2' },
        isAnswer('m2'),
      ),
    ).toMatchObject({ type: 'state', version: 1 });
  });

  it('a personal token cannot mint, list or revoke tokens, rotate, sign out or make a sign-in link', async () => {
    const p = await player('Greedy');
    const all = await mint(p, [
      'read',
      'game:play',
      'daily:play',
      'race:play',
      'arena:play',
      'puzzle:play',
      'profile:write',
      'report:write',
    ]);
    const other = await mint(p, ['read']);
    for (const [method, url, payload] of [
      ['POST', '/api/tokens', { name: 'more', scopes: ['read'] }],
      ['GET', '/api/tokens', undefined],
      ['DELETE', `/api/tokens/${other.id}`, undefined],
      ['POST', '/api/me/token', undefined],
      ['POST', '/api/me/sign-out-everywhere', undefined],
      ['POST', '/api/me/transfer', undefined],
      ['GET', '/api/mod/queue', undefined],
    ] as const) {
      const msg = expectError(await call(method, url, all.token, payload), 403, 'missing-scope');
      expect(msg).toMatch(/sign-in token/);
    }
    // Nothing changed: both tokens still work, no third one.
    expect(await app.prisma.accessToken.count({ where: { playerId: p.id } })).toBe(2);
    expect((await call('GET', '/api/me', other.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/me', p.token)).statusCode).toBe(200);
  });

  it('renaming the player needs `profile:write`', async () => {
    const p = await player('Renamee');
    const reader = await mint(p, ['read', 'game:play']);
    expectError(await call('PATCH', '/api/me', reader.token, { name: 'Hijacked' }), 403, 'missing-scope');
    expect(MeSchema.parse((await call('GET', '/api/me', p.token)).json()).name).toBe('Renamee');
    const writer = await mint(p, ['profile:write']);
    const r = await call('PATCH', '/api/me', writer.token, { name: 'Renamed' });
    expect(r.statusCode, r.body).toBe(200);
  });

  it('a ranked daily needs `daily:play`: to start the attempt, and to move in one the sign-in token started', async () => {
    const p = await player('Dailyist');
    const play = await mint(p, ['read', 'game:play']);
    const url = `/api/daily/${DAY}/classic-draw1/attempt`;
    expect(expectError(await call('POST', url, play.token), 403, 'missing-scope')).toContain('daily:play');

    const started = await call('POST', url, p.token);
    expect(started.statusCode, started.body).toBe(201);
    const game = GameResponseSchema.parse(started.json());
    const move = { move: { type: 'draw' }, version: 0 };
    const msg = expectError(
      await call('POST', `/api/games/${game.id}/moves`, play.token, move),
      403,
      'missing-scope',
    );
    expect(msg).toContain('daily:play');
    const s = await socket(play.token);
    await s.request({ type: 'subscribe', gameId: game.id }, (f) => f.type === 'state');
    expect(
      await s.request(
        { type: 'move', gameId: game.id, move: { type: 'draw' }, version: 0, requestId: 'd1' },
        isAnswer('d1'),
      ),
    ).toMatchObject({ type: 'error', code: 'missing-scope' });

    const daily = await mint(p, ['game:play', 'daily:play']);
    const r = await call('POST', `/api/games/${game.id}/moves`, daily.token, move);
    expect(r.statusCode, r.body).toBe(200);
  });

  it('a revoked token gets 401 at once, and its socket is closed (4401); another player cannot revoke it', async () => {
    const p = await player('Revoker');
    const thief = await player('Thief');
    const id = await ownGame(p.token);
    const made = await mint(p, ['read', 'game:play']);
    const s = await socket(made.token);
    await s.request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state');

    expectError(await call('DELETE', `/api/tokens/${made.id}`, thief.token), 404, 'not-found');
    expect((await call('GET', '/api/me', made.token)).statusCode).toBe(200);

    const r = await call('DELETE', `/api/tokens/${made.id}`, p.token);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ id: made.id, revoked: true });
    expectError(await call('GET', '/api/me', made.token), 401, 'unknown-token');
    expect(await s.closed()).toBe(TOKEN_REVOKED_CLOSE_CODE);
    expect(s.frames.some((f) => f.type === 'error' && f.code === 'unknown-token')).toBe(true);
    expectError(await call('DELETE', `/api/tokens/${made.id}`, p.token), 404, 'not-found');
    expectError(await call('DELETE', '/api/tokens/bad%20id', p.token), 400, 'bad-request');
    // The sign-in token is untouched.
    expect((await call('GET', '/api/me', p.token)).statusCode).toBe(200);
  });

  it('an expired token gets 401 (REST, a new socket) and its open socket is closed at its next frame', async () => {
    const p = await player('Expiring');
    const id = await ownGame(p.token);
    const made = await mint(p, ['read'], { expiresAt: new Date(clock + 3_600_000).toISOString() });
    expect((await call('GET', '/api/me', made.token)).statusCode).toBe(200);
    const s = await socket(made.token);
    clock += 3_600_000;
    expectError(await call('GET', '/api/me', made.token), 401, 'unknown-token');
    s.send({ type: 'subscribe', gameId: id });
    expect(await s.closed()).toBe(TOKEN_REVOKED_CLOSE_CODE);
    const fresh = await WsClient.connect(wsUrl(app));
    sockets.push(fresh);
    expect(
      await fresh.request(
        { type: 'auth', token: made.token },
        (f) => f.type === 'authed' || f.type === 'error',
      ),
    ).toMatchObject({ type: 'error', code: 'unknown-token' });
  });

  it('sign-out everywhere deletes the personal tokens too', async () => {
    const p = await player('Panicker');
    const made = await mint(p, ['read']);
    expect((await call('POST', '/api/me/sign-out-everywhere', p.token)).statusCode).toBe(200);
    expectError(await call('GET', '/api/me', made.token), 401, 'unknown-token');
    expect(await app.prisma.accessToken.count({ where: { playerId: p.id } })).toBe(0);
  });

  it('every documented operation that takes a token names exactly one known scope', async () => {
    const doc = (await call('GET', '/docs/json')).json<{
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    }>();
    const known = [
      'read',
      'game:play',
      'daily:play',
      'race:play',
      'arena:play',
      'puzzle:play',
      'profile:write',
      'report:write',
      'account',
    ];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        expect(op.security, `${method} ${path}`).toBeDefined();
        for (const req of op.security ?? []) {
          const scopes = req.bearerAuth;
          if (scopes === undefined) continue;
          expect(scopes, `${method} ${path}`).toHaveLength(1);
          expect(known, `${method} ${path}`).toContain(scopes[0]);
        }
      }
    // Every client frame's AsyncAPI operation names its scope too.
    const asyncapi = (await call('GET', '/docs/asyncapi.json')).json<{
      operations: Record<string, { action: string; 'x-scope'?: unknown }>;
    }>();
    const received = Object.entries(asyncapi.operations).filter(([, op]) => op.action === 'receive');
    expect(received.length).toBeGreaterThan(5);
    for (const [id, op] of received) expect(op['x-scope'], id).not.toBeUndefined();
    expect(asyncapi.operations.playMove?.['x-scope']).toBe('game:play');
    expect(asyncapi.operations.subscribeGame?.['x-scope']).toBe('read');
    expect(asyncapi.operations.authenticate?.['x-scope']).toBeNull();
    const tokens = doc.paths['/api/tokens'];
    expect(tokens?.post?.security).toEqual([{ bearerAuth: ['account'] }]);
  });
});
