/**
 * Arenas and impersonation (issue 55, "Names and arenas"): arena names refuse invisible, filler, bidi-control
 * characters and words mixing look-alike alphabets; a player has at most `arenaPublicLimit` public arenas
 * upcoming or running at once; the schedule's arenas are marked official, come first in the list and are not
 * pushed off it by a flood of players' arenas.
 */
import { ArenaListSchema, ArenaSchema, ErrorBodySchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE, slotsAhead } from '../../../src/features/arenas/schedule.js';
import { newRaceCode } from '../../../src/features/races/ranking.js';
import { describeEachDatabase, testApp } from '../../support/helpers.js';
import { type TestPlayer, newPlayer } from '../../support/race-helpers.js';

const T0 = Date.parse('2026-12-01T12:00:00Z');

describeEachDatabase('arena names, public arena limit, official arenas', (db) => {
  let app: FastifyInstance;
  let alice: TestPlayer;
  let bruno: TestPlayer;
  beforeAll(async () => {
    app = await testApp(db, { now: () => T0, config: { arenaPublicLimit: 3 } });
    alice = await newPlayer(app, 'alice');
    bruno = await newPlayer(app, 'bruno');
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const create = (as: TestPlayer, body: object) =>
    app.inject({
      method: 'POST',
      url: '/api/arenas',
      headers: { authorization: `Bearer ${as.token}` },
      payload: { preset: 'classic-draw1', durationMs: 600_000, ...body },
    });

  it('refuses deceptive arena names with 400 and accepts honest ones in any script', async () => {
    for (const [name, reason] of [
      ['Evening\u202E arena', /invisible/],
      ['\u3164\u3164', /invisible/],
      ['Zero\u200Bwidth', /invisible/],
      ['Daily Bl\u0456tz', /scripts/], // Cyrillic і in a Latin word
    ] as const) {
      const r = await create(alice, { name, inviteOnly: true });
      expect(r.statusCode, r.body).toBe(400);
      const body = ErrorBodySchema.parse(r.json());
      expect(body.error.code).toBe('bad-request');
      expect(body.error.message).toMatch(reason);
    }
    expect(await app.prisma.arena.count()).toBe(0);
    for (const name of ['Zoë’s blitz 2', '王小明的比赛', 'Вечерний турнир']) {
      const r = await create(alice, { name, inviteOnly: true });
      expect(r.statusCode, r.body).toBe(201);
      expect(ArenaSchema.parse(r.json()).name).toBe(name);
    }
  });

  it('a player may have 3 public arenas upcoming or running; the 4th is 409, invite-only ones do not count', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await create(alice, { startsAt: new Date(T0 + i * 3_600_000).toISOString() });
      expect(r.statusCode, r.body).toBe(201);
      expect(ArenaSchema.parse(r.json())).toMatchObject({ official: false, scheduled: false });
    }
    const refused = await create(alice, {});
    expect(refused.statusCode, refused.body).toBe(409);
    const err = ErrorBodySchema.parse(refused.json()).error;
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/at most 3/);
    expect((await create(alice, { inviteOnly: true })).statusCode).toBe(201);
    expect((await create(bruno, {})).statusCode).toBe(201);
    // A finished arena no longer counts.
    const first = await app.prisma.arena.findFirstOrThrow({
      where: { createdBy: alice.id, inviteCode: null },
      orderBy: { startsAt: 'asc' },
    });
    await app.prisma.arena.update({ where: { id: first.id }, data: { finishedAt: new Date(T0) } });
    expect((await create(alice, {})).statusCode).toBe(201);
  });

  it('scheduled arenas are official, listed first and never pushed off by players’ arenas', async () => {
    await app.arenas.makeSchedule();
    const slots = slotsAhead(DEFAULT_SCHEDULE, T0);
    expect(slots.length).toBeGreaterThan(0);
    // A flood of 150 players' arenas, all starting before any scheduled one.
    await app.prisma.arena.createMany({
      data: Array.from({ length: 150 }, (_, i) => ({
        id: newRaceCode(),
        name: `flood ${i}`,
        preset: 'classic-draw1',
        startsAt: new Date(T0 + 60_000),
        endsAt: new Date(T0 + 7 * 24 * 3_600_000 + 1),
        rated: true,
        inviteCode: null,
        bots: false,
        raceTimeLimitMs: 300_000,
        createdBy: bruno.id,
        createdAt: new Date(T0),
      })),
    });
    const list = ArenaListSchema.parse((await app.inject({ method: 'GET', url: '/api/arenas' })).json());
    const open = [...list.upcoming, ...list.running];
    const officials = open.filter((a) => a.official);
    expect(officials.map((a) => a.name).sort()).toEqual(slots.map((s) => s.name).sort());
    for (const part of [list.upcoming, list.running]) {
      const firstPlayers = part.findIndex((a) => !a.official);
      const lastOfficial = part.map((a) => a.official).lastIndexOf(true);
      if (firstPlayers >= 0) expect(lastOfficial).toBeLessThan(firstPlayers);
    }
    for (const a of open) expect(a.official).toBe(a.scheduled);
  });
});
