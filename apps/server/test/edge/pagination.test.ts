/**
 * One pagination (issue 59 item 3): every list route takes `limit` and `cursor`, answers `nextCursor` (null on
 * the last page) and a `Link: <…>; rel="next"` header when there is a next page; walking the pages one row
 * at a time gives the whole list, in order, without overlap; a made-up, edited or other route's cursor is
 * 400; the old `offset` (and the mod log's `before`) still work.
 */
import { PlayerCreatedSchema } from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, nextLink, slicePage } from '../../src/infra/http/pagination.js';
import { pgliteDatabase, testApp } from '../support/helpers.js';

const DAY = '2025-03-10';
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);

describe('cursors', () => {
  it('round-trip; a cursor of another route, an edited one or garbage is refused', () => {
    const c = encodeCursor('arenas', 40);
    expect(decodeCursor('arenas', c)).toBe(40);
    expect(() => decodeCursor('exports', c)).toThrow(/cursor/);
    for (const bad of [
      'x',
      'zzzz',
      encodeCursor('arenas', 40) + 'A',
      Buffer.from('arenas.-1').toString('base64url'),
      Buffer.from('arenas.01').toString('base64url'),
    ])
      expect(() => decodeCursor('arenas', bad)).toThrow(/cursor/);
    expect(slicePage('t', [1, 2, 3], { limit: 2 })).toEqual({
      page: [1, 2],
      nextCursor: encodeCursor('t', 2),
    });
    expect(slicePage('t', [1, 2, 3], { limit: 2, cursor: encodeCursor('t', 2) })).toEqual({
      page: [3],
      nextCursor: null,
    });
    expect(slicePage('t', [1, 2, 3], { limit: 2, offset: 1 })).toEqual({ page: [2, 3], nextCursor: null });
    expect(nextLink('/api/ratings/x?offset=3&limit=2&board=bots', 'Q')).toBe(
      '</api/ratings/x?limit=2&board=bots&cursor=Q>; rel="next"',
    );
  });
});

