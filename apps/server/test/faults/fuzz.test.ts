/**
 * Fault suite: random and adversarial input. FUZZ_RUNS (default 10,000, split between HTTP and WebSocket)
 * requests and frames built by fast-check — valid bodies mutated (wrong types, huge and negative numbers,
 * unicode, deep nesting, prototype keys, extra and missing fields), random JSON, truncated JSON, random ids
 * in paths — against a real server with a game, a player and a race. Asserted: no response is 5xx, every
 * refusal is a typed error body (or error frame), the server stays up, and no refused request changes the
 * game it targets (its version is read before and after each one).
 */
import fc from 'fast-check';
import { ErrorBodySchema, ServerFrameSchema } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pgliteDatabase, testApp, WsClient, wsUrl } from '../support/helpers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const HTTP_RUNS = Math.ceil(RUNS * 0.7);
const WS_RUNS = RUNS - HTTP_RUNS;

/** A JSON value that tries the usual tricks. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    -1,
    0,
    2 ** 32,
    1.5,
    '',
    '𝕂♠️\u0000\u202e',
    'x'.repeat(5000),
    null,
    true,
    [],
    {},
    JSON.parse('{"__proto__":{"polluted":1}}') as unknown,
    { constructor: { prototype: { polluted: 1 } } },
  ),
  fc.integer({ min: 1, max: 60 }).map((d) => {
    let v: unknown = 1;
    for (let i = 0; i < d; i++) v = { a: [v] };
    return v;
  }),
);

/** A body: a plausible one with a field made nasty, a random object, or random JSON. */
function body(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc
      .record({ key: fc.constantFrom(...(keys.length ? keys : ['x'])), value: nasty })
      .map(({ key, value }) => ({
        ...valid,
        [key]: value,
      })),
    fc
      .record({ key: fc.string({ maxLength: 12 }), value: nasty })
      .map(({ key, value }) => ({ ...valid, [key]: value })),
    fc.dictionary(fc.string({ maxLength: 8 }), nasty, { maxKeys: 5 }),
    nasty,
  );
}

