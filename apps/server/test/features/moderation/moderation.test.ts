/**
 * Moderation (issue 55 items 3–6; docs/moderation.md), on both databases, played as players trying to get
 * round it: every /api/mod route (read from the app's route table) refuses non-moderators (403) and
 * anonymous or revoked callers (401) before anything changes; reports (one open per reporter and player,
 * not oneself, not unknown players or games); the queue holds flagged and reported players with their
 * signals and appeals; a mark takes the player off the rating list and the daily board, refunds the
 * opponent they beat to the cent, is logged, and cannot be applied twice; unmark and a granted appeal
 * restore exactly; rename, close and dismiss; the published figures; the moderators named by the setting
 * and by the CLI.
 */
import {
  AppealSchema,
  ArenaSchema,
  ErrorBodySchema,
  FairPlayStandingSchema,
  FairPlayStatsSchema,
  LeaderboardSchema,
  MarkResultSchema,
  ModLogSchema,
  ModPlayerViewSchema,
  ModQueueSchema,
  PlayerCreatedSchema,
  PlayerPageSchema,
  RatingLeaderboardSchema,
  ReportSchema,
} from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, nameKey, nameSkeleton } from '../../../src/features/players/players.js';
import { moderatorCommand } from '../../../src/features/moderation/cli.js';
import { ModerationRepository } from '../../../src/features/moderation/repository.js';
import { RatingRepository } from '../../../src/features/ratings/repository.js';
import { describeEachDatabase, testApp, pgliteDatabase } from '../../support/helpers.js';

type Player = { id: string; name: string; token: string };

const POOL = 'race-classic-draw1';
/** A moderator named by the MODERATORS setting (inserted directly: the setting names an id). */
const SETTING_MOD = {
  id: 'setting-moderator-1',
  name: 'SettingMod',
  token: 'setting-moderator-token-0123456789',
};

function expectError(r: LightMyRequestResponse, status: number, code: string): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(ErrorBodySchema.parse(r.json()).error.code).toBe(code);
}

/**
 * Every (method, path) of the app's route table under /api/mod, as the router holds them: Fastify's
 * `printRoutes` tree (4 characters of indent per level, each node's text appended to its parent's path).
 */
function modRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.round((at - 1) / 4);
    const m = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(at + 3));
    if (m === null) continue;
    stack.length = depth;
    stack.push(m[1] ?? '');
    const path = stack.join('');
    if (!path.startsWith('/api/mod')) continue;
    for (const method of (m[2] ?? '').split(',').map((x) => x.trim()))
      if (method !== '' && method !== 'HEAD') out.push({ method, path });
  }
  return out;
}

