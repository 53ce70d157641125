/**
 * Bot accounts (POST /api/players {"bot":true}): labelled as bots in every player view, leaderboard and race
 * room; ranked on the bot boards only (a bot's ranked daily never reaches the human board, and asking for
 * its place there is refused); races only against other bots; a rate limit of their own per token.
 */
import {
  AllTimeLeaderboardSchema,
  ErrorBodySchema,
  GameResponseSchema,
  LeaderboardSchema,
  MeSchema,
  PlayerCreatedSchema,
  PlayerPageSchema,
  RaceSchema,
  ReplaySchema,
} from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, describeEachDatabase, testApp } from '../../support/helpers.js';

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

const SECRET = 'test-bot-daily-secret-0123456789';
const DAY = '2025-05-20';
const bearer = (p: Player) => ({ authorization: `Bearer ${p.token}` });

function expectError(r: LightMyRequestResponse, status: number, code: string): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(ErrorBodySchema.parse(r.json()).error.code).toBe(code);
}

async function create(app: FastifyInstance, name: string, bot?: boolean): Promise<Player> {
  const r = await app.inject({
    method: 'POST',
    url: '/api/players',
    payload: bot === undefined ? { name } : { name, bot },
  });
  expect(r.statusCode, r.body).toBe(201);
  return PlayerCreatedSchema.parse(r.json());
}

