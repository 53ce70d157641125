/**
 * Automatic flags end to end, on PGlite and on Postgres (issue 55 item 2): a human account that plays its
 * ranked daily attempt at machine speed gets its game's GameSignals row and an open `machine-speed` flag with
 * the evidence (what the moderators' queue reads); one that plays at a human pace gets its row and no flag; a
 * bot account at machine speed gets its row and no speed flag (bots may be fast). The account rules read
 * the players' earlier games: three fast games of one human flag the account (`repeated-signals`), and a
 * bot that found the hidden winning branch every time is flagged for `hidden-knowledge`. A second pass writes
 * nothing more (idempotent: one row a game, one flag per player, reason and game). The moderators' queue lists
 * the flagged human with its signals. The log's times come from the app's injectable clock.
 */
import { GameResponseSchema, ModQueueSchema, PlayerCreatedSchema } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

const SECRET = 'test-signals-secret-0123456789abcdef';
const DAY = '2025-03-10';
/** 40 moves any classic-draw1 deal takes: the 24 stock cards drawn, a recycle, 15 more draws. */
const DRAWS: Move[] = [
  ...Array.from({ length: 24 }, (): Move => ({ type: 'draw' })),
  { type: 'recycle' },
  ...Array.from({ length: 15 }, (): Move => ({ type: 'draw' })),
];

