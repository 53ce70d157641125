/**
 * Issue 53 item 9(a): an invite-only arena is hidden by id from whoever is not in it. The attacker knows
 * (or guesses) the id of someone's invite-only arena and asks for it anonymously, with a token of their own,
 * on the socket, and tries to join or pause without the code: every answer is the one a missing arena
 * gets (404 `not-found`, the same message), so the arena's standings stay unread and its existence does
 * not leak. Its creator and players (who joined with the code) still see it.
 */
import { ArenaSchema, ErrorBodySchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newRaceCode } from '../../../src/features/races/ranking.js';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../../support/helpers.js';
import { type TestPlayer, call, newPlayer } from '../../support/race-helpers.js';

describeEachDatabase('invite-only arenas are hidden from non-members', (db) => {
  let app: FastifyInstance;
  let owner: TestPlayer;
  let invited: TestPlayer;
  let stranger: TestPlayer;
  let id: string;
  let code: string;
  const sockets: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    owner = await newPlayer(app, 'own');
    invited = await newPlayer(app, 'inv');
    stranger = await newPlayer(app, 'str');
    const r = await call(app, 'POST', '/api/arenas', {
      as: owner,
      payload: { preset: 'classic-draw1', durationMs: 10 * 60_000, inviteOnly: true },
    });
    expect(r.statusCode, r.body).toBe(201);
    const arena = ArenaSchema.parse(r.json());
    id = arena.id;
    code = arena.me?.inviteCode ?? '';
    expect(code).not.toBe('');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await app.close();
    await db.cleanup();
  });

  /** The answer `r` gave, with the arena's id written as `<id>` (to compare with a missing arena's). */
  function shape(r: { statusCode: number; body: string }, arenaId: string) {
    const body = ErrorBodySchema.parse(JSON.parse(r.body));
    return {
      status: r.statusCode,
      code: body.error.code,
      message: body.error.message.replace(arenaId, '<id>'),
    };
  }

  /** The answers to `method url` (with `:id` replaced) for the hidden arena and a missing one. */
  async function both(method: 'GET' | 'POST', path: string, as?: TestPlayer, payload?: object) {
    const missing = newRaceCode();
    const opts = { ...(as ? { as } : {}), ...(payload ? { payload } : {}) };
    const hidden = await call(app, method, path.replace(':id', id), opts);
    const absent = await call(app, method, path.replace(':id', missing), opts);
    return { hidden: shape(hidden, id), absent: shape(absent, missing) };
  }

  it('GET /api/arenas/:id: anonymous and a stranger get the answer of a missing arena', async () => {
    for (const as of [undefined, stranger]) {
      const { hidden, absent } = await both('GET', '/api/arenas/:id', as);
      expect(hidden).toEqual(absent);
      expect(hidden.status).toBe(404);
    }
  });

  it('join without the code or with a wrong one, and leave: the answer of a missing arena', async () => {
    for (const payload of [{}, { inviteCode: 'WRONGCODE2' }]) {
      const { hidden, absent } = await both('POST', '/api/arenas/:id/join', stranger, payload);
      expect(hidden).toEqual(absent);
      expect(hidden.status).toBe(404);
    }
    const { hidden, absent } = await both('POST', '/api/arenas/:id/leave', stranger);
    expect(hidden).toEqual(absent);
    expect(await app.prisma.arenaPlayer.count({ where: { arenaId: id, playerId: stranger.id } })).toBe(0);
  });

  it('arena-subscribe on the socket: the error frame of a missing arena, and no arena frame', async () => {
    for (const token of [null, stranger.token]) {
      const c = await WsClient.connect(wsUrl(app));
      sockets.push(c);
      if (token !== null) await c.request({ type: 'auth', token }, (f) => f.type === 'authed');
      const missing = newRaceCode();
      const hidden = await c.request({ type: 'arena-subscribe', id }, (f) => f.type === 'error');
      const absent = await c.request({ type: 'arena-subscribe', id: missing }, (f) => f.type === 'error');
      const strip = (f: object, arenaId: string) =>
        JSON.parse(JSON.stringify(f).replace(arenaId, '<id>')) as object;
      expect(strip(hidden, id)).toEqual(strip(absent, missing));
      expect(hidden).toMatchObject({ code: 'not-found' });
      expect(c.frames.some((f) => f.type === 'arena')).toBe(false);
    }
  });

  it('the creator sees it; a player who joined with the code sees it, standings and all', async () => {
    const mine = await call(app, 'GET', `/api/arenas/${id}`, { as: owner });
    expect(mine.statusCode, mine.body).toBe(200);
    const joined = await call(app, 'POST', `/api/arenas/${id}/join`, {
      as: invited,
      payload: { inviteCode: code },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const seen = ArenaSchema.parse((await call(app, 'GET', `/api/arenas/${id}`, { as: invited })).json());
    expect(seen.standings.map((s) => s.playerId)).toContain(invited.id);
    // Pausing keeps a player a member.
    expect((await call(app, 'POST', `/api/arenas/${id}/leave`, { as: invited })).statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/arenas/${id}`, { as: invited })).statusCode).toBe(200);
    // The stranger still gets nothing.
    expect((await call(app, 'GET', `/api/arenas/${id}`, { as: stranger })).statusCode).toBe(404);
  });

  it('an open arena stays readable by anyone', async () => {
    const r = await call(app, 'POST', '/api/arenas', {
      as: owner,
      payload: { preset: 'classic-draw1', durationMs: 10 * 60_000 },
    });
    const open = ArenaSchema.parse(r.json());
    expect((await call(app, 'GET', `/api/arenas/${open.id}`)).statusCode).toBe(200);
  });
});