describeEachDatabase('bot accounts', (db) => {
  let app: FastifyInstance;
  // Accounts are made the day before (rows of accounts created on a daily's own date are provisional).
  let clock = Date.parse(`${DAY}T12:00:00.000Z`) - 86_400_000;
  let human: Player;
  let human2: Player;
  let bot: Player;
  let bot2: Player;

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => clock,
      config: { dailyArchiveDays: 0, dailySecret: SECRET, raceCountdownMs: 30 },
    });
    human = await create(app, 'Ada');
    human2 = await create(app, 'Grace', false);
    bot = await create(app, 'DrawBot', true);
    bot2 = await create(app, 'FoundationBot', true);
    clock = Date.parse(`${DAY}T12:00:00.000Z`);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  it('POST /api/players {"bot":true} creates a bot; /api/me and player pages label it', async () => {
    expect(bot.bot).toBe(true);
    expect(human.bot).toBe(false);
    expect(human2.bot).toBe(false);
    const row = await app.prisma.player.findUniqueOrThrow({ where: { id: bot.id } });
    expect(row.bot).toBe(true);

    const me = MeSchema.parse((await app.inject({ url: '/api/me', headers: bearer(bot) })).json());
    expect(me.bot).toBe(true);
    const page = PlayerPageSchema.parse((await app.inject({ url: `/api/players/${human.id}` })).json());
    expect(page.bot).toBe(false);
    expect(PlayerPageSchema.parse((await app.inject({ url: `/api/players/${bot.id}` })).json()).bot).toBe(
      true,
    );

    // A bad flag is a bad request and creates nothing.
    const bad = await app.inject({
      method: 'POST',
      url: '/api/players',
      payload: { name: 'Nobot', bot: 'yes' },
    });
    expectError(bad, 400, 'bad-request');
    expect(await app.prisma.player.count({ where: { name: 'Nobot' } })).toBe(0);
  });

  it("a bot's ranked daily goes to the bot board only; its place on the human board is refused", async () => {
    const url = `/api/daily/${DAY}/classic-draw1`;
    const play = async (p: Player): Promise<void> => {
      const a = await app.inject({ method: 'POST', url: `${url}/attempt`, headers: bearer(p) });
      expect(a.statusCode, a.body).toBe(201);
      const game = GameResponseSchema.parse(a.json());
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${game.id}/resign`,
        headers: bearer(p),
        payload: {},
      });
      expect(r.statusCode, r.body).toBe(200);
    };
    await play(human);
    await play(bot);

    const humans = LeaderboardSchema.parse((await app.inject({ url: `${url}/leaderboard` })).json());
    expect(humans.board).toBe('humans');
    expect(humans.total).toBe(1);
    expect(humans.entries.map((e) => [e.playerId, e.bot])).toEqual([[human.id, false]]);

    const bots = LeaderboardSchema.parse((await app.inject({ url: `${url}/leaderboard?board=bots` })).json());
    expect(bots.board).toBe('bots');
    expect(bots.total).toBe(1);
    expect(bots.entries.map((e) => [e.playerId, e.bot, e.rank])).toEqual([[bot.id, true, 1]]);

    // The bot asking for its row on the human board is refused; on its own board it gets it.
    expectError(
      await app.inject({ url: `${url}/leaderboard?around=me`, headers: bearer(bot) }),
      403,
      'forbidden',
    );
    const mine = LeaderboardSchema.parse(
      (await app.inject({ url: `${url}/leaderboard?board=bots&around=me`, headers: bearer(bot) })).json(),
    );
    expect(mine.me).toMatchObject({ playerId: bot.id, bot: true, rank: 1 });
    // A person has no place on the bot board either; without around=me the human board has no `me` for a bot.
    expectError(
      await app.inject({ url: `${url}/leaderboard?board=bots&around=me`, headers: bearer(human) }),
      403,
      'forbidden',
    );
    const seenByBot = LeaderboardSchema.parse(
      (await app.inject({ url: `${url}/leaderboard`, headers: bearer(bot) })).json(),
    );
    expect(seenByBot.me).toBeNull();
    expect(seenByBot.entries.some((e) => e.playerId === bot.id)).toBe(false);
    expectError(await app.inject({ url: `${url}/leaderboard?board=robots` }), 400, 'bad-request');

    // All-time: the same split.
    const allHumans = AllTimeLeaderboardSchema.parse((await app.inject({ url: '/api/leaderboard' })).json());
    expect(allHumans.entries.map((e) => [e.playerId, e.bot])).toEqual([[human.id, false]]);
    const allBots = AllTimeLeaderboardSchema.parse(
      (await app.inject({ url: '/api/leaderboard?board=bots' })).json(),
    );
    expect(allBots.entries.map((e) => [e.playerId, e.bot])).toEqual([[bot.id, true]]);

    // The bot's own result carries its rank on its board.
    const page = PlayerPageSchema.parse((await app.inject({ url: `/api/players/${bot.id}` })).json());
    expect(page.recent).toEqual([expect.objectContaining({ status: 'resigned', rank: 1 })]);
  });

  it('bots may play casual games: with their token the game is theirs, without it anonymous', async () => {
    const g = GameResponseSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/games', headers: bearer(bot), payload: {} })).json(),
    );
    const moved = await app.inject({
      method: 'POST',
      url: `/api/games/${g.id}/moves`,
      headers: bearer(bot),
      payload: { move: { type: 'draw' }, version: 0 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // Created with the bot's token: the bot's game (docs/features.md "Statistics"), so others cannot resign it.
    expectError(
      await app.inject({ method: 'POST', url: `/api/games/${g.id}/resign`, payload: {} }),
      401,
      'unauthorized',
    );
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${g.id}/resign`,
      headers: bearer(bot),
      payload: {},
    });
    expect(r.statusCode, r.body).toBe(200);
    const replay = ReplaySchema.parse((await app.inject({ url: `/api/games/${g.id}/replay` })).json());
    expect(replay.player).toEqual({ id: bot.id, name: bot.name, bot: true });
    expect(replay.steps.map((s) => s.type)).toEqual(['move', 'resign']);

    const anon = GameResponseSchema.parse(
      (await app.inject({ method: 'POST', url: '/api/games', payload: {} })).json(),
    );
    const anyone = await app.inject({
      method: 'POST',
      url: `/api/games/${anon.id}/resign`,
      headers: bearer(bot),
      payload: {},
    });
    expect(anyone.statusCode, anyone.body).toBe(200);
    const anonReplay = ReplaySchema.parse((await app.inject({ url: `/api/games/${anon.id}/replay` })).json());
    expect(anonReplay.player).toBeNull();
  });

  it('races: bots race only bots, people only people; racers are labelled', async () => {
    const room = async (host: Player) => {
      const r = await app.inject({ method: 'POST', url: '/api/races', headers: bearer(host), payload: {} });
      expect(r.statusCode, r.body).toBe(201);
      return RaceSchema.parse(r.json());
    };
    const join = (code: string, p: Player) =>
      app.inject({ method: 'POST', url: `/api/races/${code}/join`, headers: bearer(p) });

    const bots = await room(bot);
    expectError(await join(bots.code, human), 403, 'forbidden');
    const joined = await join(bots.code, bot2);
    expect(joined.statusCode, joined.body).toBe(200);
    const view = RaceSchema.parse(joined.json());
    expect(view.racers.map((r) => [r.playerId, r.bot])).toEqual([
      [bot.id, true],
      [bot2.id, true],
    ]);
    const start = await app.inject({
      method: 'POST',
      url: `/api/races/${bots.code}/start`,
      headers: bearer(bot),
    });
    expect(start.statusCode, start.body).toBe(200);

    const people = await room(human);
    expectError(await join(people.code, bot2), 403, 'forbidden');
    const ok = await join(people.code, human2);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(RaceSchema.parse(ok.json()).racers.map((r) => r.bot)).toEqual([false, false]);
    // The stored room (read back from its rows) keeps the labels.
    const stored = await app.prisma.raceRacer.findMany({
      where: { raceCode: bots.code },
      include: { player: { select: { bot: true } } },
    });
    expect(stored.map((s) => s.player.bot)).toEqual([true, true]);
  });
});

describe('bot rate limit', () => {
  const db: TestDatabase = {
    kind: 'pglite',
    config: () => ({ databaseUrl: undefined, dataDir: 'memory://' }),
    cleanup: async () => {},
  };
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db, {
      config: { rateLimitMax: 100, botRateLimitMax: 3, rateLimitWindowMs: 60_000, playerCreateRateMax: 0 },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('each bot token has a limit of its own, on top of its address', async () => {
    const bot = await create(app, 'LimitBot', true);
    const other = await create(app, 'OtherBot', true);
    const person = await create(app, 'Person');
    const me = (p: Player) => app.inject({ url: '/api/me', headers: bearer(p) });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await me(bot)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const refused = await me(bot);
    expectError(refused, 429, 'rate-limited');
    expect(ErrorBodySchema.parse(refused.json()).error.message).toMatch(/bot/);
    // Another bot on the same address has its own budget; a person there is not limited by the bots.
    expect((await me(other)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await me(person)).statusCode).toBe(200);
  });
});
