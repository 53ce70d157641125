/**
 * Live races over real sockets (ws) against a listening server, on PGlite and on Postgres: create, join,
 * ready, countdown, progress frames after every move, finish order, stored results, public replays,
 * rematch — with an audit of every frame each racer and spectator received (no card hidden in the
 * receiver's own game; for spectators no hidden card of any racer's game, and no race frame carries a card).
 */
import {
  GameResponseSchema,
  RaceResultsSchema,
  ReplaySchema,
  type Race,
  type ServerFrame,
} from '@klondike/protocol';
import { PRESETS, dealFromNumber, formatDeal, hiddenCards, type Move } from '@klondike/rules';
import { solve } from '@klondike/solver';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type WsClient, describeEachDatabase, leakedCards, testApp } from '../../support/helpers.js';
import {
  CARD_IN_JSON,
  type ProgressFrame,
  type RaceFrame,
  type TestPlayer,
  call,
  expectError,
  isProgress,
  isRace,
  newPlayer,
  raceOf,
  raceSocket,
  subscribeGame,
} from '../../support/race-helpers.js';

/** A deal number the solver wins at once under classic-draw1. */
const DEAL = 11;

function winningLine(): Move[] {
  const deal = dealFromNumber(DEAL);
  if (!deal.ok) throw new Error('bad deal');
  const r = solve(deal.value, PRESETS['classic-draw1'], { timeLimitMs: 10_000 });
  if (r.verdict !== 'won' || r.line === undefined) throw new Error(`deal ${DEAL} not solved: ${r.verdict}`);
  return r.line;
}

