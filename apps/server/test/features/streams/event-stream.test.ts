/**
 * The events stream's deliveries besides `paired` (docs/api.md "Streams"), over a real listening server: a
 * rematch's invitation reaches the invited racer's stream and no one else's (a second account that raced
 * nothing, the inviter themself); a day's dailies opening reaches every open stream once per day, whatever
 * repeats the other nodes (or a restart) send. Across two nodes: multi-node-streams.test.ts. And the puzzle
 * run board pages like every other list (issue 59): its second page, its `Link`, a forged cursor.
 */
import {
  EventStreamLineSchema,
  PuzzleRunBoardSchema,
  type EventStreamLine,
  type Race,
} from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, startOfDate, utcDate } from '../../../src/infra/dates.js';
import { encodeCursor } from '../../../src/infra/http/pagination.js';
import { pgliteDatabase, testApp } from '../../support/helpers.js';
import { NdjsonReader } from '../../support/ndjson.js';
import { type TestPlayer, call, newPlayer, raceOf } from '../../support/race-helpers.js';

describe('the events stream: invitations and opened days', () => {
  const db = pgliteDatabase();
  let app: FastifyInstance;
  let base: string;
  // The server's clock: the real one (race timers run), moved to noon UTC and, later, a day on.
  let shift = startOfDate(utcDate(Date.now())) + 12 * 3_600_000 - Date.now();
  const today = (): string => utcDate(Date.now() + shift);
  const readers: NdjsonReader[] = [];

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => Date.now() + shift,
      config: { raceCountdownMs: 30, raceCertifyMs: 3000, streamKeepAliveMs: 200 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${addr.port}`;
  }, 60_000);
  afterAll(async () => {
    for (const r of readers) r.close();
    await app.close();
    await db.cleanup();
  });

  /** `player`'s events stream, once its `open` line has arrived. */
  async function events(player: TestPlayer): Promise<NdjsonReader> {
    const r = await NdjsonReader.open(`${base}/api/stream/events`, player.token);
    readers.push(r);
    expect(r.response.status).toBe(200);
    await r.next((l) => l.type === 'open' && l.playerId === player.id);
    return r;
  }
  const typed = (r: NdjsonReader, type: EventStreamLine['type']): EventStreamLine[] =>
    r.lines.map((l) => EventStreamLineSchema.parse(l)).filter((l) => l.type === type);

  /** A finished race of `host` and `guest` (both resign). Returns its code. */
  async function finishedRace(host: TestPlayer, guest: TestPlayer): Promise<string> {
    const { code } = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    raceOf(await call(app, 'POST', `/api/races/${code}/join`, { as: guest }));
    raceOf(await call(app, 'POST', `/api/races/${code}/start`, { as: host }));
    let race: Race = raceOf(await call(app, 'GET', `/api/races/${code}`, { as: host }));
    while (race.status !== 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      race = raceOf(await call(app, 'GET', `/api/races/${code}`, { as: host }));
    }
    for (const p of [host, guest]) {
      const mine = raceOf(await call(app, 'GET', `/api/races/${code}`, { as: p }));
      const r = await call(app, 'POST', `/api/games/${mine.yourGameId}/resign`, { as: p, payload: {} });
      expect(r.statusCode, r.body).toBe(200);
    }
    while (race.status !== 'finished') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      race = raceOf(await call(app, 'GET', `/api/races/${code}`, { as: host }));
    }
    return code;
  }

  it("a rematch invites the other racers: the invited one's stream gets it, an uninvited one's does not", async () => {
    const host = await newPlayer(app, 'invHost');
    const guest = await newPlayer(app, 'invGuest');
    const stranger = await newPlayer(app, 'invStranger');
    const code = await finishedRace(host, guest);
    const [guestEvents, hostEvents, strangerEvents] = await Promise.all([
      events(guest),
      events(host),
      events(stranger),
    ]);
    const made = raceOf(await call(app, 'POST', `/api/races/${code}/rematch`, { as: host }), 201);
    expect(await guestEvents.next((l) => l.type === 'race-invitation')).toEqual({
      type: 'race-invitation',
      kind: 'rematch',
      code: made.code,
      from: { id: host.id, name: host.name },
      rematchOf: code,
    });
    // The guest asking too takes the seat in the same rematch: no second invitation to anyone.
    const joined = raceOf(await call(app, 'POST', `/api/races/${code}/rematch`, { as: guest }), 200);
    expect(joined.code).toBe(made.code);
    // Keep-alives after the invitation prove the other streams were written to since, without it.
    const seen = [guestEvents, hostEvents, strangerEvents].map((r) => r.keepAlives);
    await Promise.all(
      [guestEvents, hostEvents, strangerEvents].map((r, i) => r.until(() => r.keepAlives > (seen[i] ?? 0))),
    );
    expect(typed(guestEvents, 'race-invitation')).toHaveLength(1);
    expect(typed(hostEvents, 'race-invitation')).toEqual([]);
    expect(typed(strangerEvents, 'race-invitation')).toEqual([]);
    // A refused rematch (a stranger asking) invites nobody.
    const refused = await call(app, 'POST', `/api/races/${code}/rematch`, { as: stranger });
    expect(refused.statusCode).toBe(403);
  }, 60_000);

  it('a new day’s dailies opening reach every open stream, once per day, whatever repeats arrive', async () => {
    const a = await newPlayer(app, 'dayA');
    const b = await newPlayer(app, 'dayB');
    const [ea, eb] = await Promise.all([events(a), events(b)]);
    const day = today();
    const r = await call(app, 'GET', '/api/daily', { as: a });
    expect(r.statusCode, r.body).toBe(200);
    const opened = { type: 'daily-opened', date: day, presets: ['classic-draw1', 'classic-draw3'] };
    expect(await ea.next((l) => l.type === 'daily-opened')).toEqual(opened);
    expect(await eb.next((l) => l.type === 'daily-opened')).toEqual(opened);
    // Repeats — another node announcing the same day (a bus message), a restart announcing it, the route
    // again — deliver nothing more; nor does an earlier day arriving late.
    app.streams.events.opened(day, false);
    app.streams.events.opened(day);
    app.streams.events.opened(addDays(day, -1), false);
    expect((await call(app, 'GET', '/api/daily', { as: b })).statusCode).toBe(200);
    // The next day: one more line each, for it.
    shift += 86_400_000;
    const next = today();
    expect(next).toBe(addDays(day, 1));
    expect((await call(app, 'GET', '/api/daily', { as: a })).statusCode).toBe(200);
    await ea.next((l) => l.type === 'daily-opened' && l.date === next);
    await eb.next((l) => l.type === 'daily-opened' && l.date === next);
    const seen = [ea.keepAlives, eb.keepAlives];
    await Promise.all([ea, eb].map((s, i) => s.until(() => s.keepAlives > (seen[i] ?? 0))));
    for (const s of [ea, eb])
      expect(typed(s, 'daily-opened').map((l) => (l.type === 'daily-opened' ? l.date : ''))).toEqual([
        day,
        next,
      ]);
    // A stream opened after the day opened hears no old news.
    const late = await events(await newPlayer(app, 'dayLate'));
    const k = late.keepAlives;
    await late.until(() => late.keepAlives > k);
    expect(typed(late, 'daily-opened')).toEqual([]);
  }, 120_000);

  it('the puzzle run board pages: limit, nextCursor, Link, the second page; a forged cursor is 400', async () => {
    const players: TestPlayer[] = [];
    for (const name of ['runOne', 'runTwo', 'runThree']) players.push(await newPlayer(app, name));
    const now = Date.now() + shift;
    // Three finished runs of today (what POST /api/puzzles/runs leaves once its clock ran out), scores 3, 2, 1.
    for (const [i, p] of players.entries())
      await app.prisma.puzzleRun.create({
        data: {
          id: `board-run-${i}`,
          playerId: p.id,
          startedAt: new Date(now - 120_000),
          endsAt: new Date(now - 60_000 + i),
          solved: 3 - i,
        },
      });
    const get = async (url: string) => {
      const r = await call(app, 'GET', url, { as: players[2] });
      expect(r.statusCode, r.body).toBe(200);
      return { body: PuzzleRunBoardSchema.parse(r.json()), link: r.headers.link };
    };
    const whole = await get('/api/puzzles/runs/board?period=day');
    expect(whole.body.entries.map((e) => e.playerId)).toEqual(players.map((p) => p.id));
    expect(whole.body.nextCursor).toBeNull();
    expect(whole.link).toBeUndefined();
    const first = await get('/api/puzzles/runs/board?period=day&limit=2');
    expect(first.body.entries).toEqual(whole.body.entries.slice(0, 2));
    expect(first.body.nextCursor).not.toBeNull();
    expect(first.link).toBe(
      `</api/puzzles/runs/board?period=day&limit=2&cursor=${first.body.nextCursor}>; rel="next"`,
    );
    const second = await get(`/api/puzzles/runs/board?period=day&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.entries).toEqual(whole.body.entries.slice(2));
    expect(second.body.entries[0]?.rank).toBe(3);
    expect(second.body.nextCursor).toBeNull();
    expect(second.link).toBeUndefined();
    // `me` is the caller's row whatever the page.
    expect(first.body.me).toEqual(whole.body.entries[2]);
    for (const cursor of ['nope', encodeCursor('arenas', 1)]) {
      const r = await call(app, 'GET', `/api/puzzles/runs/board?cursor=${cursor}`);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json<{ error: { code: string } }>().error.code).toBe('bad-request');
    }
  });
});