describe('list routes', () => {
  const db = pgliteDatabase();
  let clock = at(DAY);
  let app: FastifyInstance;
  let mod: { id: string; token: string };

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock, config: { dailyArchiveDays: 2 } });
    const players = [];
    for (const name of ['Pager One', 'Pager Two', 'Pager Three']) {
      const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
      players.push(PlayerCreatedSchema.parse(r.json()));
    }
    mod = players[0] as { id: string; token: string };
    await app.prisma.moderator.create({ data: { playerId: mod.id, grantedBy: 'cli' } });
    for (let i = 0; i < 3; i++)
      await app.prisma.modAction.create({
        data: { moderatorId: 'cli', action: 'grant', playerId: mod.id, reason: `reason ${i}` },
      });
    for (let i = 0; i < 3; i++)
      await app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: bearer(mod.token),
        payload: { name: `t${i}`, scopes: ['read'] },
      });
    // Three ranked attempts, resigned: three rows on the daily's board (provisional: their accounts are new).
    for (const p of players) {
      const a = await app.inject({
        method: 'POST',
        url: `/api/daily/${DAY}/classic-draw1/attempt`,
        headers: bearer(p.token),
      });
      expect(a.statusCode, a.body).toBe(201);
      const id = a.json<{ id: string }>().id;
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${id}/resign`,
        headers: bearer(p.token),
        payload: {},
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    // Casual games of one player, for their history.
    for (let i = 0; i < 3; i++) {
      const g = await app.inject({
        method: 'POST',
        url: '/api/games',
        headers: bearer(mod.token),
        payload: { dealNumber: 100 + i },
      });
      const id = g.json<{ id: string }>().id;
      await app.inject({
        method: 'POST',
        url: `/api/games/${id}/resign`,
        headers: bearer(mod.token),
        payload: {},
      });
    }
    clock = at('2025-03-12');
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  function bearer(token: string) {
    return { authorization: `Bearer ${token}` };
  }
  async function get(url: string): Promise<LightMyRequestResponse> {
    return app.inject({ method: 'GET', url, headers: bearer(mod.token) });
  }
  const sep = (url: string) => (url.includes('?') ? '&' : '?');

  /**
   * Walks `url` one row at a time through `nextCursor` and compares with the whole list (one big page);
   * checks each `Link` header. Returns the whole list's length.
   */
  async function walk(url: string, field: string): Promise<number> {
    const whole = await get(`${url}${sep(url)}limit=${url === '/api/tokens' ? 50 : 100}`);
    expect(whole.statusCode, whole.body).toBe(200);
    const all = whole.json<Record<string, unknown[]>>()[field] ?? [];
    expect(whole.headers.link).toBeUndefined();
    const seen: unknown[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages <= all.length; pages++) {
      const r = await get(`${url}${sep(url)}limit=1${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json<Record<string, unknown> & { nextCursor: string | null }>();
      seen.push(...((body[field] as unknown[] | undefined) ?? []));
      cursor = body.nextCursor;
      if (cursor === null) {
        expect(r.headers.link).toBeUndefined();
        break;
      }
      const link = String(r.headers.link);
      expect(link).toMatch(/^<\/api\/[^>]*cursor=[A-Za-z0-9_-]+[^>]*>; rel="next"$/);
      expect(link).toContain(`cursor=${cursor}`);
      expect(link).toContain('limit=1');
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual(all);
    return all.length;
  }

  // [url, the list's field, rows the setup made (at least)]
  const ROUTES: [string, string, number][] = [
    ['/api/tokens', 'tokens', 3], // at most 50: the walk's whole list is one page of 50
    ['/api/mod/log', 'entries', 3],
    [`/api/daily/${DAY}/classic-draw1/leaderboard?include=provisional`, 'entries', 3],
    ['/api/daily/archive', 'days', 2],
    ['/api/leaderboard', 'entries', 0],
    ['/api/ratings/daily-classic-draw1', 'entries', 0],
    ['/api/arenas', 'finished', 0],
    ['/api/exports', 'files', 0],
    ['/api/mod/queue', 'entries', 0],
    ['/api/puzzles/runs/board?period=all', 'entries', 0],
  ];

  it.each(ROUTES)(
    '%s: page by page = the whole list; Link on every page but the last',
    async (url, field, least) => {
      expect(await walk(url, field)).toBeGreaterThanOrEqual(least);
    },
  );

  it("a player's games: the keyset cursor answers a Link header too", async () => {
    const r = await get(`/api/players/${mod.id}/games?limit=1`);
    expect(r.statusCode, r.body).toBe(200);
    const next = r.json<{ nextCursor: string | null }>().nextCursor;
    expect(next).not.toBeNull();
    expect(r.headers.link).toBe(`</api/players/${mod.id}/games?limit=1&cursor=${next}>; rel="next"`);
    expect((await get(`/api/players/${mod.id}/games?cursor=nope`)).statusCode).toBe(400);
  });

  it.each(ROUTES)('%s: a made-up cursor, or one of another route → 400 bad-request', async (url) => {
    for (const cursor of ['nope', encodeCursor('elsewhere', 1), 'a'.repeat(300)]) {
      const r = await get(`${url}${sep(url)}cursor=${cursor}`);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json<{ error: { code: string } }>().error.code).toBe('bad-request');
    }
  });

  it('the old offset (and the mod log’s before) still page the same rows', async () => {
    const board = `/api/daily/${DAY}/classic-draw1/leaderboard?include=provisional`;
    const whole = (await get(`${board}&limit=100`)).json<{ entries: unknown[] }>();
    const second = (await get(`${board}&offset=1&limit=1`)).json<{ entries: unknown[]; offset: number }>();
    expect(second.offset).toBe(1);
    expect(second.entries).toEqual(whole.entries.slice(1, 2));
    const r = await get('/api/ratings/daily-classic-draw1?offset=0&limit=5');
    expect(r.statusCode, r.body).toBe(200);

    const log = (await get('/api/mod/log?limit=1')).json<{ entries: { id: number }[]; next: number }>();
    const byBefore = (await get(`/api/mod/log?limit=1&before=${log.next}`)).json<{ entries: unknown[] }>();
    const byCursor = (await get(`/api/mod/log?limit=1&cursor=${encodeCursor('mod-log', log.next)}`)).json<{
      entries: unknown[];
    }>();
    expect(byBefore.entries).toEqual(byCursor.entries);
    expect(byBefore.entries).toHaveLength(1);
  });

  it('the OpenAPI document marks offset deprecated', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{
      paths: Record<string, Record<string, { parameters?: { name: string; deprecated?: boolean }[] }>>;
    }>();
    const params = doc.paths['/api/ratings/{pool}']?.get?.parameters ?? [];
    expect(params.find((p) => p.name === 'offset')?.deprecated).toBe(true);
    expect(params.find((p) => p.name === 'cursor')?.deprecated).toBeUndefined();
  });
});
