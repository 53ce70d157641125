/**
 * The NDJSON streams (docs/api.md "Streams") on both databases, over a real listening server: a game's stream
 * delivers every action in order and ends with the game, resumes from `since`, never shows a hidden card (R5:
 * face-down cards and the stock are counts); the events stream hears a pairing; the export holds the player's
 * finished games and nothing another caller may not see; bad input, the cap of open streams and shutdown.
 */
import {
  ErrorBodySchema,
  ExportStreamLineSchema,
  GameResponseSchema,
  GameStreamLineSchema,
  LegalMovesResponseSchema,
  PairingStatusSchema,
  type GameStreamLine,
} from '@klondike/protocol';
import { type Move, hiddenCards } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, describeEachDatabase, leakedCards, testApp } from '../../support/helpers.js';
import { NdjsonReader } from '../../support/ndjson.js';
import { type TestPlayer, newPlayer } from '../../support/race-helpers.js';

const T0 = Date.parse('2026-12-01T12:00:00Z');

type StateLine = Extract<GameStreamLine, { type: 'state' }>;

describeEachDatabase('NDJSON streams', (db: TestDatabase) => {
  let app: FastifyInstance;
  let base: string;
  let clock = T0;
  const readers: NdjsonReader[] = [];

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => clock,
      config: { raceCountdownMs: 60_000, raceCertifyMs: 3000, streamMaxPerClient: 6, streamKeepAliveMs: 200 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    for (const r of readers) r.close();
    await app.close();
    await db.cleanup();
  });

  async function open(path: string, token?: string): Promise<NdjsonReader> {
    const r = await NdjsonReader.open(`${base}${path}`, token);
    readers.push(r);
    return r;
  }

  async function newGame(as?: TestPlayer): Promise<string> {
    const r = await app.inject({
      method: 'POST',
      url: '/api/games',
      payload: { preset: 'classic-draw1' },
      ...(as ? { headers: { authorization: `Bearer ${as.token}` } } : {}),
    });
    expect(r.statusCode, r.body).toBe(201);
    return GameResponseSchema.parse(r.json()).id;
  }

  /** Plays one legal move (a tableau or foundation move first, else the first one) by REST; its version. */
  async function play(id: string, as?: TestPlayer): Promise<number> {
    const headers = as ? { authorization: `Bearer ${as.token}` } : {};
    const legal = LegalMovesResponseSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/games/${id}/legal-moves`, headers })).json(),
    );
    const move: Move = legal.moves.find((m) => m.type === 'move') ?? (legal.moves[0] as Move);
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      headers,
      payload: { move, version: legal.version },
    });
    expect(r.statusCode, r.body).toBe(200);
    return legal.version + 1;
  }

  async function resign(id: string, as?: TestPlayer): Promise<void> {
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/resign`,
      ...(as ? { headers: { authorization: `Bearer ${as.token}` } } : {}),
    });
    expect(r.statusCode, r.body).toBe(200);
  }

  it('a game stream delivers every action in order, never a hidden card (R5), and ends with the game', async () => {
    const id = await newGame();
    const stream = await open(`/api/stream/games/${id}`);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    await stream.next((l) => l.type === 'state' && l.version === 0);
    // The cards hidden at each version: none of them may appear in that version's line.
    const hiddenAt = new Map<number, string[]>([[0, hiddenCards(app.rooms.peekState(id)!)]]);
    for (let i = 0; i < 6; i++) {
      const v = await play(id);
      hiddenAt.set(v, hiddenCards(app.rooms.peekState(id)!));
    }
    await stream.next((l) => l.type === 'state' && l.version === 6);
    await resign(id);
    await stream.closed();
    // A reader already holding the last version of an ended game gets the end at once.
    const late = await open(`/api/stream/games/${id}?since=7`);
    await late.closed();
    expect(late.lines).toEqual([{ type: 'end', reason: 'game-over', gameId: id, version: 7 }]);

    const lines = stream.lines.map((l) => GameStreamLineSchema.parse(l));
    const states = lines.filter((l): l is StateLine => l.type === 'state');
    expect(states.map((s) => s.version)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(states.map((s) => s.cause)).toEqual([
      'subscribe',
      'move',
      'move',
      'move',
      'move',
      'move',
      'move',
      'resign',
    ]);
    expect(states.at(-1)?.view.status).toBe('resigned');
    expect(lines.at(-1)).toEqual({ type: 'end', reason: 'game-over', gameId: id, version: 7 });
    for (const [i, s] of states.entries()) {
      const text = stream.texts[i] as string;
      if (s.version < 7) expect(leakedCards(text, hiddenAt.get(s.version) ?? [])).toEqual([]);
      expect(text).not.toContain('requestId');
    }
  });

  it('resumes from `since`: the actions after it, then the newer states; since = now waits for the next', async () => {
    const id = await newGame();
    for (let i = 0; i < 4; i++) await play(id);
    const resumed = await open(`/api/stream/games/${id}?since=2`);
    await resumed.next((l) => l.type === 'state' && l.version === 4);
    const upToDate = await open(`/api/stream/games/${id}?since=4`);
    await play(id);
    await resumed.next((l) => l.version === 5);
    await upToDate.next((l) => l.version === 5);
    const lines = resumed.lines.map((l) => GameStreamLineSchema.parse(l));
    expect(lines.map((l) => [l.type, 'version' in l ? l.version : null])).toEqual([
      ['action', 3],
      ['action', 4],
      ['state', 4],
      ['state', 5],
    ]);
    const first = lines[0];
    if (first?.type === 'action') expect(first.notation).toMatch(/^(d|r|l|[a-zA-Z0-9]+)$/);
    expect(upToDate.lines.map((l) => (l as { version: number }).version)).toEqual([5]);
  });

  it('bad input: unknown game 404, bad `since` 400, no token 401; all as JSON errors', async () => {
    const id = await newGame();
    const cases: [string, number, string, string?][] = [
      ['/api/stream/games/nosuchgame', 404, 'not-found'],
      [`/api/stream/games/${id}?since=abc`, 400, 'bad-request'],
      [`/api/stream/games/${id}?since=-1`, 400, 'bad-request'],
      [`/api/stream/games/${id}?since=9`, 400, 'bad-request'],
      ['/api/stream/events', 401, 'unauthorized'],
      ['/api/stream/events', 401, 'unknown-token', 'not-a-token'],
      ['/api/players/nosuchplayer/games/export', 404, 'not-found'],
      ['/api/stream/races/AAAAAAAAAA/games', 404, 'not-found'],
      ['/api/stream/races/nope/games', 400, 'bad-request'],
      ['/api/stream/daily/2026-12-01/classic-draw1/games', 403, 'forbidden'],
      ['/api/stream/daily/2020-01-01/classic-draw1/games', 404, 'not-found'],
    ];
    for (const [path, status, code, token] of cases) {
      const r = await fetch(`${base}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
      expect(r.status, path).toBe(status);
      expect(r.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(ErrorBodySchema.parse(await r.json()).error.code, path).toBe(code);
    }
  });

  it("another player's owned game or an open day's attempt is not streamed to them", async () => {
    const owner = await newPlayer(app, 'sown');
    const other = await newPlayer(app, 'soth');
    const attempt = await app.inject({
      method: 'POST',
      url: '/api/daily/2026-12-01/classic-draw1/attempt',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    if (attempt.statusCode === 201 || attempt.statusCode === 200) {
      const gameId = GameResponseSchema.parse(attempt.json()).id;
      for (const token of [undefined, other.token]) {
        const r = await fetch(`${base}/api/stream/games/${gameId}`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        expect([401, 403]).toContain(r.status);
        await r.body?.cancel();
      }
      const mine = await open(`/api/stream/games/${gameId}`, owner.token);
      expect(mine.response.status).toBe(200);
      await mine.next((l) => l.type === 'state');
      mine.close();
    } else {
      expect.fail(`daily attempt: ${attempt.statusCode} ${attempt.body}`);
    }
  });

  it('the events stream hears a pairing made for its player (quick pairing), and ends when its token is revoked', async () => {
    const a = await newPlayer(app, 'evA');
    const b = await newPlayer(app, 'evB');
    const events = await open('/api/stream/events', a.token);
    expect(events.response.status).toBe(200);
    await events.next((l) => l.type === 'open' && l.playerId === a.id);
    const enter = async (p: TestPlayer) =>
      PairingStatusSchema.parse(
        (
          await app.inject({
            method: 'POST',
            url: '/api/pairing',
            headers: { authorization: `Bearer ${p.token}` },
            payload: { preset: 'classic-draw1' },
          })
        ).json(),
      );
    await enter(a);
    const paired = await enter(b);
    expect(paired.status).toBe('paired');
    if (paired.status !== 'paired') return;
    expect(await events.next((l) => l.type === 'paired')).toEqual({ type: 'paired', code: paired.code });
    // The race is on: its games are not public yet.
    const early = await fetch(`${base}/api/stream/races/${paired.code}/games`);
    expect(early.status).toBe(403);
    expect(ErrorBodySchema.parse(await early.json()).error.code).toBe('forbidden');
    // Keep-alives flow while nothing happens.
    await events.until(() => events.keepAlives > 0);
    // Rotating the token (a revocation) ends the stream with a `revoked` line.
    const rotated = await app.inject({
      method: 'POST',
      url: '/api/me/token',
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    await events.closed();
    expect(events.lines.at(-1)).toEqual({ type: 'end', reason: 'revoked' });
  });

  it("the export holds the player's finished games, and nothing a caller may not see", async () => {
    const p = await newPlayer(app, 'exp');
    const stranger = await newPlayer(app, 'exs');
    const finished = await newGame(p);
    await play(finished, p);
    await resign(finished, p);
    const unfinished = await newGame(p);
    await play(unfinished, p);
    const second = await newGame(p);
    await resign(second, p);
    const attempt = await app.inject({
      method: 'POST',
      url: '/api/daily/2026-12-01/classic-draw3/attempt',
      headers: { authorization: `Bearer ${p.token}` },
    });
    expect([200, 201]).toContain(attempt.statusCode);
    const attemptId = GameResponseSchema.parse(attempt.json()).id;

    const own = await open(`/api/players/${p.id}/games/export`, p.token);
    await own.closed();
    const lines = own.lines.map((l) => ExportStreamLineSchema.parse(l));
    expect(lines.at(-1)).toEqual({ type: 'end', reason: 'done' });
    const games = lines.flatMap((l) => (l.type === 'game' ? [l] : []));
    expect(games.map((g) => g.id).sort()).toEqual([finished, second].sort());
    const one = games.find((g) => g.id === finished);
    expect(one).toMatchObject({ kind: 'casual', status: 'resigned', race: null, daily: null });
    expect(one?.notation.split(' ')).toHaveLength(2);
    expect(one?.notation.endsWith('R')).toBe(true);
    expect(one?.replay.steps).toHaveLength(2);
    for (const t of own.texts) {
      expect(t).not.toContain(unfinished);
      expect(t).not.toContain(attemptId);
    }

    // Another caller (or nobody) sees no casual game, nor the open day's attempt.
    for (const token of [stranger.token, undefined]) {
      const theirs = await open(`/api/players/${p.id}/games/export`, token);
      await theirs.closed();
      expect(theirs.lines).toEqual([{ type: 'end', reason: 'done' }]);
    }
  });

  it("once the day has closed, its attempts stream, and a stranger's export holds them (public replays)", async () => {
    const p = await newPlayer(app, 'dly');
    const stranger = await newPlayer(app, 'dls');
    const attempt = await app.inject({
      method: 'POST',
      url: '/api/daily/2026-12-01/classic-draw1/attempt',
      headers: { authorization: `Bearer ${p.token}` },
    });
    expect([200, 201]).toContain(attempt.statusCode);
    const id = GameResponseSchema.parse(attempt.json()).id;
    await play(id, p);
    const before = await fetch(`${base}/api/stream/daily/2026-12-01/classic-draw1/games`);
    expect(before.status).toBe(403);
    await before.body?.cancel();

    clock = Date.parse('2026-12-02T00:00:01Z'); // the day has closed: its replays are public
    try {
      const day = await open('/api/stream/daily/2026-12-01/classic-draw1/games');
      await day.closed();
      const lines = day.lines.map((l) => ExportStreamLineSchema.parse(l));
      expect(lines.at(-1)).toEqual({ type: 'end', reason: 'done' });
      const mine = lines.find((l) => l.type === 'game' && l.id === id);
      expect(mine).toMatchObject({
        kind: 'daily-ranked',
        daily: { date: '2026-12-01', preset: 'classic-draw1' },
      });
      const theirs = await open(`/api/players/${p.id}/games/export`, stranger.token);
      await theirs.closed();
      const ids = theirs.lines.flatMap((l) => {
        const line = ExportStreamLineSchema.parse(l);
        return line.type === 'game' ? [line.id] : [];
      });
      expect(ids).toContain(id);
    } finally {
      clock = T0;
    }
  });

  it('caps the open streams of a client (429), and frees a place when a stream closes', async () => {
    const id = await newGame();
    const mine: NdjsonReader[] = [];
    // Earlier tests may still hold places: fill up to the cap, whatever is left.
    for (;;) {
      const r = await NdjsonReader.open(`${base}/api/stream/games/${id}`);
      if (r.response.status !== 200) {
        expect(r.response.status).toBe(429);
        expect(ErrorBodySchema.parse(await r.response.json()).error.code).toBe('rate-limited');
        break;
      }
      mine.push(r);
      expect(mine.length).toBeLessThanOrEqual(6);
    }
    expect(app.streams.hub.size).toBe(6);
    const first = mine.shift();
    first?.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await NdjsonReader.open(`${base}/api/stream/games/${id}`);
    expect(again.response.status).toBe(200);
    mine.push(again);
    readers.push(...mine);
    for (const r of mine) r.close();
  });
});

describe('NDJSON streams at shutdown', () => {
  it('every open stream gets a `shutdown` end line and closes; the server closes', async () => {
    const { pgliteDatabase } = await import('../../support/helpers.js');
    const db = pgliteDatabase();
    const app = await testApp(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('not listening');
    const created = await app.inject({ method: 'POST', url: '/api/games', payload: {} });
    const id = GameResponseSchema.parse(created.json()).id;
    const stream = await NdjsonReader.open(`http://127.0.0.1:${addr.port}/api/stream/games/${id}`);
    await stream.next((l) => l.type === 'state');
    await app.close();
    await stream.closed();
    expect(stream.lines.at(-1)).toEqual({ type: 'end', reason: 'shutdown' });
    await db.cleanup();
  });
});