describeEachDatabase('races over sockets', (db) => {
  let app: FastifyInstance;
  const clients: WsClient[] = [];
  let alice: TestPlayer;
  let bob: TestPlayer;

  beforeAll(async () => {
    app = await testApp(db, { config: { raceCountdownMs: 50, raceAwayForfeitMs: 300 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    alice = await newPlayer(app, 'alice');
    bob = await newPlayer(app, 'bob');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  it('create → join → ready → countdown → progress per move → finish order → results stored → replays → rematch; no frame leaks a hidden card', async () => {
    const line = winningLine();
    const created = raceOf(
      await call(app, 'POST', '/api/races', { as: alice, payload: { deal: { dealNumber: DEAL } } }),
      201,
    );
    expect(created).toMatchObject({
      status: 'lobby',
      url: `/race/${created.code}`,
      knownDeal: true,
      options: { hints: false, undo: true },
      preset: 'classic-draw1',
      maxPlayers: 2,
      you: alice.id,
      yourGameId: null,
      racers: [{ playerId: alice.id, host: true, ready: false, presence: 'here', progress: null }],
    });
    const code = created.code;

    const aSock = await raceSocket(app, code, alice, clients);
    const bSock = await raceSocket(app, code, bob, clients); // not a racer yet: a spectator view
    const spec = await raceSocket(app, code, undefined, clients);
    expect(spec.frames.find(isRace())?.race).toMatchObject({ you: null, yourGameId: null });

    const joined = raceOf(await call(app, 'POST', `/api/races/${code}/join`, { as: bob }));
    expect(joined.racers.map((r) => r.playerId)).toEqual([alice.id, bob.id]);
    await aSock.waitFor(isRace((r) => r.racers.length === 2));
    // bob re-subscribes as a racer now that he is one
    bSock.send({ type: 'race-unsubscribe', code });
    await bSock.request(
      { type: 'race-subscribe', code },
      isRace((r) => r.you === bob.id),
    );

    raceOf(await call(app, 'POST', `/api/races/${code}/ready`, { as: alice, payload: { ready: true } }));
    const last = raceOf(
      await call(app, 'POST', `/api/races/${code}/ready`, { as: bob, payload: { ready: true } }),
    );
    expect(last.status).toBe('countdown');
    expect(last.startsAt).not.toBeNull();
    const countdown = (await spec.waitFor(isRace((r) => r.status === 'countdown'))) as RaceFrame;
    expect(Number.isNaN(Date.parse(countdown.race.startsAt ?? ''))).toBe(false);

    const aRun = (await aSock.waitFor(isRace((r) => r.status === 'running'))) as RaceFrame;
    const bRun = (await bSock.waitFor(isRace((r) => r.status === 'running'))) as RaceFrame;
    const sRun = (await spec.waitFor(isRace((r) => r.status === 'running'))) as RaceFrame;
    const aGame = aRun.race.yourGameId as string;
    const bGame = bRun.race.yourGameId as string;
    expect(aGame).toBeTruthy();
    expect(bGame).toBeTruthy();
    expect(aGame).not.toBe(bGame);
    expect(sRun.race).toMatchObject({ you: null, yourGameId: null });
    expect(JSON.stringify(aSock.texts)).not.toContain(bGame);
    expect(JSON.stringify(spec.texts)).not.toContain(aGame);

    // Same deal and options for both; each game is its racer's alone.
    const aState = app.rooms.peekState(aGame);
    const bState = app.rooms.peekState(bGame);
    expect(formatDeal(aState?.deal ?? [])).toBe(formatDeal(bState?.deal ?? []));
    expect(aState?.options).toEqual(bState?.options);
    expectError(await call(app, 'GET', `/api/games/${aGame}`), 401, 'unauthorized');
    expectError(await call(app, 'GET', `/api/games/${aGame}`, { as: bob }), 403, 'forbidden');
    expectError(
      await call(app, 'POST', `/api/games/${aGame}/moves`, {
        as: bob,
        payload: { move: { type: 'draw' }, version: 0 },
      }),
      403,
      'forbidden',
    );
    expectError(await call(app, 'GET', `/api/games/${aGame}/deal`, { as: alice }), 403, 'forbidden');
    expect(
      GameResponseSchema.parse((await call(app, 'GET', `/api/games/${aGame}`, { as: alice })).json()).id,
    ).toBe(aGame);
    const aGameSock = aSock; // racers play over their race socket too
    await subscribeGame(aGameSock, aGame);
    await subscribeGame(bSock, bGame);
    const specGame = await spec.request({ type: 'subscribe', gameId: bGame }, (f) => f.type === 'error');
    expect(specGame).toMatchObject({ code: 'unauthorized' });

    // Audit: every new frame of each receiver, after each move, against the hidden cards at that moment.
    const seen = new Map<WsClient, number>([
      [aSock, 0],
      [bSock, 0],
      [spec, 0],
    ]);
    let audited = 0;
    const audit = (): void => {
      const aHidden = hiddenCards(app.rooms.peekState(aGame) ?? (aState as never));
      const bHidden = hiddenCards(app.rooms.peekState(bGame) ?? (bState as never));
      for (const [c, from] of seen) {
        const hidden = c === aSock ? aHidden : c === bSock ? bHidden : [...aHidden, ...bHidden];
        for (let i = from; i < c.texts.length; i++) {
          const text = c.texts[i] as string;
          expect(leakedCards(text, hidden), text).toEqual([]);
          const frame = c.frames[i] as ServerFrame;
          if (frame.type === 'race' || frame.type === 'race-progress') expect(text).not.toMatch(CARD_IN_JSON);
          audited++;
        }
        seen.set(c, c.texts.length);
      }
    };
    audit();

    const movesBy = async (
      sock: WsClient,
      gameId: string,
      playerId: string,
      moves: Move[],
    ): Promise<void> => {
      for (const move of moves) {
        const state = await sock.request(
          { type: 'move', gameId, move, version: currentVersion.get(gameId) ?? 0 },
          (f) => (f.type === 'state' && f.gameId === gameId && f.cause === 'move') || f.type === 'error',
        );
        if (state.type !== 'state') throw new Error(JSON.stringify(state));
        currentVersion.set(gameId, state.version);
        await Promise.all(
          [aSock, bSock, spec].map((c) =>
            c.waitFor(
              (f) => isProgress(f) && f.playerId === playerId && f.progress.moves === state.view.moves,
            ),
          ),
        );
        audit();
      }
    };
    const currentVersion = new Map<string, number>();

    // bob draws three times, then resigns; his replay stays private while the race is on.
    await movesBy(bSock, bGame, bob.id, [{ type: 'draw' }, { type: 'draw' }, { type: 'draw' }]);
    const bProgress = spec.frames.filter(isProgress).filter((f) => f.playerId === bob.id);
    expect(bProgress.map((f) => f.progress.moves)).toEqual([1, 2, 3]);
    const resign = await bSock.request(
      { type: 'resign', gameId: bGame, version: currentVersion.get(bGame) ?? 0 },
      (f) => f.type === 'state' && f.cause === 'resign',
    );
    expect(resign.type).toBe('state');
    await spec.waitFor((f) => isProgress(f) && f.playerId === bob.id && f.progress.status === 'resigned');
    audit();
    expectError(await call(app, 'GET', `/api/games/${bGame}/replay`), 403, 'forbidden');
    expectError(await call(app, 'GET', `/api/races/${code}/results`), 403, 'forbidden');

    // alice plays the solver's line to the win: one progress frame per move for everyone.
    await movesBy(aSock, aGame, alice.id, line);
    const aProgress = spec.frames.filter(isProgress).filter((f) => f.playerId === alice.id);
    expect(aProgress).toHaveLength(line.length);
    expect(aProgress.map((f) => f.progress.moves)).toEqual(line.map((_, i) => i + 1));
    const final = aProgress[aProgress.length - 1]?.progress;
    expect(final).toMatchObject({ status: 'won', foundationCards: 52, faceDown: 0 });
    for (let i = 1; i < aProgress.length; i++)
      expect(aProgress[i]?.progress.elapsedMs).toBeGreaterThanOrEqual(
        aProgress[i - 1]?.progress.elapsedMs ?? 0,
      );

    const done = (await spec.waitFor(isRace((r) => r.status === 'finished'))) as RaceFrame;
    audit();
    expect(audited).toBeGreaterThan(3 * line.length);
    expect(done.race.endedAt).not.toBeNull();
    expect(done.race.racers.map((r) => [r.playerId, r.placement])).toEqual([
      [alice.id, 1],
      [bob.id, 2],
    ]);

    // Results and rows.
    const results = RaceResultsSchema.parse((await call(app, 'GET', `/api/races/${code}/results`)).json());
    const deal = dealFromNumber(DEAL);
    expect(results.deal).toBe(deal.ok ? formatDeal(deal.value) : '');
    expect(results.results.map((r) => [r.placement, r.playerId, r.gameId, r.progress.status])).toEqual([
      [1, alice.id, aGame, 'won'],
      [2, bob.id, bGame, 'resigned'],
    ]);
    const row = await app.prisma.race.findUnique({ where: { code }, include: { racers: true } });
    expect(row).toMatchObject({
      status: 'finished',
      endReason: 'won',
      dealNumber: BigInt(DEAL),
      knownDeal: true,
    });
    expect(results.knownDeal).toBe(true);
    expect(row?.racers.map((r) => [r.playerId, r.placement, r.gameId]).sort()).toEqual(
      [
        [alice.id, 1, aGame],
        [bob.id, 2, bGame],
      ].sort(),
    );
    // Replays are public now.
    for (const g of [aGame, bGame]) {
      const r = await call(app, 'GET', `/api/games/${g}/replay`);
      expect(r.statusCode, r.body).toBe(200);
      expect(ReplaySchema.parse(r.json()).id).toBe(g);
    }
    expect((await call(app, 'GET', `/api/games/${aGame}`)).statusCode).toBe(200);

    // Rematch: an invitation. A new room seating only its caller, a fresh random deal (never the host's next
    // number); alice, asking too, takes the other seat. Nobody is ready.
    const rematch = raceOf(await call(app, 'POST', `/api/races/${code}/rematch`, { as: bob }), 201);
    expect(rematch.code).not.toBe(code);
    expect(rematch).toMatchObject({ status: 'lobby', you: bob.id, maxPlayers: 2 });
    expect(rematch.racers.map((r) => [r.playerId, r.ready, r.host])).toEqual([[bob.id, false, true]]);
    await aSock.waitFor(isRace((r) => r.code === code && r.rematchCode === rematch.code));
    const again = raceOf(await call(app, 'POST', `/api/races/${code}/rematch`, { as: alice }), 200);
    expect(again.code).toBe(rematch.code);
    expect(again.racers.map((r) => [r.playerId, r.ready, r.host])).toEqual([
      [bob.id, false, true],
      [alice.id, false, false],
    ]);
    expect(raceOf(await call(app, 'GET', `/api/races/${code}`)).rematchCode).toBe(rematch.code);
    const newRow = await app.prisma.race.findUnique({ where: { code: rematch.code } });
    expect(newRow).toMatchObject({ dealKind: 'random', dealNumber: null, knownDeal: false });
    expect(newRow?.dealKey).toMatch(/^[0-9a-f]{64}$/);
    expect(newRow?.deal).not.toBe(row?.deal);
    expect(rematch.knownDeal).toBe(false);
  });

  it('a racer who disconnects is away, resyncs on reconnect; staying away forfeits; the host may start without ready flags', async () => {
    const created = raceOf(
      await call(app, 'POST', '/api/races', { as: alice, payload: { deal: { dealNumber: DEAL } } }),
      201,
    );
    const code = created.code;
    raceOf(await call(app, 'POST', `/api/races/${code}/join`, { as: bob }));
    const aSock = await raceSocket(app, code, alice, clients);
    let bSock = await raceSocket(app, code, bob, clients);
    const started = raceOf(await call(app, 'POST', `/api/races/${code}/start`, { as: alice }));
    expect(started.status).toBe('countdown');
    const bRun = (await bSock.waitFor(isRace((r) => r.status === 'running'))) as RaceFrame;
    const bGame = bRun.race.yourGameId as string;
    const first = await subscribeGame(bSock, bGame);
    expect(first.version).toBe(0);
    await bSock.request(
      { type: 'move', gameId: bGame, move: { type: 'draw' }, version: 0 },
      (f) => f.type === 'state' && f.version === 1,
    );

    // Disconnect: alice sees bob away.
    bSock.close();
    await aSock.waitFor(isRace((r) => r.racers.find((x) => x.playerId === bob.id)?.presence === 'away'));
    // A move made meanwhile (REST), then reconnect: room and game resync.
    const moved = await call(app, 'POST', `/api/games/${bGame}/moves`, {
      as: bob,
      payload: { move: { type: 'draw' }, version: 1 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const from = aSock.frames.length;
    bSock = await raceSocket(app, code, bob, clients);
    const room = bSock.frames.find(isRace()) as RaceFrame;
    expect(room.race).toMatchObject({ status: 'running', you: bob.id, yourGameId: bGame });
    expect(room.race.racers.find((r) => r.playerId === bob.id)).toMatchObject({
      presence: 'here',
      progress: { moves: 2 },
    });
    await aSock.waitFor(
      isRace((r) => r.racers.find((x) => x.playerId === bob.id)?.presence === 'here'),
      from,
    );
    const resync = await subscribeGame(bSock, bGame);
    expect(resync.version).toBe(2);
    expect(resync.view.stock.count).toBe(22);

    // Away for good: forfeits after RACE_AWAY_FORFEIT_MS (300 ms); his game is resigned.
    bSock.close();
    const forfeited = (await aSock.waitFor(
      (f: ServerFrame) => isProgress(f) && f.playerId === bob.id && f.progress.status === 'forfeited',
      from,
      3000,
    )) as ProgressFrame;
    expect(forfeited.progress.moves).toBe(2);
    await aSock.waitFor(
      isRace((r: Race) => r.racers.find((x) => x.playerId === bob.id)?.presence === 'forfeited'),
      from,
    );
    const bView = GameResponseSchema.parse(
      (await call(app, 'GET', `/api/games/${bGame}`, { as: bob })).json(),
    );
    expect(bView.view.status).toBe('resigned');

    // alice resigns: everyone is done, the race ends; a forfeit ranks last.
    const aRun = aSock.frames.find(isRace((r) => r.code === code && r.yourGameId !== null)) as RaceFrame;
    const aGame = aRun.race.yourGameId as string;
    expect(
      (await call(app, 'POST', `/api/games/${aGame}/resign`, { as: alice, payload: {} })).statusCode,
    ).toBe(200);
    const end = (await aSock.waitFor(
      isRace((r) => r.status === 'finished'),
      from,
    )) as RaceFrame;
    expect(end.race.racers.map((r) => [r.playerId, r.placement])).toEqual([
      [alice.id, 1],
      [bob.id, 2],
    ]);
    const row = await app.prisma.race.findUnique({ where: { code } });
    expect(row?.endReason).toBe('done');
  });
});

describeEachDatabase('race sockets change role', (db) => {
  let app: FastifyInstance;
  const clients: WsClient[] = [];
  beforeAll(async () => {
    app = await testApp(db, { config: { raceCountdownMs: 50, raceAwayForfeitMs: 300 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  it('a spectator socket that authenticates and joins becomes a racer on its next race-subscribe', async () => {
    const host = await newPlayer(app, 'host');
    const guest = await newPlayer(app, 'guest');
    const race = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: { maxPlayers: 3 } }), 201);
    // The guest watches first, unauthenticated: a spectator.
    const socket = await raceSocket(app, race.code, undefined, clients);
    const watching = await socket.request(
      { type: 'race-subscribe', code: race.code },
      isRace((r) => r.code === race.code),
    );
    expect(watching.type === 'race' && watching.race.you).toBeNull();
    // Then signs in on the same socket and joins over REST.
    await socket.request({ type: 'auth', token: guest.token }, (f) => f.type === 'authed');
    raceOf(await call(app, 'POST', `/api/races/${race.code}/join`, { as: guest }));
    const racing = await socket.request(
      { type: 'race-subscribe', code: race.code },
      isRace((r) => r.code === race.code && r.you === guest.id),
    );
    expect(racing.type === 'race' && racing.race.you).toBe(guest.id);
    const me = racing.type === 'race' ? racing.race.racers.find((r) => r.playerId === guest.id) : undefined;
    expect(me?.presence).toBe('here');
    expect(racing.type === 'race' && racing.race.spectators).toBe(0);
  });
});
