/**
 * Automatic flags end to end, on PGlite and on Postgres (issue 55 item 2): a human account that plays its
 * ranked daily attempt at machine speed gets its game's GameSignals row and an open `machine-speed` flag with
 * the evidence (what the moderators' queue reads); one that plays at a human pace gets its row and no flag; a
 * bot account at machine speed gets its row and no speed flag (bots may be fast). A second pass writes
 * nothing more (idempotent: one row a game, one flag per player, reason and game). The log's times come from
 * the app's injectable clock.
 */
import { GameResponseSchema, PlayerCreatedSchema } from '@klondike/protocol';
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

  it('a pass writes each game its signals row; the machine-speed human is flagged with evidence', async () => {
    expect(await app.signals.sweep()).toBe(3);
    const rows = await app.prisma.gameSignals.findMany();
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
      expect.arrayContaining([[players.fast?.id, 'machine-speed', gameOf.fast]]),
    );
    expect(flags.every((f) => f.playerId === players.fast?.id)).toBe(true);
    const speed = flags.find((f) => f.reason === 'machine-speed');
    expect(speed).toMatchObject({ closedAt: null, evidence: { moves: 40, medianGapMs: 40, kind: 'daily' } });
  });

  it('a second pass writes nothing more: one row a game, no duplicate flag', async () => {
    const before = await app.prisma.fairPlayFlag.count();
    expect(await app.signals.sweep()).toBe(0);
    expect(await app.prisma.gameSignals.count()).toBe(3);
    expect(await app.prisma.fairPlayFlag.count()).toBe(before);
  });
});