describeEachDatabase('moderation', (db) => {
  let app: FastifyInstance;
  const p: Record<string, Player> = {};
  const auth = (who: Player) => ({ authorization: `Bearer ${who.token}` });
  const today = () => new Date(app.now()).toISOString().slice(0, 10);
  const post = (who: Player | null, url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as object, ...(who ? { headers: auth(who) } : {}) });
  const get = (who: Player | null, url: string) =>
    app.inject({ method: 'GET', url, ...(who ? { headers: auth(who) } : {}) });
  const rating = async (playerId: string) =>
    (await app.prisma.rating.findUniqueOrThrow({ where: { playerId_pool: { playerId, pool: POOL } } }))
      .rating;
  const onRatingList = async (playerId: string) => {
    const r = await get(null, `/api/ratings/${POOL}?include=provisional&limit=100`);
    expect(r.statusCode, r.body).toBe(200);
    return RatingLeaderboardSchema.parse(r.json()).entries.some((e) => e.playerId === playerId);
  };
  const onDailyBoard = async (playerId: string) => {
    const r = await get(
      null,
      `/api/daily/${today()}/classic-draw1/leaderboard?include=provisional&limit=100`,
    );
    expect(r.statusCode, r.body).toBe(200);
    return LeaderboardSchema.parse(r.json()).entries.some((e) => e.playerId === playerId);
  };

  beforeAll(async () => {
    app = await testApp(db, { config: { moderators: [SETTING_MOD.id] } });
    for (const name of ['Moddy', 'Alice', 'Bob', 'Carol', 'Dave', 'Erin']) {
      const r = await post(null, '/api/players', { name });
      expect(r.statusCode, r.body).toBe(201);
      p[name] = PlayerCreatedSchema.parse(r.json());
    }
    await app.prisma.player.create({
      data: {
        id: SETTING_MOD.id,
        name: SETTING_MOD.name,
        nameKey: nameKey(SETTING_MOD.name),
        nameSkeleton: nameSkeleton(SETTING_MOD.name),
        tokens: { create: { tokenHash: hashToken(SETTING_MOD.token) } },
      },
    });
    p.SettingMod = SETTING_MOD;
    const granted = await moderatorCommand(
      new ModerationRepository(app.prisma),
      ['grant', p.Moddy!.id, 'the', 'first', 'moderator'],
      app.now(),
    );
    expect(granted.status, granted.output).toBe(0);

    // Stand-ins for the race feature: Alice won rated race R1 over Bob (who lost 12.75 points) and Dave
    // (who gained: nothing to refund); Bob won R2 over Alice; Alice won R3, unrated.
    const race = (code: string, rated: boolean) => ({
      code,
      status: 'finished' as const,
      preset: 'classic-draw1',
      options: {},
      dealKind: 'random',
      deal: 'x',
      maxPlayers: 4,
      hostId: p.Alice!.id,
      rated,
      ratedAt: rated ? new Date(app.now()) : null,
    });
    await app.prisma.race.createMany({ data: [race('R1', true), race('R2', true), race('R3', false)] });
    await app.prisma.raceRacer.createMany({
      data: [
        {
          raceCode: 'R1',
          playerId: p.Alice!.id,
          seat: 0,
          placement: 1,
          ratingBefore: 1500,
          ratingAfter: 1510,
        },
        {
          raceCode: 'R1',
          playerId: p.Bob!.id,
          seat: 1,
          placement: 2,
          ratingBefore: 1500,
          ratingAfter: 1487.25,
        },
        {
          raceCode: 'R1',
          playerId: p.Dave!.id,
          seat: 2,
          placement: 3,
          ratingBefore: 1400,
          ratingAfter: 1401,
        },
        {
          raceCode: 'R2',
          playerId: p.Bob!.id,
          seat: 0,
          placement: 1,
          ratingBefore: 1487.25,
          ratingAfter: 1495,
        },
        {
          raceCode: 'R2',
          playerId: p.Alice!.id,
          seat: 1,
          placement: 2,
          ratingBefore: 1510,
          ratingAfter: 1502,
        },
        { raceCode: 'R3', playerId: p.Alice!.id, seat: 0, placement: 1 },
        { raceCode: 'R3', playerId: p.Erin!.id, seat: 1, placement: 2 },
      ],
    });
    const ratingRow = (playerId: string, value: number) => ({
      playerId,
      pool: POOL,
      rating: value,
      deviation: 80,
      volatility: 0.06,
      games: 2,
      period: today(),
    });
    await app.prisma.rating.createMany({
      data: [ratingRow(p.Alice!.id, 1502), ratingRow(p.Bob!.id, 1495), ratingRow(p.Dave!.id, 1401)],
    });
    // Alice and Bob each resign today's daily: both on its board.
    for (const who of [p.Alice!, p.Bob!]) {
      const a = await post(who, `/api/daily/${today()}/classic-draw1/attempt`, {});
      expect(a.statusCode, a.body).toBe(201);
      const r = await post(who, `/api/games/${a.json<{ id: string }>().id}/resign`, {});
      expect(r.statusCode, r.body).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await db.cleanup();
  });

  it('every /api/mod route of the route table: 401 without a token, 403 for a player, nothing written', async () => {
    const routes = modRoutes(app);
    // The routes the issue names are there (so the table was read), and no other escapes the check below.
    expect(routes.length).toBeGreaterThanOrEqual(9);
    expect(routes).toContainEqual({ method: 'POST', path: '/api/mod/players/:id/mark' });
    const before = await app.prisma.modAction.count();
    for (const { method, path } of routes) {
      const url = path.replace(':id', path.startsWith('/api/mod/appeals') ? '1' : p.Moddy!.id);
      // A well-formed body, so that only the caller can be what is refused.
      const payload = { reason: 'because I say so', name: 'Hijacked', outcome: 'granted', answer: 'yes' };
      const send = (headers: Record<string, string>) =>
        app.inject({
          method: method as 'GET' | 'POST',
          url,
          headers,
          ...(method === 'POST' ? { payload } : {}),
        });
      expectError(await send({}), 401, 'unauthorized');
      expectError(await send(auth(p.Carol!)), 403, 'forbidden');
      expectError(await send({ authorization: 'Bearer made-up-token' }), 401, 'unknown-token');
    }
    expect(await app.prisma.modAction.count()).toBe(before);
    expect((await app.prisma.player.findUniqueOrThrow({ where: { id: p.Moddy!.id } })).markedAt).toBeNull();
  });

  it('a moderator by the setting and one by the CLI both pass; the CLI grant is in the log', async () => {
    expect((await get(p.SettingMod!, '/api/mod/queue')).statusCode).toBe(200);
    expect((await get(p.Moddy!, '/api/mod/queue')).statusCode).toBe(200);
    const log = ModLogSchema.parse((await get(p.Moddy!, '/api/mod/log')).json());
    expect(log.entries).toContainEqual(
      expect.objectContaining({ moderatorId: 'cli', action: 'grant', playerId: p.Moddy!.id }),
    );
  });

  it('reports: one open per reporter and player; not yourself, nobody unknown, no unknown game', async () => {
    const r = await post(p.Carol!, '/api/reports', {
      playerId: p.Alice!.id,
      reason: 'assistance',
      text: 'too fast',
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(ReportSchema.parse(r.json())).toMatchObject({
      status: 'open',
      text: 'too fast',
      reporterId: p.Carol!.id,
    });
    expectError(
      await post(p.Carol!, '/api/reports', { playerId: p.Alice!.id, reason: 'boosting' }),
      409,
      'conflict',
    );
    expectError(
      await post(p.Carol!, '/api/reports', { playerId: p.Carol!.id, reason: 'other' }),
      400,
      'bad-request',
    );
    expectError(
      await post(p.Carol!, '/api/reports', { playerId: 'nobody-at-all', reason: 'other' }),
      404,
      'not-found',
    );
    expectError(
      await post(p.Carol!, '/api/reports', { playerId: p.Bob!.id, reason: 'other', gameId: 'no-such-game' }),
      404,
      'not-found',
    );
    const count = await app.prisma.report.count();
    for (const bad of [
      { playerId: p.Bob!.id, reason: 'cheater!!' },
      { playerId: p.Bob!.id },
      { reason: 'other' },
    ])
      expectError(await post(p.Carol!, '/api/reports', bad), 400, 'bad-request');
    expectError(
      await post(null, '/api/reports', { playerId: p.Bob!.id, reason: 'other' }),
      401,
      'unauthorized',
    );
    expect(await app.prisma.report.count()).toBe(count);
    // Two reports at once by one reporter about one player: one is filed, the other refused.
    const twice = await Promise.all(
      [0, 1].map(() => post(p.Erin!, '/api/reports', { playerId: p.Bob!.id, reason: 'abuse' })),
    );
    expect(twice.map((x) => x.statusCode).sort()).toEqual([201, 409]);
    await app.prisma.report.deleteMany({ where: { reporterId: p.Erin!.id, playerId: p.Bob!.id } });
    // Another reporter may report the same player.
    expect(
      (await post(p.Erin!, '/api/reports', { playerId: p.Alice!.id, reason: 'boosting' })).statusCode,
    ).toBe(201);
  });

  it('the queue holds a flagged player with their signals and a reported player with the reports', async () => {
    await app.prisma.fairPlayFlag.create({
      data: {
        playerId: p.Dave!.id,
        gameId: 'g-dave-1',
        reason: 'machine-speed',
        evidence: { fastShare: 0.97 },
      },
    });
    await app.prisma.gameSignals.create({
      data: {
        gameId: 'g-dave-1',
        playerId: p.Dave!.id,
        kind: 'race',
        moves: 120,
        medianGapMs: 60,
        fastShare: 0.97,
        gapVariation: 0.05,
        solverAgreement: 1,
        flags: ['machine-speed'],
      },
    });
    const q = ModQueueSchema.parse((await get(p.Moddy!, '/api/mod/queue')).json());
    const dave = q.entries.find((e) => e.player.id === p.Dave!.id);
    expect(dave?.flags.map((f) => [f.reason, f.evidence])).toEqual([['machine-speed', { fastShare: 0.97 }]]);
    expect(dave?.games.map((g) => [g.gameId, g.fastShare, g.flags])).toEqual([
      ['g-dave-1', 0.97, ['machine-speed']],
    ]);
    const alice = q.entries.find((e) => e.player.id === p.Alice!.id);
    expect(alice?.reports.map((r) => r.reporterId).sort()).toEqual([p.Carol!.id, p.Erin!.id].sort());
    const view = ModPlayerViewSchema.parse((await get(p.Moddy!, `/api/mod/players/${p.Dave!.id}`)).json());
    expect(view.flags).toHaveLength(1);
  });

  it('a mark: off the rating list and the daily board, the beaten opponent refunded to the cent, logged', async () => {
    expect(await onRatingList(p.Alice!.id)).toBe(true);
    expect(await onDailyBoard(p.Alice!.id)).toBe(true);
    const r = await post(p.Moddy!, `/api/mod/players/${p.Alice!.id}/mark`, { reason: 'solver lines' });
    expect(r.statusCode, r.body).toBe(200);
    const result = MarkResultSchema.parse(r.json());
    // Only R1's Bob: Dave gained in R1, Bob beat Alice in R2, R3 was unrated.
    expect(result).toEqual({
      playerId: p.Alice!.id,
      marked: true,
      refunds: [{ playerId: p.Bob!.id, raceCode: 'R1', pool: POOL, points: 12.75 }],
    });
    expect(await rating(p.Bob!.id)).toBe(1495 + 12.75);
    expect(await rating(p.Dave!.id)).toBe(1401);
    expect(await onRatingList(p.Alice!.id)).toBe(false);
    expect(await onRatingList(p.Bob!.id)).toBe(true);
    expect(await onDailyBoard(p.Alice!.id)).toBe(false);
    expect(await onDailyBoard(p.Bob!.id)).toBe(true);
    // Nor does she see a place of her own on it.
    const mine = await get(p.Alice!, `/api/daily/${today()}/classic-draw1/leaderboard?include=provisional`);
    expect(LeaderboardSchema.parse(mine.json()).me).toBeNull();
    expect(PlayerPageSchema.parse((await get(null, `/api/players/${p.Alice!.id}`)).json()).marked).toBe(true);
    expect(PlayerPageSchema.parse((await get(null, `/api/players/${p.Bob!.id}`)).json()).marked).toBe(false);
    const log = ModLogSchema.parse((await get(p.Moddy!, '/api/mod/log')).json());
    expect(log.entries[0]).toMatchObject({
      moderatorId: p.Moddy!.id,
      moderatorName: 'Moddy',
      action: 'mark',
      playerId: p.Alice!.id,
      reason: 'solver lines',
    });
    // The reports about her are closed as `marked`: a new one may be filed.
    const view = ModPlayerViewSchema.parse((await get(p.Moddy!, `/api/mod/players/${p.Alice!.id}`)).json());
    expect(view.reports).toEqual([]);
    expect(view.allReports.map((x) => x.status)).toEqual(['marked', 'marked']);
    expect(
      (await post(p.Carol!, '/api/reports', { playerId: p.Alice!.id, reason: 'other' })).statusCode,
    ).toBe(201);
    // A second mark: 409, and nothing applied twice.
    expectError(
      await post(p.Moddy!, `/api/mod/players/${p.Alice!.id}/mark`, { reason: 'again' }),
      409,
      'conflict',
    );
    expect(await rating(p.Bob!.id)).toBe(1495 + 12.75);
    // A marked account cannot report.
    expectError(
      await post(p.Alice!, '/api/reports', { playerId: p.Bob!.id, reason: 'other' }),
      403,
      'forbidden',
    );
  });

  it('due process: the marked player sees the mark, appeals once, the appeal reaches the queue', async () => {
    expectError(
      await post(p.Bob!, '/api/appeals', { text: 'I am not even marked, but still' }),
      403,
      'forbidden',
    );
    const standing = FairPlayStandingSchema.parse((await get(p.Alice!, '/api/me/fair-play')).json());
    expect(standing).toMatchObject({
      marked: true,
      canAppeal: true,
      appeal: null,
      mark: { reason: 'solver lines' },
    });
    expectError(await post(p.Alice!, '/api/appeals', { text: 'short' }), 400, 'bad-request');
    const a = await post(p.Alice!, '/api/appeals', { text: 'I play fast because I practise a lot.' });
    expect(a.statusCode, a.body).toBe(201);
    expectError(
      await post(p.Alice!, '/api/appeals', { text: 'Please, a second look at it.' }),
      409,
      'conflict',
    );
    const q = ModQueueSchema.parse((await get(p.Moddy!, '/api/mod/queue')).json());
    expect(q.entries.find((e) => e.player.id === p.Alice!.id)?.appeal?.status).toBe('open');
    const after = FairPlayStandingSchema.parse((await get(p.Alice!, '/api/me/fair-play')).json());
    expect(after).toMatchObject({ marked: true, canAppeal: false, appeal: { status: 'open' } });
  });

  it('a granted appeal unmarks and takes the refund back exactly; a second decision is refused', async () => {
    const appeal = await app.prisma.appeal.findFirstOrThrow({ where: { playerId: p.Alice!.id } });
    const r = await post(p.Moddy!, `/api/mod/appeals/${appeal.id}/decide`, {
      outcome: 'granted',
      answer: 'On review the speed is human.',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(AppealSchema.parse(r.json()).status).toBe('granted');
    expect(await rating(p.Bob!.id)).toBe(1495);
    expect(await onRatingList(p.Alice!.id)).toBe(true);
    expect(await onDailyBoard(p.Alice!.id)).toBe(true);
    const standing = FairPlayStandingSchema.parse((await get(p.Alice!, '/api/me/fair-play')).json());
    expect(standing).toMatchObject({ marked: false, canAppeal: false, appeal: { status: 'granted' } });
    expectError(
      await post(p.Moddy!, `/api/mod/appeals/${appeal.id}/decide`, { outcome: 'denied', answer: 'no' + '!' }),
      409,
      'conflict',
    );
    expectError(
      await post(p.Moddy!, `/api/mod/players/${p.Alice!.id}/unmark`, { reason: 'again' }),
      409,
      'conflict',
    );
  });

  it('mark, unmark, mark: the refund is applied once at a time, and unmark restores to the cent', async () => {
    const mark = () => post(p.Moddy!, `/api/mod/players/${p.Alice!.id}/mark`, { reason: 'second look' });
    expect((await mark()).statusCode).toBe(200);
    expect(await rating(p.Bob!.id)).toBe(1495 + 12.75);
    const u = await post(p.Moddy!, `/api/mod/players/${p.Alice!.id}/unmark`, { reason: 'mistake' });
    expect(u.statusCode, u.body).toBe(200);
    expect(MarkResultSchema.parse(u.json()).refunds).toEqual([
      { playerId: p.Bob!.id, raceCode: 'R1', pool: POOL, points: 12.75 },
    ]);
    expect(await rating(p.Bob!.id)).toBe(1495);
    // Two moderators marking at once: one mark, one refund.
    const both = await Promise.all([mark(), mark()]);
    expect(both.map((x) => x.statusCode).sort()).toEqual([200, 409]);
    expect(await rating(p.Bob!.id)).toBe(1495 + 12.75);
    // A new mark: a new appeal is allowed (once per mark).
    expect(FairPlayStandingSchema.parse((await get(p.Alice!, '/api/me/fair-play')).json()).canAppeal).toBe(
      true,
    );
    // The refund rows stay with their marks.
    expect(await app.prisma.ratingRefund.count({ where: { playerId: p.Bob!.id } })).toBe(3);
  });

  it('a marked player’s later rated races are void: they rate nobody and are not rated', async () => {
    const repo = new RatingRepository(app.prisma);
    await app.prisma.race.create({
      data: {
        code: 'R4',
        status: 'finished',
        preset: 'classic-draw1',
        options: {},
        dealKind: 'random',
        deal: 'x',
        maxPlayers: 4,
        hostId: p.Alice!.id,
        rated: true,
      },
    });
    const moved = await app.prisma.$transaction((tx) =>
      repo.rateRaceIn(tx, POOL, today(), 'R4', [
        { playerId: p.Alice!.id, placement: 1 },
        { playerId: p.Bob!.id, placement: 2 },
        { playerId: p.Erin!.id, placement: 3 },
      ]),
    );
    expect(moved.map((m) => m.playerId).sort()).toEqual([p.Bob!.id, p.Erin!.id].sort());
    // Bob beat Erin: he gains, and nothing of Alice's win over him counts.
    const bob = moved.find((m) => m.playerId === p.Bob!.id)!;
    expect(bob.after).toBeGreaterThan(bob.before);
    expect(bob.before).toBe(1495 + 12.75);
  });

  it('a marked player is in no arena standing (nor its podium)', async () => {
    const now = app.now();
    await app.prisma.arena.create({
      data: {
        id: 'ARENAMARK2',
        name: 'Marked arena',
        preset: 'classic-draw1',
        startsAt: new Date(now - 3_600_000),
        endsAt: new Date(now - 60_000),
        finishedAt: new Date(now - 60_000),
        raceTimeLimitMs: 300_000,
        createdAt: new Date(now - 7_200_000),
        players: {
          create: [
            { playerId: p.Alice!.id, joinedAt: new Date(now - 3_600_000), points: 30, games: 3, wins: 3 },
            { playerId: p.Bob!.id, joinedAt: new Date(now - 3_600_000), points: 4, games: 3, wins: 1 },
          ],
        },
      },
    });
    const r = await get(null, '/api/arenas/ARENAMARK2');
    expect(r.statusCode, r.body).toBe(200);
    const arena = ArenaSchema.parse(r.json());
    expect(arena.standings.map((s) => [s.rank, s.playerId])).toEqual([[1, p.Bob!.id]]);
    expect(arena.podium?.map((s) => s.playerId)).toEqual([p.Bob!.id]);
  });

  it('a moderator cannot mark themselves; a bad body is 400 and changes nothing', async () => {
    expectError(
      await post(p.Moddy!, `/api/mod/players/${p.Moddy!.id}/mark`, { reason: 'oops' }),
      403,
      'forbidden',
    );
    for (const bad of [{}, { reason: 'x' }, { reason: 'fine reason', extra: 1 }])
      expectError(await post(p.Moddy!, `/api/mod/players/${p.Bob!.id}/mark`, bad), 400, 'bad-request');
    expectError(
      await post(p.Moddy!, `/api/mod/players/nobody-at-all/mark`, { reason: 'ghost' }),
      404,
      'not-found',
    );
    expect((await app.prisma.player.findUniqueOrThrow({ where: { id: p.Bob!.id } })).markedAt).toBeNull();
  });

  it('rename under the name rules, dismiss, close: each logged; a closed account is signed out', async () => {
    expectError(
      await post(p.Moddy!, `/api/mod/players/${p.Dave!.id}/rename`, { name: 'ALICE', reason: 'taken name' }),
      409,
      'conflict',
    );
    const r = await post(p.Moddy!, `/api/mod/players/${p.Dave!.id}/rename`, {
      name: 'Player 7',
      reason: 'rude',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(ModPlayerViewSchema.parse(r.json()).player.name).toBe('Player 7');
    const d = await post(p.Moddy!, `/api/mod/players/${p.Dave!.id}/dismiss`, { reason: 'human speed' });
    expect(d.statusCode, d.body).toBe(200);
    expect(ModPlayerViewSchema.parse(d.json()).flags).toEqual([]);
    expectError(
      await post(p.Moddy!, `/api/mod/players/${p.Dave!.id}/dismiss`, { reason: 'again' }),
      409,
      'conflict',
    );
    expect((await get(p.Dave!, '/api/me')).statusCode).toBe(200);
    const c = await post(p.Moddy!, `/api/mod/players/${p.Dave!.id}/close`, { reason: 'second account' });
    expect(c.statusCode, c.body).toBe(200);
    expectError(await get(p.Dave!, '/api/me'), 401, 'unknown-token');
    expectError(
      await post(p.Moddy!, `/api/mod/players/${p.Dave!.id}/close`, { reason: 'again' }),
      409,
      'conflict',
    );
    expect(await onRatingList(p.Dave!.id)).toBe(false);
    const log = ModLogSchema.parse((await get(p.Moddy!, `/api/mod/log?limit=3`)).json());
    expect(log.entries.map((e) => e.action)).toEqual(['close', 'dismiss', 'rename']);
    expect(log.next).not.toBeNull();
    const older = ModLogSchema.parse((await get(p.Moddy!, `/api/mod/log?limit=3&before=${log.next}`)).json());
    expect(older.entries[0]!.id).toBeLessThan(log.entries[2]!.id);
  });

  it('the published figures count reports, flags, marks, unmarks and appeals by month, for anyone', async () => {
    const r = await get(null, '/api/fair-play/stats');
    expect(r.statusCode, r.body).toBe(200);
    const month = new Date(app.now()).toISOString().slice(0, 7);
    expect(FairPlayStatsSchema.parse(r.json()).months).toEqual([
      {
        month,
        reportsReceived: 3,
        reportsClosed: 3,
        flags: 1,
        marks: 3,
        unmarks: 2,
        appeals: 1,
        appealsGranted: 1,
      },
    ]);
  });
});

describe('moderation: the per-reporter limit and the CLI [PGlite]', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(pgliteDatabase(), { config: { rateLimitMax: 1000, reportRateMax: 2 } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('a reporter gets 429 past REPORT_RATE_MAX an hour, whoever they report', async () => {
    const players: Player[] = [];
    for (const name of ['Rita', 'Sam', 'Tom', 'Uma']) {
      const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
      players.push(PlayerCreatedSchema.parse(r.json()));
    }
    const [rita, ...others] = players;
    const codes = [];
    for (const o of others)
      codes.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/reports',
            headers: { authorization: `Bearer ${rita!.token}` },
            payload: { playerId: o.id, reason: 'other' },
          })
        ).statusCode,
      );
    expect(codes).toEqual([201, 201, 429]);
    expect(await app.prisma.report.count()).toBe(2);
  });

  it('the CLI grants, refuses twice, lists, revokes; unknown players and commands are refused', async () => {
    const repo = new ModerationRepository(app.prisma);
    const id = (await app.prisma.player.findFirstOrThrow({ where: { name: 'Sam' } })).id;
    expect((await moderatorCommand(repo, ['grant', id], 0)).status).toBe(0);
    expect((await moderatorCommand(repo, ['grant', id], 0)).status).toBe(1);
    expect((await moderatorCommand(repo, ['list'], 0)).output).toContain(id);
    expect((await moderatorCommand(repo, ['revoke', id], 0)).status).toBe(0);
    expect((await moderatorCommand(repo, ['revoke', id], 0)).status).toBe(1);
    expect((await moderatorCommand(repo, ['grant', 'nobody'], 0)).status).toBe(1);
    expect((await moderatorCommand(repo, ['promote', id], 0)).status).toBe(2);
    expect((await moderatorCommand(repo, ['grant'], 0)).status).toBe(2);
    const actions = await app.prisma.modAction.findMany({ orderBy: { id: 'asc' } });
    expect(actions.map((a) => [a.moderatorId, a.action])).toEqual([
      ['cli', 'grant'],
      ['cli', 'revoke'],
    ]);
  });
});
