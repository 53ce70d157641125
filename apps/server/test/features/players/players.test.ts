/**
 * Player routes (create, me, rename, transfer codes, token rotation, sign-out everywhere, player page),
 * bearer tokens (only a SHA-256 stored),
 * the stricter rate limit on player creation, replays of casual games, the daily secret kept across
 * restarts, and the pure date/streak helpers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ErrorBodySchema,
  GameResponseSchema,
  MeSchema,
  PlayerCreatedSchema,
  PlayerPageSchema,
  ReplaySchema,
  TransferSchema,
} from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, isCalendarDate } from '../../../src/infra/dates.js';
import { streaks } from '../../../src/features/daily/players.js';
import { candidateDeal } from '../../../src/features/daily/generate.js';
import { DAILY_SECRET_KEY } from '../../../src/features/daily/service.js';
import { hashToken } from '../../../src/features/players/players.js';
import { describeEachDatabase, pgliteDatabase, testApp } from '../../support/helpers.js';

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

function expectError(r: LightMyRequestResponse, status: number, code: string): string {
  expect(r.statusCode, r.body).toBe(status);
  const body = ErrorBodySchema.parse(r.json());
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeEachDatabase('player routes', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function create(name: string): Promise<Player> {
    const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
    expect(r.statusCode, r.body).toBe(201);
    return PlayerCreatedSchema.parse(r.json());
  }

  it('POST /api/players → 201 {id,name,token}; only the SHA-256 of the token is stored', async () => {
    const p = await create('  Zoë Smith  ');
    expect(p.name).toBe('Zoë Smith');
    expect(p.token.length).toBeGreaterThanOrEqual(40);
    const row = await app.prisma.player.findUniqueOrThrow({ where: { id: p.id }, include: { tokens: true } });
    expect(row.tokens.map((t) => t.tokenHash)).toEqual([hashToken(p.token)]);
    expect(JSON.stringify(row)).not.toContain(p.token);
  });

  it('names: 400 when invalid, 409 conflict when taken ignoring case', async () => {
    for (const name of ['ab', 'x'.repeat(21), 'two  spaces', 'semi;colon', '<b>', '']) {
      expectError(
        await app.inject({ method: 'POST', url: '/api/players', payload: { name } }),
        400,
        'bad-request',
      );
    }
    expectError(await app.inject({ method: 'POST', url: '/api/players', payload: {} }), 400, 'bad-request');
    expectError(
      await app.inject({ method: 'POST', url: '/api/players', payload: { name: 'Okay', extra: 1 } }),
      400,
      'bad-request',
    );
    await create('Marie-Curie');
    expect(
      expectError(
        await app.inject({ method: 'POST', url: '/api/players', payload: { name: 'marie-CURIE' } }),
        409,
        'conflict',
      ),
    ).toMatch(/taken/);
  });

  it('GET /api/me: 200 with the token; 401 without, with an unknown token or another scheme', async () => {
    const p = await create('Me Myself');
    const r = await app.inject({ method: 'GET', url: '/api/me', headers: bearer(p.token) });
    expect(r.statusCode).toBe(200);
    const me = MeSchema.parse(r.json());
    expect(me).toMatchObject({ id: p.id, name: 'Me Myself' });
    expect(me.stats).toEqual({
      played: 0,
      wins: 0,
      winRate: 0,
      currentStreak: 0,
      bestStreak: 0,
      bestTimeMs: { 'classic-draw1': null, 'classic-draw3': null },
    });
    expectError(await app.inject({ method: 'GET', url: '/api/me' }), 401, 'unauthorized');
    expectError(
      await app.inject({ method: 'GET', url: '/api/me', headers: bearer('nope') }),
      401,
      'unknown-token',
    );
    expectError(
      await app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Basic ${p.token}` } }),
      401,
      'unauthorized',
    );
    // A revoked token is refused even on routes that do not need one.
    expectError(
      await app.inject({ method: 'GET', url: '/api/daily', headers: bearer('nope') }),
      401,
      'unknown-token',
    );
  });

  it('PATCH /api/me renames (case change of one’s own name allowed); 409 when taken; 400 invalid; 401', async () => {
    const p = await create('Renamer');
    await create('Taken Name');
    const r = await app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: bearer(p.token),
      payload: { name: 'New Name' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(MeSchema.parse(r.json()).name).toBe('New Name');
    const again = await app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: bearer(p.token),
      payload: { name: 'NEW name' },
    });
    expect(again.statusCode).toBe(200);
    expectError(
      await app.inject({
        method: 'PATCH',
        url: '/api/me',
        headers: bearer(p.token),
        payload: { name: 'taken name' },
      }),
      409,
      'conflict',
    );
    expectError(
      await app.inject({ method: 'PATCH', url: '/api/me', headers: bearer(p.token), payload: { name: 'x' } }),
      400,
      'bad-request',
    );
    expectError(
      await app.inject({ method: 'PATCH', url: '/api/me', payload: { name: 'Whoever' } }),
      401,
      'unauthorized',
    );
    const page = PlayerPageSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/players/${p.id}` })).json(),
    );
    expect(page.name).toBe('NEW name');
  });

  it('POST /api/me/transfer → a single-use code in a #signin= link, exchanged once for a new device token', async () => {
    const p = await create('Traveller');
    const r = await app.inject({ method: 'POST', url: '/api/me/transfer', headers: bearer(p.token) });
    expect(r.statusCode).toBe(201);
    const t = TransferSchema.parse(r.json());
    expect(t.url).toBe(`/#signin=${t.code}`);
    expect(t.url).not.toContain(p.token); // the permanent token is in no link
    expect(Date.parse(t.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const redeem = (code: string) =>
      app.inject({ method: 'POST', url: '/api/players/transfer', payload: { code } });
    const first = await redeem(t.code);
    expect(first.statusCode, first.body).toBe(200);
    const device = PlayerCreatedSchema.parse(first.json());
    expect(device.id).toBe(p.id);
    expect(device.token).not.toBe(p.token);
    // Both devices are signed in; the code is spent.
    for (const token of [p.token, device.token])
      expect(
        MeSchema.parse((await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).json())
          .id,
      ).toBe(p.id);
    expectError(await redeem(t.code), 401, 'unauthorized');
    expectError(await redeem('0123456789ABCDEF0123456789ABCDEF'), 401, 'unauthorized');
    expectError(await app.inject({ method: 'POST', url: '/api/me/transfer' }), 401, 'unauthorized');
    expectError(
      await app.inject({ method: 'POST', url: '/api/players/transfer', payload: {} }),
      400,
      'bad-request',
    );
  });

  it('POST /api/me/token rotates: the old token is refused at once, the new one works', async () => {
    const p = await create('Rotator');
    const r = await app.inject({ method: 'POST', url: '/api/me/token', headers: bearer(p.token) });
    expect(r.statusCode, r.body).toBe(200);
    const { token } = r.json<{ token: string }>();
    expect(token).not.toBe(p.token);
    expectError(
      await app.inject({ method: 'GET', url: '/api/me', headers: bearer(p.token) }),
      401,
      'unknown-token',
    );
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(
      200,
    );
  });

  it('POST /api/me/sign-out-everywhere signs out every device and voids open sign-in codes', async () => {
    const p = await create('Everywhere');
    const code = TransferSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/me/transfer', headers: bearer(p.token) })).json(),
    ).code;
    const other = PlayerCreatedSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/players/transfer', payload: { code } })).json(),
    );
    const spare = TransferSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/me/transfer', headers: bearer(p.token) })).json(),
    ).code;
    const r = await app.inject({
      method: 'POST',
      url: '/api/me/sign-out-everywhere',
      headers: bearer(other.token),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ devices: 2 });
    for (const token of [p.token, other.token])
      expectError(
        await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) }),
        401,
        'unknown-token',
      );
    expectError(
      await app.inject({ method: 'POST', url: '/api/players/transfer', payload: { code: spare } }),
      401,
      'unauthorized',
    );
  });

  it('GET /api/players/:id → 200 page (no token needed); 404 unknown; 400 malformed id', async () => {
    const p = await create('Public Page');
    const r = await app.inject({ method: 'GET', url: `/api/players/${p.id}` });
    expect(r.statusCode).toBe(200);
    const page = PlayerPageSchema.parse(r.json());
    expect(page).toMatchObject({ id: p.id, name: 'Public Page', recent: [] });
    expect(r.body).not.toContain(p.token);
    expectError(await app.inject({ method: 'GET', url: '/api/players/noSuchPlayer' }), 404, 'not-found');
    expectError(await app.inject({ method: 'GET', url: '/api/players/bad%20id' }), 400, 'bad-request');
  });

  it('replay of a casual game: 403 while playing, 200 once resigned (steps with server times)', async () => {
    const g = GameResponseSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 5 } })).json(),
    );
    expectError(await app.inject({ method: 'GET', url: `/api/games/${g.id}/replay` }), 403, 'forbidden');
    await app.inject({
      method: 'POST',
      url: `/api/games/${g.id}/moves`,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    await app.inject({ method: 'POST', url: `/api/games/${g.id}/resign`, payload: {} });
    const r = await app.inject({ method: 'GET', url: `/api/games/${g.id}/replay` });
    expect(r.statusCode, r.body).toBe(200);
    const replay = ReplaySchema.parse(r.json());
    expect(replay).toMatchObject({ id: g.id, preset: 'classic-draw1', player: null });
    expect(replay.steps.map((s) => s.type)).toEqual(['move', 'resign']);
    expect(replay.steps[0]).toMatchObject({ move: { type: 'draw' }, atMs: 0 });
    expectError(await app.inject({ method: 'GET', url: '/api/games/noSuchGame/replay' }), 404, 'not-found');
  });
});

describe('player creation rate limit [PGlite]', () => {
  it('POST /api/players has a stricter per-client limit than the global one → 429 rate-limited', async () => {
    const app = await testApp(pgliteDatabase(), { config: { rateLimitMax: 100, playerCreateRateMax: 2 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name: `Rate ${i}` } });
        codes.push(r.statusCode);
        if (r.statusCode === 429) expect(ErrorBodySchema.parse(r.json()).error.code).toBe('rate-limited');
      }
      expect(codes).toEqual([201, 201, 429, 429]);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the daily secret [PGlite on disk]', () => {
  it('start-up prepares today, tomorrow and the archive; without DAILY_SECRET a random secret is stored once and kept across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'klondike-daily-'));
    const db = {
      kind: 'pglite' as const,
      config: () => ({ databaseUrl: undefined, dataDir: dir }),
      cleanup: async () => {},
    };
    const now = () => Date.parse('2025-06-01T10:00:00Z');
    try {
      const config = { dailySchedule: true, dailyArchiveDays: 1 };
      let app = await testApp(db, { now, config });
      let secret: string;
      let deals: string[];
      try {
        // The daily job prepares today, tomorrow and the archive at start-up, before any request.
        const deadline = Date.now() + 60_000;
        while ((await app.prisma.dailyDeal.count()) < 6 && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 50));
        const dates = (await app.prisma.dailyDeal.findMany({ select: { date: true } })).map((r) => r.date);
        expect(dates.sort()).toEqual([
          '2025-05-31',
          '2025-05-31',
          '2025-06-01',
          '2025-06-01',
          '2025-06-02',
          '2025-06-02',
        ]);
        expect((await app.inject({ method: 'GET', url: '/api/daily' })).statusCode).toBe(200);
        secret = (await app.prisma.setting.findUniqueOrThrow({ where: { key: DAILY_SECRET_KEY } })).value;
        expect(secret).toMatch(/^[0-9a-f]{64}$/);
        const rows = await app.prisma.dailyDeal.findMany({ orderBy: { id: 'asc' } });
        deals = rows.map((r) => `${r.id} ${r.date} ${r.preset} ${r.deal}`);
        for (const r of rows) {
          const preset = r.preset as 'classic-draw1' | 'classic-draw3';
          expect(r.dealKey).toBe(candidateDeal(secret, r.date, preset, r.candidate).key);
        }
      } finally {
        await app.close();
      }
      app = await testApp(db, { now, config });
      try {
        expect((await app.inject({ method: 'GET', url: '/api/daily' })).statusCode).toBe(200);
        expect((await app.prisma.setting.findUniqueOrThrow({ where: { key: DAILY_SECRET_KEY } })).value).toBe(
          secret,
        );
        const rows = await app.prisma.dailyDeal.findMany({ orderBy: { id: 'asc' } });
        expect(rows.map((r) => `${r.id} ${r.date} ${r.preset} ${r.deal}`)).toEqual(deals);
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000); // six deal searches at start-up: patience for a loaded machine, not a speed target
});

describe('dates and streaks', () => {
  it('calendar dates and day arithmetic in UTC', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2025-02-29')).toBe(false);
    expect(isCalendarDate('2025-1-01')).toBe(false);
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('current streak counts back from today (or yesterday); a missed day resets it; best is the longest run', () => {
    expect(streaks([], '2025-01-10')).toEqual({ current: 0, best: 0 });
    expect(streaks(['2025-01-08', '2025-01-09'], '2025-01-10')).toEqual({ current: 2, best: 2 });
    expect(streaks(['2025-01-08', '2025-01-09', '2025-01-10'], '2025-01-10')).toEqual({
      current: 3,
      best: 3,
    });
    expect(streaks(['2025-01-07', '2025-01-08'], '2025-01-10')).toEqual({ current: 0, best: 2 });
    expect(
      streaks(['2025-01-01', '2025-01-02', '2025-01-03', '2025-01-09', '2025-01-10'], '2025-01-10'),
    ).toEqual({
      current: 2,
      best: 3,
    });
    expect(streaks(['2024-12-31', '2025-01-01', '2025-01-01'], '2025-01-02')).toEqual({
      current: 2,
      best: 2,
    });
  });
});

describe('transfer codes expire', () => {
  it('a code older than 10 minutes is refused, even unused', async () => {
    let clock = Date.parse('2026-11-22T12:00:00Z');
    const app = await testApp(pgliteDatabase(), { now: () => clock });
    try {
      const p = PlayerCreatedSchema.parse(
        (await app.inject({ method: 'POST', url: '/api/players', payload: { name: 'Slowpoke' } })).json(),
      );
      const t = TransferSchema.parse(
        (await app.inject({ method: 'POST', url: '/api/me/transfer', headers: bearer(p.token) })).json(),
      );
      expect(t.expiresAt).toBe('2026-11-22T12:10:00.000Z');
      clock += 10 * 60_000;
      expectError(
        await app.inject({ method: 'POST', url: '/api/players/transfer', payload: { code: t.code } }),
        401,
        'unauthorized',
      );
    } finally {
      await app.close();
    }
  });
});

describeEachDatabase('GET /api/me does not wait for the daily deal search', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  // Generating a day's dailies takes seconds of solver time on a loaded machine; a signed-up player's first
  // request (the web client's /api/me right after sign-up) once waited for it. It settles closed days only.
  it('answers a new player before any daily exists, and leaves generating them to the daily routes', async () => {
    const created = await app.inject({ method: 'POST', url: '/api/players', payload: { name: 'Early' } });
    expect(created.statusCode, created.body).toBe(201);
    const { token } = PlayerCreatedSchema.parse(created.json());
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(me.statusCode, me.body).toBe(200);
    expect(MeSchema.parse(me.json()).name).toBe('Early');
    expect(await app.prisma.dailyDeal.count()).toBe(0);
    const page = await app.inject({ method: 'GET', url: `/api/players/${MeSchema.parse(me.json()).id}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(await app.prisma.dailyDeal.count()).toBe(0);
    // The daily routes still make today's deals on first use.
    const today = await app.inject({ method: 'GET', url: '/api/daily' });
    expect(today.statusCode, today.body).toBe(200);
    expect(await app.prisma.dailyDeal.count()).toBeGreaterThan(0);
  });
});
