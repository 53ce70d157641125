/**
 * The ranked attempt opened over the socket (`daily-attempt`, features/daily/channel.ts): the same one attempt
 * as `POST /api/daily/:date/:preset/attempt`, answered with `daily-opened` and followed at once, on both
 * databases. Written as a player who wants a second look at the deal: a second frame, a second socket, the
 * REST route at the same instant, a token without `daily:play`, no `auth` at all. Each gets a typed error
 * frame, and exactly one game and one claim exist per player.
 */
import {
  CreatedAccessTokenSchema,
  ErrorBodySchema,
  GameResponseSchema,
  PlayerCreatedSchema,
  type ServerFrame,
} from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  WsClient,
  describeEachDatabase,
  injectAs,
  newPlayer,
  leakedCards,
  testApp,
  wsUrl,
} from '../../support/helpers.js';

const DAY = '2025-03-10';
const NOW = Date.parse(`${DAY}T12:00:00.000Z`);

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

describeEachDatabase('a ranked attempt opened over the socket', (db) => {
  let app: FastifyInstance;
  const sockets: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => NOW,
      config: { dailySecret: 'test-daily-secret-0123456789abcdef' },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    // Today's dailies are made on first use.
    expect((await call('GET', '/api/daily')).statusCode).toBe(200);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await app.close();
    await db.cleanup();
  });

  const call = (
    method: 'GET' | 'POST',
    url: string,
    token?: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> => injectAs(app, method, url, token, payload);
  const player = (name: string): Promise<Player> => newPlayer(app, name);
  async function socket(token?: string): Promise<WsClient> {
    const s = await WsClient.connect(wsUrl(app));
    sockets.push(s);
    if (token !== undefined) {
      const authed = await s.request(
        { type: 'auth', token },
        (f) => f.type === 'authed' || f.type === 'error',
      );
      expect(authed.type).toBe('authed');
    }
    return s;
  }
  const answerTo = (id: string) => (f: ServerFrame) =>
    (f.type === 'daily-opened' || f.type === 'error' || f.type === 'state') &&
    'requestId' in f &&
    f.requestId === id;
  const attempt = (requestId: string, preset = 'classic-draw1', date = DAY) => ({
    type: 'daily-attempt',
    date,
    preset,
    requestId,
  });
  async function counts(playerId: string): Promise<{ games: number; claims: number }> {
    return {
      games: await app.prisma.game.count({ where: { playerId, ranked: true } }),
      claims: await app.prisma.dailyAttempt.count({ where: { playerId } }),
    };
  }

  it('opens the one attempt: daily-opened with the game, followed at once (a move needs no subscribe)', async () => {
    const p = await player('Socket Opener');
    const s = await socket(p.token);
    const from = s.frames.length;
    const opened = await s.request(attempt('o1'), answerTo('o1'));
    if (opened.type !== 'daily-opened') throw new Error(JSON.stringify(opened));
    expect(opened.game).toMatchObject({
      version: 0,
      kind: 'daily-ranked',
      daily: { date: DAY, preset: 'classic-draw1' },
    });
    expect(opened.game.view.options).toMatchObject({ undo: false, hints: false });
    // No `state` frame before it: the answer is the game's first frame.
    expect(s.frames.slice(from).map((f) => f.type)).toEqual(['daily-opened']);
    // The face-down cards are in no frame: only the seven turned up show.
    const faceUp = opened.game.view.tableau.flatMap((t) => t.faceUp);
    expect(faceUp).toHaveLength(7);
    const stored = await app.prisma.game.findUniqueOrThrow({ where: { id: opened.game.id } });
    const hidden = stored.deal.split(' ').filter((c) => !(faceUp as string[]).includes(c));
    expect(hidden).toHaveLength(45);
    expect(leakedCards(s.texts.join('\n'), hidden)).toEqual([]);

    const moved = await s.request(
      { type: 'move', gameId: opened.game.id, move: { type: 'draw' }, version: 0, requestId: 'm1' },
      answerTo('m1'),
    );
    expect(moved).toMatchObject({ type: 'state', gameId: opened.game.id, version: 1, cause: 'move' });
    // The same game over REST, as its owner.
    const read = await call('GET', `/api/games/${opened.game.id}`, p.token);
    expect(GameResponseSchema.parse(read.json()).version).toBe(1);
    expect(await counts(p.id)).toEqual({ games: 1, claims: 1 });

    // A second frame is a conflict, and changes nothing.
    const again = await s.request(attempt('o2'), answerTo('o2'));
    expect(again).toMatchObject({ type: 'error', code: 'conflict', requestId: 'o2' });
    expect(await counts(p.id)).toEqual({ games: 1, claims: 1 });
  });

  it('frames over two sockets and REST requests at the same instant: exactly one attempt', async () => {
    const p = await player('Double Clicker');
    const [s1, s2] = [await socket(p.token), await socket(p.token)];
    const frames = Array.from({ length: 10 }, (_, i) =>
      (i % 2 === 0 ? s1 : s2).request(attempt(`c${i}`, 'classic-draw3'), answerTo(`c${i}`)),
    );
    const rests = Array.from({ length: 10 }, () =>
      call('POST', `/api/daily/${DAY}/classic-draw3/attempt`, p.token),
    );
    const [answers, replies] = await Promise.all([Promise.all(frames), Promise.all(rests)]);
    const opened = answers.filter((f) => f.type === 'daily-opened');
    const created = replies.filter((r) => r.statusCode === 201);
    expect(opened.length + created.length).toBe(1);
    for (const f of answers)
      if (f.type !== 'daily-opened') expect(f).toMatchObject({ type: 'error', code: 'conflict' });
    for (const r of replies)
      if (r.statusCode !== 201) {
        expect(r.statusCode).toBe(409);
        expect(ErrorBodySchema.parse(r.json()).error.code).toBe('conflict');
      }
    expect(await counts(p.id)).toEqual({ games: 1, claims: 1 });
  });

  it('refused without auth, without the daily:play scope, and for a day that is not today', async () => {
    const p = await player('Prober');
    const anonymous = await socket();
    expect(await anonymous.request(attempt('a1'), answerTo('a1'))).toMatchObject({
      type: 'error',
      code: 'unauthorized',
    });

    const minted = await call('POST', '/api/tokens', p.token, {
      name: 'script',
      scopes: ['read', 'game:play'],
    });
    expect(minted.statusCode, minted.body).toBe(201);
    const scoped = await socket(CreatedAccessTokenSchema.parse(minted.json()).token);
    const refused = await scoped.request(attempt('a2'), answerTo('a2'));
    expect(refused).toMatchObject({ type: 'error', code: 'missing-scope' });
    expect(refused.type === 'error' && refused.message).toContain('daily:play');

    const own = await socket(p.token);
    // Yesterday was never published; tomorrow is stored but not open.
    for (const [i, date] of ['2025-03-09', '2025-03-11'].entries()) {
      const f = await own.request(attempt(`d${i}`, 'classic-draw1', date), answerTo(`d${i}`));
      expect(f).toMatchObject({ type: 'error', code: 'not-found', requestId: `d${i}` });
    }
    // A frame that does not parse changes nothing either.
    const bad = await own.request(
      { type: 'daily-attempt', date: 'today', preset: 'classic-draw1', requestId: 'b1' },
      (f) => f.type === 'error',
    );
    expect(bad).toMatchObject({ type: 'error', code: 'bad-request' });
    expect(await counts(p.id)).toEqual({ games: 0, claims: 0 });
  });

  it('a socket that closes after the opening: the attempt stands and resumes on another socket', async () => {
    const p = await player('Leaver');
    const s = await socket(p.token);
    const opened = await s.request(attempt('l1'), answerTo('l1'));
    if (opened.type !== 'daily-opened') throw new Error(JSON.stringify(opened));
    s.close();
    await s.closed();
    const other = await socket(p.token);
    const state = await other.request(
      { type: 'subscribe', gameId: opened.game.id },
      (f) => f.type === 'state',
    );
    expect(state).toMatchObject({ type: 'state', gameId: opened.game.id, version: 0, cause: 'subscribe' });
    expect(await counts(p.id)).toEqual({ games: 1, claims: 1 });
  });
});
