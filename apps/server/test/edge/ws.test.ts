/** WebSocket /api/ws against a listening server (ws client), on PGlite and on Postgres. */
import { GameResponseSchema, MAX_FRAME_BYTES, type ServerFrame } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_MAX_PAYLOAD } from '../../src/edge/plugins/websocket.js';
import { WsClient, describeEachDatabase, testApp, wsUrl } from '../support/helpers.js';

type StateFrame = Extract<ServerFrame, { type: 'state' }>;
type ErrorFrame = Extract<ServerFrame, { type: 'error' }>;
const isState = (f: ServerFrame): f is StateFrame => f.type === 'state';
const isError = (f: ServerFrame): f is ErrorFrame => f.type === 'error';

describeEachDatabase('WebSocket /api/ws', (db) => {
  let app: FastifyInstance;
  let url: string;
  const clients: WsClient[] = [];
  beforeAll(async () => {
    app = await testApp(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = wsUrl(app);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  async function client(): Promise<WsClient> {
    const c = await WsClient.connect(url);
    clients.push(c);
    return c;
  }
  async function newGame(dealNumber = 17): Promise<string> {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber } });
    return GameResponseSchema.parse(r.json()).id;
  }
  async function subscribe(c: WsClient, gameId: string, version?: number): Promise<StateFrame> {
    const f = await c.request(
      { type: 'subscribe', gameId, ...(version !== undefined ? { version } : {}) },
      (x) => (isState(x) && x.gameId === gameId) || isError(x),
    );
    if (!isState(f)) throw new Error(`subscribe failed: ${JSON.stringify(f)}`);
    return f;
  }

  it('ping → pong', async () => {
    const c = await client();
    expect(await c.request({ type: 'ping' }, (f) => f.type === 'pong')).toEqual({ type: 'pong' });
  });

  it('subscribe → state frame (cause subscribe) at the current version; unknown game → error not-found', async () => {
    const c = await client();
    const id = await newGame();
    const f = await subscribe(c, id);
    expect(f).toMatchObject({ type: 'state', gameId: id, version: 0, cause: 'subscribe' });
    expect(f.view.stock.count).toBe(24);
    const e = await c.request({ type: 'subscribe', gameId: 'noSuchGame1' }, isError);
    expect(e).toMatchObject({ type: 'error', code: 'not-found', gameId: 'noSuchGame1' });
  });

  it('move → state frame to every subscriber; the sender’s copy carries its requestId', async () => {
    const a = await client();
    const b = await client();
    const id = await newGame();
    await subscribe(a, id);
    await subscribe(b, id);
    const fromB = b.frames.length;
    const mine = await a.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0, requestId: 'r1' },
      (f) => isState(f) && f.version === 1,
    );
    expect(mine).toMatchObject({
      type: 'state',
      gameId: id,
      version: 1,
      cause: 'move',
      move: { type: 'draw' },
      requestId: 'r1',
    });
    const theirs = await b.waitFor((f) => isState(f) && f.version === 1, fromB);
    expect(theirs).toMatchObject({ type: 'state', version: 1, cause: 'move' });
    expect('requestId' in theirs).toBe(false);
    if (isState(theirs) && isState(mine)) expect(theirs.view).toEqual(mine.view);
    const undo = await a.request(
      { type: 'undo', gameId: id, version: 1, requestId: 'r2' },
      (f) => isState(f) && f.version === 2,
    );
    expect(undo).toMatchObject({ cause: 'undo', requestId: 'r2' });
    const resign = await b.request(
      { type: 'resign', gameId: id, version: 2, requestId: 'r3' },
      (f) => isState(f) && f.version === 3,
    );
    expect(resign).toMatchObject({ cause: 'resign', requestId: 'r3' });
    if (isState(resign)) expect(resign.view.status).toBe('resigned');
  });

  it('frames sent back to back, without waiting for answers, are handled one after another in the order sent', async () => {
    const c = await client();
    const id = await newGame();
    const from = c.frames.length;
    // One burst: the subscription, six moves that each need the one before, then a move at a version already
    // taken; the first is handled at once, the rest queue behind it.
    c.send({ type: 'subscribe', gameId: id });
    for (let v = 0; v < 6; v++)
      c.send({ type: 'move', gameId: id, move: { type: 'draw' }, version: v, requestId: `burst${v}` });
    c.send({ type: 'move', gameId: id, move: { type: 'draw' }, version: 3, requestId: 'late' });
    await c.waitFor((f) => isError(f) && f.requestId === 'late', from);
    const answers = c.frames.slice(from);
    expect(
      answers.map((f) => (isState(f) ? `${f.cause}@${f.version}` : isError(f) ? `error:${f.code}` : f.type)),
    ).toEqual([
      'subscribe@0',
      'move@1',
      'move@2',
      'move@3',
      'move@4',
      'move@5',
      'move@6',
      'error:stale-version',
    ]);
    expect(answers.slice(1, 7).map((f) => (isState(f) ? f.requestId : undefined))).toEqual(
      Array.from({ length: 6 }, (_, v) => `burst${v}`),
    );
    expect(answers[7]).toMatchObject({ code: 'stale-version', version: 6, requestId: 'late' });
  });

  it('stale version → error stale-version with the current version and requestId; illegal → illegal-move with reason', async () => {
    const c = await client();
    const id = await newGame();
    await subscribe(c, id);
    await c.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 },
      (f) => isState(f) && f.version === 1,
    );
    const stale = await c.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0, requestId: 's1' },
      isError,
    );
    expect(stale).toMatchObject({
      type: 'error',
      code: 'stale-version',
      version: 1,
      gameId: id,
      requestId: 's1',
    });
    const illegal = await c.request(
      {
        type: 'move',
        gameId: id,
        move: { type: 'move', from: 't1', to: 't1', count: 1 },
        version: 1,
        requestId: 'i1',
      },
      isError,
    );
    expect(illegal).toMatchObject({ code: 'illegal-move', reason: 'same-pile', version: 1, requestId: 'i1' });
    const game = GameResponseSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/games/${id}` })).json(),
    );
    expect(game.version).toBe(1);
  });

  it('move without subscribing → error not-subscribed', async () => {
    const c = await client();
    const id = await newGame();
    const e = await c.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0, requestId: 'n1' },
      isError,
    );
    expect(e).toMatchObject({ code: 'not-subscribed', requestId: 'n1' });
  });

  it('malformed JSON and schema failures → error bad-request; the connection stays open', async () => {
    const c = await client();
    expect(await c.request('{not json', isError)).toMatchObject({ code: 'bad-request' });
    expect(await c.request({ type: 'teleport' }, isError)).toMatchObject({ code: 'bad-request' });
    expect(
      await c.request({ type: 'move', gameId: 'abc', move: { type: 'draw' }, requestId: 'q9' }, isError),
    ).toMatchObject({ code: 'bad-request', requestId: 'q9' });
    expect(await c.request({ type: 'subscribe', gameId: 'bad id!' }, isError)).toMatchObject({
      code: 'bad-request',
    });
    expect(await c.request({ type: 'ping' }, (f) => f.type === 'pong')).toEqual({ type: 'pong' });
  });

  it(`frame over MAX_FRAME_BYTES (${MAX_FRAME_BYTES}) → error frame-too-large, connection open; over the hard limit → closed 1009`, async () => {
    const c = await client();
    const big = JSON.stringify({ type: 'ping', pad: 'x'.repeat(MAX_FRAME_BYTES) });
    expect(await c.request(big, isError)).toMatchObject({ code: 'frame-too-large' });
    expect(await c.request({ type: 'ping' }, (f) => f.type === 'pong')).toEqual({ type: 'pong' });
    const huge = await client();
    huge.send('x'.repeat(WS_MAX_PAYLOAD + 1));
    expect(await huge.closed()).toBe(1009);
  });

  it('REST moves are broadcast to subscribers (cause move, no requestId)', async () => {
    const c = await client();
    const id = await newGame();
    await subscribe(c, id);
    const from = c.frames.length;
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    expect(r.statusCode).toBe(200);
    const f = await c.waitFor((x) => isState(x) && x.version === 1, from);
    expect(f).toMatchObject({ cause: 'move', move: { type: 'draw' } });
    if (isState(f))
      expect(f.view).toEqual({ ...r.json<{ view: object }>().view, elapsedMs: f.view.elapsedMs });
  });

  it('unsubscribe stops the broadcasts', async () => {
    const c = await client();
    const id = await newGame();
    await subscribe(c, id);
    c.send({ type: 'unsubscribe', gameId: id });
    await c.request({ type: 'ping' }, (f) => f.type === 'pong');
    const from = c.frames.length;
    await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    await c.request({ type: 'ping' }, (f) => f.type === 'pong');
    expect(c.frames.slice(from).filter(isState)).toEqual([]);
  });

  it('reconnect with the last version seen → state frame at the current version (resync)', async () => {
    const first = await client();
    const id = await newGame();
    await subscribe(first, id);
    await first.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 0 },
      (f) => isState(f) && f.version === 1,
    );
    first.close();
    await first.closed();
    // Moves made while disconnected.
    for (const version of [1, 2]) {
      await app.inject({
        method: 'POST',
        url: `/api/games/${id}/moves`,
        payload: { move: { type: 'draw' }, version },
      });
    }
    const second = await client();
    const f = await subscribe(second, id, 1);
    expect(f.version).toBe(3);
    expect(f.view.stock.count).toBe(21);
    const next = await second.request(
      { type: 'move', gameId: id, move: { type: 'draw' }, version: 3, requestId: 'after' },
      (x) => isState(x) && x.version === 4,
    );
    expect(next).toMatchObject({ requestId: 'after' });
  });
});

describe('WebSocket frame rate limit', () => {
  it('more frames per second than allowed → error rate-limited', async () => {
    const memory = {
      kind: 'pglite' as const,
      config: () => ({ databaseUrl: undefined, dataDir: 'memory://' }),
      cleanup: async () => {},
    };
    const app = await testApp(memory, { config: { wsFramesPerSecond: 5 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const c = await WsClient.connect(wsUrl(app));
    try {
      for (let i = 0; i < 10; i++) c.send({ type: 'ping' });
      expect(await c.waitFor(isError)).toMatchObject({ code: 'rate-limited' });
    } finally {
      c.close();
      await app.close();
    }
  });
});