describeEachDatabase('fair-play flags of rated games', (db) => {
  let app: FastifyInstance;
  let clock = Date.parse(`${DAY}T12:00:00.000Z`);
  const players: Record<string, { id: string; token: string }> = {};
  const gameOf: Record<string, string> = {};

  beforeAll(async () => {
    app = await testApp(db, { now: () => clock, config: { dailySecret: SECRET, signalsSolveNodes: 5_000 } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function post(url: string, as: string | undefined, payload: object): Promise<unknown> {
    const token = as === undefined ? undefined : players[as]?.token;
    const r = await app.inject({
      method: 'POST',
      url,
      payload,
      ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
    expect(r.statusCode, r.body).toBeLessThan(300);
    return r.json();
  }

  /** `as` plays its ranked attempt: DRAWS with `gap()` ms of server time between moves, then resigns. */
  async function playAttempt(as: string, gap: (i: number) => number): Promise<string> {
    const game = GameResponseSchema.parse(await post(`/api/daily/${DAY}/classic-draw1/attempt`, as, {}));
    let version = game.version;
    for (const [i, move] of DRAWS.entries()) {
      clock += i === 0 ? 5_000 : gap(i);
      await post(`/api/games/${game.id}/moves`, as, { move, version });
      version++;
    }
    clock += 1_000;
    await post(`/api/games/${game.id}/resign`, as, {});
    gameOf[as] = game.id;
    return game.id;
  }

  it('players play their ranked attempts: one at machine speed, one at a human pace, one bot', async () => {
    const today = clock;
    clock -= 86_400_000;
    for (const [key, body] of [
      ['fast', { name: 'Speedy' }],
      ['slow', { name: 'Thinker' }],
      ['bot', { name: 'Robo', bot: true }],
    ] as const)
      players[key] = PlayerCreatedSchema.parse(await post('/api/players', undefined, body));
    clock = today;
    await playAttempt('fast', () => 40);
    // Irregular human gaps: 1.2 s … 4.7 s.
    await playAttempt('slow', (i) => 1_200 + ((i * 7919) % 3_500));
    await playAttempt('bot', () => 40);
    expect(await app.prisma.dailyResult.count()).toBe(3);
  });

  it('earlier games: two fast ones of the fast human, a bot that always found the hidden winning branch', async () => {
    const earlier = new Date(clock - 3_600_000);
    const row = { kind: 'daily', moves: 40, fastShare: 0, computedAt: earlier };
    await app.prisma.gameSignals.createMany({
      data: [
        { ...row, gameId: 'old-fast-1', playerId: players.fast?.id ?? '', medianGapMs: 250 },
        { ...row, gameId: 'old-fast-2', playerId: players.fast?.id ?? '', medianGapMs: 260 },
        {
          ...row,
          gameId: 'old-slow-1',
          playerId: players.slow?.id ?? '',
          medianGapMs: 2_000,
          hiddenChoices: 9,
          hiddenHits: 5,
        },
        {
          ...row,
          gameId: 'old-bot-1',
          playerId: players.bot?.id ?? '',
          medianGapMs: 40,
          hiddenChoices: 10,
          hiddenHits: 10,
        },
        {
          ...row,
          gameId: 'old-bot-2',
          playerId: players.bot?.id ?? '',
          medianGapMs: 40,
          hiddenChoices: 10,
          hiddenHits: 10,
        },
      ],
    });
  });

  it('a pass writes each game its signals row; the machine-speed human is flagged with evidence', async () => {
    expect(await app.signals.sweep()).toBe(3);
    const rows = await app.prisma.gameSignals.findMany({ where: { gameId: { in: Object.values(gameOf) } } });
    expect(rows).toHaveLength(3);
    const fast = rows.find((r) => r.gameId === gameOf.fast);
    expect(fast).toMatchObject({
      playerId: players.fast?.id,
      kind: 'daily',
      moves: 40,
      medianGapMs: 40,
      fastShare: 1,
      flags: expect.arrayContaining(['machine-speed']) as unknown,
    });
    const slow = rows.find((r) => r.gameId === gameOf.slow);
    expect(slow).toMatchObject({ moves: 40, fastShare: 0, flags: [] });
    expect(slow?.medianGapMs).toBeGreaterThan(1_000);
    const bot = rows.find((r) => r.gameId === gameOf.bot);
    expect(bot).toMatchObject({ medianGapMs: 40, flags: [] });

    const flags = await app.prisma.fairPlayFlag.findMany();
    expect(flags.map((f) => [f.playerId, f.reason, f.gameId])).toEqual(
      expect.arrayContaining([
        [players.fast?.id, 'machine-speed', gameOf.fast],
        // Three of the last ten games under 300 ms: an account flag, with the games as evidence.
        [players.fast?.id, 'repeated-signals', null],
        // Bots may be fast, but nobody may see face-down cards: 20 of 20 hidden choices over its games.
        [players.bot?.id, 'hidden-knowledge', null],
      ]),
    );
    // The human-paced player (5 hits of 9 choices) is flagged for nothing; the bot for nothing else.
    expect(flags.filter((f) => f.playerId === players.slow?.id)).toEqual([]);
    expect(flags.filter((f) => f.playerId === players.bot?.id).map((f) => f.reason)).toEqual([
      'hidden-knowledge',
    ]);
    expect(flags.find((f) => f.reason === 'repeated-signals')?.evidence).toMatchObject({
      games: expect.arrayContaining([gameOf.fast, 'old-fast-1', 'old-fast-2']) as unknown,
    });
    const speed = flags.find((f) => f.reason === 'machine-speed');
    expect(speed).toMatchObject({ closedAt: null, evidence: { moves: 40, medianGapMs: 40, kind: 'daily' } });
  });

  it("the moderators' queue lists the machine-speed human with its flags and its game's signals", async () => {
    players.mod = PlayerCreatedSchema.parse(await post('/api/players', undefined, { name: 'Warden' }));
    await app.prisma.moderator.create({ data: { playerId: players.mod.id, grantedBy: 'cli' } });
    const r = await app.inject({
      method: 'GET',
      url: '/api/mod/queue',
      headers: { authorization: `Bearer ${players.mod.token}` },
    });
    expect(r.statusCode, r.body).toBe(200);
    const queue = ModQueueSchema.parse(r.json());
    const fast = queue.entries.find((e) => e.player.id === players.fast?.id);
    expect(fast?.flags.map((f) => f.reason)).toEqual(
      expect.arrayContaining(['machine-speed', 'repeated-signals']),
    );
    expect(fast?.games.find((g) => g.gameId === gameOf.fast)).toMatchObject({
      medianGapMs: 40,
      fastShare: 1,
      flags: expect.arrayContaining(['machine-speed']) as unknown,
    });
    // The human-paced player is not in the queue; a non-moderator may not read it.
    expect(queue.entries.some((e) => e.player.id === players.slow?.id)).toBe(false);
    const refused = await app.inject({
      method: 'GET',
      url: '/api/mod/queue',
      headers: { authorization: `Bearer ${players.slow?.token ?? ''}` },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('a second pass writes nothing more: one row a game, no duplicate flag', async () => {
    const before = await app.prisma.fairPlayFlag.count();
    expect(await app.signals.sweep()).toBe(0);
    expect(await app.prisma.gameSignals.count()).toBe(8);
    expect(await app.prisma.fairPlayFlag.count()).toBe(before);
  });
});
