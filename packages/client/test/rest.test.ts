/**
 * The REST half of the client against the real server: a game played over REST, typed errors for stale and
 * illegal moves, players and bot accounts, and the committed OpenAPI types being current.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KlondikeClient, KlondikeError, isKlondikeError } from '../src/index.js';
import { fetchOpenApi, openApiToTypeScript } from '../scripts/openapi.ts';
import { type TestServer, startServer } from './server.js';

/** Runs `f` and returns the KlondikeError it rejects with (fails the test when it resolves). */
async function refusal(f: () => Promise<unknown>): Promise<KlondikeError> {
  try {
    await f();
  } catch (e) {
    expect(e).toBeInstanceOf(KlondikeError);
    return e as KlondikeError;
  }
  throw new Error('expected a refusal');
}

describe('KlondikeClient (REST) against the real server', () => {
  let server: TestServer;
  let client: KlondikeClient;
  beforeAll(async () => {
    server = await startServer();
    client = new KlondikeClient({ baseUrl: server.url });
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads the service status (getStatus): every part, the nodes, the incidents', async () => {
    const status = await client.getStatus();
    expect(Object.keys(status.parts).sort()).toEqual(['cluster', 'daily', 'moves', 'races', 'solver']);
    expect(status.parts.moves).toEqual({ level: 'up', reason: null });
    expect(status.nodes).toBe(1);
    expect(status.incidents).toEqual([]);
  });

  it('plays a game: create, read, legal moves, move, undo, resign', async () => {
    expect(await client.getHealth()).toEqual({ status: 'ok' });
    const game = await client.createGame({ preset: 'classic-draw1', dealNumber: 617 });
    expect(game.version).toBe(0);
    expect(game.view.stock.count).toBe(24);
    expect(game.dealNumber).toBe(617);
    expect((await client.getGame(game.id)).view).toEqual(game.view);

    const legal = await client.listLegalMoves(game.id);
    expect(legal.version).toBe(0);
    expect(legal.moves).toContainEqual({ type: 'draw' });

    const drawn = await client.playMove(game.id, { type: 'draw' }, 0);
    expect(drawn.version).toBe(1);
    expect(drawn.view.stock.count).toBe(23);
    expect(drawn.view.waste).toHaveLength(1);

    const undone = await client.undoMove(game.id, 1);
    expect(undone.version).toBe(2);
    expect(undone.view.stock.count).toBe(24);

    const resigned = await client.resignGame(game.id, 2);
    expect(resigned.view.status).toBe('resigned');
    // The raw openapi-fetch client reaches every route with the same types.
    const replay = await client.api.GET('/api/games/{id}/replay', { params: { path: { id: game.id } } });
    expect(replay.data?.steps.map((s) => s.type)).toEqual(['move', 'undo', 'resign']);
  });

  it('typed errors: stale-version carries the current version, illegal-move the rule, not-found, bad-request', async () => {
    const game = await client.createGame({ dealNumber: 99 });
    await client.playMove(game.id, { type: 'draw' }, 0);

    const stale = await refusal(() => client.playMove(game.id, { type: 'draw' }, 0));
    expect(stale.code).toBe('stale-version');
    expect(stale.status).toBe(409);
    expect(stale.version).toBe(1);
    expect(isKlondikeError(stale, 'stale-version')).toBe(true);

    const illegal = await refusal(() =>
      client.playMove(game.id, { type: 'move', from: 'fH', to: 't1', count: 1 }, 1),
    );
    expect(illegal.code).toBe('illegal-move');
    expect(illegal.status).toBe(422);
    expect(illegal.reason).toEqual(expect.any(String));
    expect(illegal.version).toBe(1);
    // Neither refusal changed the game.
    expect((await client.getGame(game.id)).version).toBe(1);

    const missing = await refusal(() => client.getGame('no-such-game'));
    expect([missing.code, missing.status]).toEqual(['not-found', 404]);
    const bad = await refusal(() => client.createGame({ dealNumber: 0 }));
    expect([bad.code, bad.status]).toEqual(['bad-request', 400]);
  });

  it('network failures are typed too', async () => {
    const nowhere = new KlondikeClient({ baseUrl: 'http://127.0.0.1:9' });
    const e = await refusal(() => nowhere.getHealth());
    expect(e.code).toBe('network');
  });

  it('players and bot accounts: the token is sent once set; 401 is typed', async () => {
    const own = new KlondikeClient({ baseUrl: server.url });
    const bot = await own.createPlayer('Client Bot', { bot: true });
    expect(bot.bot).toBe(true);
    expect((await refusal(() => own.getMe())).code).toBe('unauthorized');
    expect((await refusal(() => own.getCurrentGame())).code).toBe('unauthorized');
    own.setToken(bot.token);
    expect(await own.getMe()).toMatchObject({ id: bot.id, name: 'Client Bot', bot: true });
    expect(await own.getCurrentGame()).toEqual({ game: null });
    const mine = await own.createGame({ dealNumber: 5 });
    await own.playMove(mine.id, { type: 'draw' }, 0);
    expect((await own.getCurrentGame()).game).toMatchObject({
      id: mine.id,
      kind: 'casual',
      version: 1,
      moves: 1,
    });
    own.setToken('not-a-token');
    const unknown = await refusal(() => own.getMe());
    expect(unknown.status).toBe(401);
    expect(unknown.code).toBe('unknown-token');
    expect(own.socketUrl()).toBe(`${server.url.replace('http', 'ws')}/api/ws`);
  });

  it('the routes the web app uses: daily, races, pairing, arenas, ratings, players, transfer', async () => {
    const host = new KlondikeClient({ baseUrl: server.url });
    const hostPlayer = await host.createPlayer('Host of the race');
    host.setToken(hostPlayer.token);
    const guest = new KlondikeClient({ baseUrl: server.url });
    guest.setToken((await guest.createPlayer('Guest of the race')).token);

    // Daily: today's challenges, the archive, the one ranked attempt (a POST without a body).
    const today = await host.getDailyChallenges();
    expect(today.challenges.length).toBeGreaterThan(0);
    expect(Array.isArray((await host.getDailyArchive()).days)).toBe(true);
    const challenge = today.challenges[0];
    if (!challenge) throw new Error('no daily challenge');
    const attempt = await host.startDailyAttempt(today.date, challenge.preset);
    expect(attempt.version).toBe(0);
    expect((await refusal(() => host.startDailyAttempt(today.date, challenge.preset))).code).toBe('conflict');
    const board = await host.getDailyLeaderboard(today.date, challenge.preset, { offset: 0, limit: 5 });
    expect(Array.isArray(board.entries)).toBe(true);

    // Races: create, join and ready (bodyless and bodied POSTs), read.
    const race = await host.createRace({ preset: 'classic-draw1' });
    expect((await guest.joinRace(race.code)).racers).toHaveLength(2);
    const ready = await guest.setRaceReady(race.code, true);
    expect(ready.code).toBe(race.code);
    expect((await host.getRace(race.code)).code).toBe(race.code);
    // A race still in its lobby has no results yet: refused with a typed error.
    expect((await refusal(() => host.getRaceResults(race.code))).status).toBeGreaterThanOrEqual(400);

    // Pairing: enter, read, leave.
    expect((await guest.enterPairing('classic-draw1')).status).toBe('waiting');
    expect((await guest.getPairing()).status).toBe('waiting');
    expect((await guest.leavePairing()).status).toBe('idle');

    // Arenas and ratings, players' pages.
    expect(Array.isArray((await host.listArenas()).upcoming)).toBe(true);
    expect((await refusal(() => host.getArena('no-such-arena'))).status).toBeGreaterThanOrEqual(400);
    expect(Array.isArray((await host.getRatingLeaderboard('race-classic-draw1', { limit: 5 })).entries)).toBe(
      true,
    );
    expect((await host.getPlayer(hostPlayer.id)).name).toBe('Host of the race');
    expect((await host.listPlayerGames(hostPlayer.id, { limit: 5 })).games).toEqual([]);
    expect((await host.updateMe({ name: 'Host renamed' })).name).toBe('Host renamed');
    const transfer = await host.createTransferCode();
    expect((await new KlondikeClient({ baseUrl: server.url }).redeemTransferCode(transfer.code)).id).toBe(
      hostPlayer.id,
    );
  });

  it('src/generated/openapi.ts is what `pnpm --filter @klondike/client generate` makes from the server now', async () => {
    const committed = readFileSync(new URL('../src/generated/openapi.ts', import.meta.url), 'utf8');
    const fresh = await openApiToTypeScript(await fetchOpenApi(server.url));
    // When this fails, a route or a protocol schema changed: run the generate script and commit the file.
    expect(
      committed === fresh,
      'src/generated/openapi.ts is stale: run pnpm --filter @klondike/client generate',
    ).toBe(true);
  });
});