describe('fault: random and adversarial input', () => {
  let app: FastifyInstance;
  let gameId: string;
  let token: string;
  let raceCode: string;

  beforeAll(async () => {
    app = await testApp(pgliteDatabase(), { config: { logLevel: 'fatal', solveMaxMs: 50, hintTimeMs: 50 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    gameId = (await app.inject({ method: 'POST', url: '/api/games', payload: {} })).json<{ id: string }>().id;
    token = (await app.inject({ method: 'POST', url: '/api/players', payload: { name: 'Fuzzer' } })).json<{
      token: string;
    }>().token;
    raceCode = (
      await app.inject({
        method: 'POST',
        url: '/api/races',
        payload: {},
        headers: { authorization: `Bearer ${token}` },
      })
    ).json<{ code: string }>().code;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it(`${HTTP_RUNS} HTTP requests: no 5xx, every refusal a typed error that changes nothing`, async () => {
    const ids = () =>
      fc.oneof(fc.constant('GAME'), fc.string({ maxLength: 70 }), fc.constantFrom('..', '%00', 'a/b', '💥'));
    const routes: [string, string, Record<string, unknown>][] = [
      ['POST', '/api/games', { preset: 'classic-draw1', dealNumber: 617 }],
      ['GET', '/api/games/:id', {}],
      [
        'POST',
        '/api/games/:id/moves',
        { move: { type: 'move', from: 't1', to: 'fH', count: 1 }, version: 99 },
      ],
      ['POST', '/api/games/:id/undo', { version: 99 }],
      ['POST', '/api/games/:id/resign', { version: 99 }],
      ['GET', '/api/games/:id/legal-moves', {}],
      ['GET', '/api/games/:id/deal', {}],
      ['GET', '/api/games/:id/replay', {}],
      ['GET', '/api/games/:id/hint', {}],
      ['POST', '/api/solve', { dealNumber: 5, timeLimitMs: 10 }],
      ['POST', '/api/players', { name: 'Some One' }],
      ['PATCH', '/api/me', { name: 'Other' }],
      ['POST', '/api/players/transfer', { code: 'ABC' }],
      ['GET', '/api/players/:id', {}],
      ['GET', '/api/daily/:id/classic-draw1/leaderboard?offset=-1&limit=99999', {}],
      ['POST', '/api/daily/:id/classic-draw1/attempt', {}],
      ['POST', '/api/races', { preset: 'classic-draw1', maxPlayers: 2 }],
      ['POST', '/api/races/:id/join', {}],
      ['POST', '/api/races/:id/ready', { ready: true }],
      ['GET', '/api/races/:id/results', {}],
    ];
    let count = 0;
    let accepted = 0;
    const gameVersion = async () =>
      (await app.inject({ method: 'GET', url: `/api/games/${gameId}` })).json<{ version: number }>().version;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        ids(),
        fc.boolean(),
        fc.oneof(
          fc.constant<'json' | 'truncated' | 'text'>('json'),
          fc.constant<'json' | 'truncated' | 'text'>('truncated'),
          fc.constant<'json' | 'truncated' | 'text'>('text'),
        ),
        fc.integer({ min: 0, max: 1_000_000 }),
        async ([method, path, valid], id, authed, encoding, seed) => {
          const realId = id === 'GAME' ? gameId : id;
          const url = path.replace(
            ':id',
            path.includes('races') && seed % 3 === 0 ? raceCode : encodeURIComponent(realId),
          );
          const sample = fc.sample(body(valid), { numRuns: 1, seed })[0];
          let payload = JSON.stringify(sample) ?? 'null';
          if (encoding === 'truncated')
            payload = payload.slice(0, Math.max(1, payload.length - 1 - (seed % 5)));
          const targetsGame = method === 'POST' && url.includes(gameId);
          const versionBefore = targetsGame ? await gameVersion() : -1;
          const r = await app.inject({
            method: method as 'GET',
            url,
            headers: {
              'content-type': encoding === 'text' ? 'text/plain' : 'application/json',
              ...(authed ? { authorization: `Bearer ${token}` } : {}),
            },
            ...(method === 'GET' ? {} : { payload }),
          });
          count++;
          statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
          expect(
            r.statusCode,
            `${method} ${url} ${payload.slice(0, 200)} → ${r.body.slice(0, 300)}`,
          ).toBeLessThan(500);
          if (r.statusCode >= 400) expect(ErrorBodySchema.safeParse(r.json()).success, r.body).toBe(true);
          // A refusal changes nothing; an accepted request (a resign without a version, say) may.
          if (targetsGame) {
            if (r.statusCode >= 400) expect(await gameVersion()).toBe(versionBefore);
            else accepted++;
          }
        },
      ),
      { numRuns: HTTP_RUNS },
    );
    console.log({ httpRequests: count, acceptedOnTheGame: accepted, statuses: Object.fromEntries(statuses) });
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 600_000);

  it(`${WS_RUNS} WebSocket frames: every answer a valid frame, errors typed, the server up`, async () => {
    const ws = await WsClient.connect(wsUrl(app));
    const frame = fc.oneof(
      body({ type: 'move', gameId, move: { type: 'draw' }, version: 12345 }),
      body({ type: 'subscribe', gameId: 'nope' }),
      body({ type: 'auth', token: 'nope' }),
      body({ type: 'race-subscribe', code: 'ABCDEFGHJK' }),
      body({ type: 'watch-leaderboard', date: '2026-11-22', preset: 'classic-draw1' }),
      fc.string({ maxLength: 300 }),
    );
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(frame, async (f) => {
        const text = typeof f === 'string' ? f : (JSON.stringify(f) ?? 'null');
        ws.send(text.length > 0 ? text : ' ');
        sent++;
        // Keep well under the frame credits: pause a little every 100 frames.
        if (sent % 100 === 0) await new Promise((r) => setTimeout(r, 600));
      }),
      { numRuns: WS_RUNS },
    );
    const pong = await ws.request({ type: 'ping' }, (x) => x.type === 'pong');
    expect(pong.type).toBe('pong');
    // Every frame the server sent parsed as a ServerFrame (WsClient validates each one); errors carry a code.
    for (const t of ws.texts) expect(ServerFrameSchema.safeParse(JSON.parse(t)).success).toBe(true);
    const errors = ws.frames.filter((x) => x.type === 'error');
    console.log({ framesSent: sent, answers: ws.frames.length, errorFrames: errors.length });
    expect(errors.every((e) => e.type === 'error' && e.code !== 'internal')).toBe(true);
    expect(ws.closeCode).toBeUndefined();
    ws.close();
  }, 600_000);
});
