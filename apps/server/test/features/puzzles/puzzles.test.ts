/**
 * Puzzles end to end (docs/puzzles.md), on PGlite and on Postgres: casual games won by a bot over REST are
 * cut into puzzles by `app.puzzles.sweep()`; an open daily's attempt and an unfinished race's game are never
 * cut (attacks: a puzzle would show cards of a deal still in play) until the day closes / the race finishes;
 * every served puzzle is verified against every arrangement of its unseen cards by this test's own
 * enumeration; attempts rate the player and the puzzle once (concurrent first attempts too); the puzzle of
 * the day; the timed run by the server's clock (an injectable clock that moves forward: no sleeping);
 * bad input.
 */
import {
  DailyPuzzleSchema,
  GameResponseSchema,
  PUZZLE_RUN_MS,
  PUZZLE_RUN_PENALTY_MS,
  type Puzzle,
  PuzzleAttemptResultSchema,
  PuzzleProfileSchema,
  PuzzleRunAnswerSchema,
  PuzzleRunBoardSchema,
  PuzzleRunSchema,
  PuzzleSchema,
  RaceSchema,
} from '@klondike/protocol';
import {
  type Card,
  type GameState,
  type Move,
  PRESETS,
  applyMove,
  dealFromNumber,
  hiddenCards,
  isWon,
  legalMoves,
} from '@klondike/rules';
import { solve } from '@klondike/solver';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPosition, type StoredPosition } from '../../../src/features/puzzles/position.js';
import { type WsClient, describeEachDatabase, leakedCards, prng, testApp } from '../../support/helpers.js';
import { botGame } from '../../support/puzzle-players.js';
import {
  type TestPlayer,
  call,
  expectError,
  isRace,
  newPlayer,
  raceSocket,
} from '../../support/race-helpers.js';

const SECRET = 'test-puzzles-secret-0123456789abcdef';
/** classic-draw1 deals whose bot game (no slip) is won and yields a clear-the-table puzzle. */
const WON_DEALS = [1, 4, 18] as const;

/** This test's own enumeration of the arrangements of a position's unseen cards (face-down, then stock). */
function everyArrangement(s: GameState): GameState[] {
  const places: Card[] = [];
  for (const p of s.tableau) places.push(...p.cards.slice(0, p.faceDown));
  places.push(...s.stock);
  const perms: Card[][] = [];
  const permute = (rest: Card[], acc: Card[]): void => {
    if (rest.length === 0) perms.push(acc);
    rest.forEach((c, i) => permute([...rest.slice(0, i), ...rest.slice(i + 1)], [...acc, c]));
  };
  permute(places, []);
  return perms.map((cards) => {
    let i = 0;
    const tableau = s.tableau.map((p) => {
      const down = cards.slice(i, i + p.faceDown);
      i += p.faceDown;
      return { faceDown: p.faceDown, cards: [...down, ...p.cards.slice(p.faceDown)] };
    });
    return { ...s, tableau, stock: cards.slice(i) };
  });
}

function replayWins(s: GameState, moves: readonly Move[]): boolean {
  let x = s;
  for (const m of moves) {
    const r = applyMove(x, m);
    if (!r.ok) return false;
    x = r.value;
  }
  return isWon(x);
}

describeEachDatabase('puzzles', (db) => {
  let app: FastifyInstance;
  let offset = 0;
  const now = (): number => Date.now() + offset;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let carol: TestPlayer;
  let robo: TestPlayer;
  const clients: WsClient[] = [];
  const won: string[] = [];
  let dailyGame = '';
  let raceGames: string[] = [];
  let raceCode = '';
  let openGame = '';

  beforeAll(async () => {
    app = await testApp(db, {
      now,
      config: {
        dailySecret: SECRET,
        raceCountdownMs: 30,
        raceCertifyMs: 2000,
        ratedMinAccountAgeMs: 0,
        ratedMinFinishedGames: 0,
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    alice = await newPlayer(app, 'alice');
    bob = await newPlayer(app, 'bob');
    carol = await newPlayer(app, 'carol');
    const r = await app.inject({
      method: 'POST',
      url: '/api/players',
      payload: { name: 'PuzzleBot', bot: true },
    });
    robo = r.json();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  async function play(gameId: string, moves: readonly Move[], as?: TestPlayer): Promise<void> {
    let version = 0;
    for (const move of moves) {
      const r = await call(app, 'POST', `/api/games/${gameId}/moves`, {
        ...(as ? { as } : {}),
        payload: { move, version },
      });
      expect(r.statusCode, r.body).toBe(200);
      version++;
    }
  }

  it('no puzzle yet: the public routes answer 404, the token routes 401 without a token', async () => {
    expectError(await call(app, 'GET', '/api/puzzles/daily'), 404, 'not-found');
    expectError(await call(app, 'GET', '/api/puzzles/next', { as: alice }), 404, 'not-found');
    expectError(await call(app, 'POST', '/api/puzzles/runs', { as: alice }), 404, 'not-found');
    expectError(await call(app, 'GET', '/api/puzzles/next'), 401, 'unauthorized');
    expectError(await call(app, 'GET', '/api/puzzles/me'), 401, 'unauthorized');
    expectError(await call(app, 'POST', '/api/puzzles/runs'), 401, 'unauthorized');
  });

  it('games: won casual games, an unfinished casual game, an open daily attempt, a running race', async () => {
    for (const n of WON_DEALS) {
      const g = GameResponseSchema.parse(
        (
          await call(app, 'POST', '/api/games', { payload: { preset: 'classic-draw1', dealNumber: n } })
        ).json(),
      );
      const d = dealFromNumber(n);
      if (!d.ok) throw new Error(d.error.message);
      await play(g.id, botGame(d.value, PRESETS['classic-draw1'], prng(n), false));
      won.push(g.id);
    }
    // The same bot game, stopped 20 moves before its end: still playing, never cut.
    const d1 = dealFromNumber(WON_DEALS[0]);
    if (!d1.ok) throw new Error(d1.error.message);
    const open = GameResponseSchema.parse(
      (
        await call(app, 'POST', '/api/games', {
          payload: { preset: 'classic-draw1', dealNumber: WON_DEALS[0] },
        })
      ).json(),
    );
    const line = botGame(d1.value, PRESETS['classic-draw1'], prng(WON_DEALS[0]), false);
    await play(open.id, line.slice(0, line.length - 20));
    openGame = open.id;

    // A ranked daily attempt, played and resigned while its day is open.
    const today = new Date(now()).toISOString().slice(0, 10);
    const a = await call(app, 'POST', `/api/daily/${today}/classic-draw1/attempt`, {
      as: alice,
      payload: {},
    });
    expect(a.statusCode, a.body).toBeLessThan(300);
    dailyGame = GameResponseSchema.parse(a.json()).id;
    await play(dailyGame, [{ type: 'draw' }, { type: 'draw' }], alice);
    expect(
      (await call(app, 'POST', `/api/games/${dailyGame}/resign`, { as: alice, payload: {} })).statusCode,
    ).toBe(200);

    // A race that is running: its racers' games are secret until it finishes.
    const race = RaceSchema.parse((await call(app, 'POST', '/api/races', { as: bob, payload: {} })).json());
    raceCode = race.code;
    await call(app, 'POST', `/api/races/${race.code}/join`, { as: carol });
    const sock = await raceSocket(app, race.code, bob, clients);
    expect((await call(app, 'POST', `/api/races/${race.code}/start`, { as: bob })).statusCode).toBe(200);
    await sock.waitFor(isRace((x) => x.status === 'running'));
    raceGames = [];
    for (const p of [bob, carol]) {
      const r = RaceSchema.parse((await call(app, 'GET', `/api/races/${race.code}`, { as: p })).json());
      if (r.yourGameId === null) throw new Error('no race game');
      raceGames.push(r.yourGameId);
    }
    await play(raceGames[0] as string, [{ type: 'draw' }], bob);
    // bob resigns: his game has ended, but the race runs on (carol still plays).
    await call(app, 'POST', `/api/games/${raceGames[0]}/resign`, { as: bob, payload: {} });
    expect(RaceSchema.parse((await call(app, 'GET', `/api/races/${race.code}`)).json()).status).toBe(
      'running',
    );
  });

  it('a pass cuts the won games only: never an open daily, an unfinished race or a game in play', async () => {
    const written = await app.puzzles.sweep();
    expect(written).toBeGreaterThanOrEqual(WON_DEALS.length);
    const scanned = (await app.prisma.puzzleScan.findMany()).map((s) => s.gameId).sort();
    expect(scanned).toEqual([...won].sort());
    const sources = new Set((await app.prisma.puzzle.findMany()).map((p) => p.gameId));
    for (const g of [dailyGame, openGame, ...raceGames]) expect(sources.has(g)).toBe(false);
    // A second pass (another node's, say) cuts nothing twice.
    expect(await app.puzzles.sweep()).toBe(0);
    expect(await app.prisma.puzzleScan.count()).toBe(won.length);
  });

  it('every puzzle holds for every arrangement of its unseen cards; its view shows no hidden card', async () => {
    const rows = await app.prisma.puzzle.findMany();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const s = loadPosition(row.position as unknown as StoredPosition);
      const solution = row.solution as unknown as Move[];
      const r = await call(app, 'GET', `/api/puzzles/${row.id}`);
      expect(r.statusCode, r.body).toBe(200);
      const p = PuzzleSchema.parse(r.json());
      expect(p.view.tableau.map((t) => t.faceUp.length + t.faceDown)).toEqual(
        s.tableau.map((t) => t.cards.length),
      );
      expect(leakedCards(r.body, hiddenCards(s))).toEqual([]);
      expect(r.body).not.toContain('"solution"');
      const arrangements = everyArrangement(s);
      expect(arrangements.length).toBeLessThanOrEqual(120);
      if (row.goal === 'clear-the-table') {
        expect(p.goal).toEqual({ type: 'clear-the-table', moves: row.par, proven: row.proven });
        expect(hiddenCards(s)).toEqual([]);
        expect(p.view.tableau.every((t) => t.faceDown === 0)).toBe(true);
        expect(p.view.stock.count).toBe(0);
        expect(solution.length).toBe(row.par);
        expect(replayWins(s, solution)).toBe(true);
      } else {
        expect(p.goal).toEqual({ type: 'only-move', moves: 1 });
        const only = solution[0] as Move;
        for (const a of arrangements) {
          for (const m of legalMoves(a)) {
            const after = applyMove(a, m);
            expect(after.ok).toBe(true);
            if (!after.ok) continue;
            const v = solve(after.value, a.options, { maxNodes: 200_000, shortenMs: 0 }).verdict;
            const isOnly = m.type === only.type && JSON.stringify(m) === JSON.stringify(only);
            expect(v).toBe(isOnly ? 'won' : 'impossible');
          }
        }
      }
    }
  });

  it('attempts: a correct first attempt raises the player and lowers the puzzle; a wrong one the reverse', async () => {
    const p = PuzzleSchema.parse((await call(app, 'GET', '/api/puzzles/next', { as: alice })).json());
    const row = await app.prisma.puzzle.findUniqueOrThrow({ where: { id: p.id } });
    const solution = row.solution as unknown as Move[];
    const right = PuzzleAttemptResultSchema.parse(
      (
        await call(app, 'POST', `/api/puzzles/${p.id}/attempt`, { as: alice, payload: { moves: solution } })
      ).json(),
    );
    expect(right.correct).toBe(true);
    expect(right.rated).toBe(true);
    expect(right.solution).toEqual(solution);
    expect(right.rating.before).toBe(1500);
    expect(right.rating.after).toBeGreaterThan(right.rating.before);
    expect(right.puzzleRating.after).toBeLessThan(right.puzzleRating.before);

    // A second attempt is not rated: before = after, nothing moves.
    const again = PuzzleAttemptResultSchema.parse(
      (
        await call(app, 'POST', `/api/puzzles/${p.id}/attempt`, { as: alice, payload: { moves: solution } })
      ).json(),
    );
    expect(again.rated).toBe(false);
    expect(again.rating.before).toBe(again.rating.after);
    expect(again.rating.after).toBe(right.rating.after);
    expect(again.puzzleRating.before).toBe(right.puzzleRating.after);

    // bob answers wrong (a line one move short, or a move that is not the only one).
    const wrongMoves = solution.length > 1 ? solution.slice(0, -1) : [{ type: 'draw' } as Move];
    const wrong = PuzzleAttemptResultSchema.parse(
      (
        await call(app, 'POST', `/api/puzzles/${p.id}/attempt`, { as: bob, payload: { moves: wrongMoves } })
      ).json(),
    );
    expect(wrong).toMatchObject({ correct: false, rated: true, solution });
    expect(wrong.rating.after).toBeLessThan(wrong.rating.before);
    expect(wrong.puzzleRating.after).toBeGreaterThan(wrong.puzzleRating.before);
    expect((await app.prisma.puzzle.findUniqueOrThrow({ where: { id: p.id } })).plays).toBe(2);

    // An answer longer than the par is wrong even when it wins; an illegal line is wrong.
    if (row.goal === 'clear-the-table') {
      const illegal = PuzzleAttemptResultSchema.parse(
        (
          await call(app, 'POST', `/api/puzzles/${p.id}/attempt`, {
            as: carol,
            payload: { moves: [{ type: 'move', from: 't1', to: 't1', count: 1 }] },
          })
        ).json(),
      );
      expect(illegal.correct).toBe(false);
    }
  });

  it('concurrent first attempts of one player at one puzzle are rated once', async () => {
    const p = PuzzleSchema.parse((await call(app, 'GET', '/api/puzzles/next', { as: robo })).json());
    const row = await app.prisma.puzzle.findUniqueOrThrow({ where: { id: p.id } });
    const payload = { moves: row.solution as unknown as Move[] };
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        call(app, 'POST', `/api/puzzles/${p.id}/attempt`, { as: robo, payload }),
      ),
    );
    const parsed = results.map((r) => PuzzleAttemptResultSchema.parse(r.json()));
    expect(parsed.filter((x) => x.rated)).toHaveLength(1);
    expect(await app.prisma.puzzleAttempt.count({ where: { playerId: robo.id, puzzleId: p.id } })).toBe(1);
    const mine = await app.prisma.puzzleRating.findUniqueOrThrow({ where: { playerId: robo.id } });
    expect(mine.attempts).toBe(1);
    expect((await app.prisma.puzzle.findUniqueOrThrow({ where: { id: p.id } })).plays).toBe(row.plays + 1);
  });

  it('next never serves an attempted puzzle; 404 once none is left; the theme filter holds', async () => {
    const count = await app.prisma.puzzle.count();
    const seen = new Set<string>();
    for (let i = 0; i < count; i++) {
      const r = await call(app, 'GET', '/api/puzzles/next', { as: carol });
      if (r.statusCode === 404) break;
      const p = PuzzleSchema.parse(r.json());
      expect(seen.has(p.id)).toBe(false);
      seen.add(p.id);
      await call(app, 'POST', `/api/puzzles/${p.id}/attempt`, {
        as: carol,
        payload: { moves: [{ type: 'draw' }] },
      });
    }
    expectError(await call(app, 'GET', '/api/puzzles/next', { as: carol }), 404, 'not-found');
    const themed = await call(app, 'GET', '/api/puzzles/next?theme=clear-the-table', { as: bob });
    if (themed.statusCode === 200)
      expect(PuzzleSchema.parse(themed.json()).themes).toContain('clear-the-table');
    expectError(await call(app, 'GET', '/api/puzzles/next?theme=nonsense', { as: bob }), 400, 'bad-request');
  });

  it('bad input: unknown puzzle 404, malformed moves 400, no token 401; nothing changes', async () => {
    const any = await app.prisma.puzzle.findFirstOrThrow();
    const before = await app.prisma.puzzleAttempt.count();
    expectError(await call(app, 'GET', '/api/puzzles/nope'), 404, 'not-found');
    expectError(await call(app, 'GET', '/api/puzzles/bad%20id'), 400, 'bad-request');
    expectError(
      await call(app, 'POST', '/api/puzzles/nope/attempt', {
        as: alice,
        payload: { moves: [{ type: 'draw' }] },
      }),
      404,
      'not-found',
    );
    for (const payload of [
      { moves: [{ type: 'fly' }] },
      { moves: [] },
      {},
      { moves: [{ type: 'draw' }], x: 1 },
    ])
      expectError(
        await call(app, 'POST', `/api/puzzles/${any.id}/attempt`, { as: alice, payload }),
        400,
        'bad-request',
      );
    expectError(
      await call(app, 'POST', `/api/puzzles/${any.id}/attempt`, { payload: { moves: [{ type: 'draw' }] } }),
      401,
      'unauthorized',
    );
    expect(await app.prisma.puzzleAttempt.count()).toBe(before);
  });

  it('the puzzle of the day: the same on every call, stored once for the date', async () => {
    const a = DailyPuzzleSchema.parse((await call(app, 'GET', '/api/puzzles/daily')).json());
    const b = DailyPuzzleSchema.parse((await call(app, 'GET', '/api/puzzles/daily')).json());
    expect(b.puzzle.id).toBe(a.puzzle.id);
    expect(a.date).toBe(new Date(now()).toISOString().slice(0, 10));
    expect(await app.prisma.puzzleDaily.findMany()).toEqual([{ date: a.date, puzzleId: a.puzzle.id }]);
  });

  it('the profile: rating, attempts, history and themes', async () => {
    const me = PuzzleProfileSchema.parse((await call(app, 'GET', '/api/puzzles/me', { as: alice })).json());
    expect(me).toMatchObject({
      playerId: alice.id,
      attempts: 1,
      solved: 1,
      bestRun: { today: null, allTime: null },
    });
    expect(me.rating).toBeGreaterThan(1500);
    expect(me.history).toHaveLength(1);
    expect(me.themes.find((t) => t.theme === 'clear-the-table' || t.theme === 'only-move')).toMatchObject({
      attempts: 1,
      solved: 1,
    });
    const fresh = await newPlayer(app, 'fresh');
    const none = PuzzleProfileSchema.parse((await call(app, 'GET', '/api/puzzles/me', { as: fresh })).json());
    expect(none).toMatchObject({ rating: 1500, attempts: 0, history: [], themes: [] });
  });

  describe('the timed run', () => {
    async function solutionOf(puzzle: Puzzle | null): Promise<Move[]> {
      if (puzzle === null) throw new Error('no puzzle');
      const row = await app.prisma.puzzle.findUniqueOrThrow({ where: { id: puzzle.id } });
      return row.solution as unknown as Move[];
    }

    it('runs by the server clock: a right answer scores, a wrong one costs PUZZLE_RUN_PENALTY_MS', async () => {
      const ratingsBefore = await app.prisma.puzzle.findMany({
        select: { id: true, rating: true, plays: true },
      });
      const start = PuzzleRunSchema.parse(
        (await call(app, 'POST', '/api/puzzles/runs', { as: alice })).json(),
      );
      expect(Date.parse(start.endsAt) - Date.parse(start.startedAt)).toBe(PUZZLE_RUN_MS);
      expect(start).toMatchObject({ solved: 0, wrong: 0, score: 0, finished: false });
      const first = start.puzzle;
      const right = PuzzleRunAnswerSchema.parse(
        (
          await call(app, 'POST', `/api/puzzles/runs/${start.id}/answer`, {
            as: alice,
            payload: { puzzleId: first?.id, moves: await solutionOf(first) },
          })
        ).json(),
      );
      expect(right.correct).toBe(true);
      expect(right.run).toMatchObject({ solved: 1, wrong: 0, score: 1, endsAt: start.endsAt });
      expect(right.run.puzzle?.id).not.toBe(first?.id);
      // Answering the puzzle just answered (not the current one): 409, nothing changes.
      expectError(
        await call(app, 'POST', `/api/puzzles/runs/${start.id}/answer`, {
          as: alice,
          payload: { puzzleId: first?.id, moves: [{ type: 'draw' }] },
        }),
        409,
        'conflict',
      );
      const wrong = PuzzleRunAnswerSchema.parse(
        (
          await call(app, 'POST', `/api/puzzles/runs/${start.id}/answer`, {
            as: alice,
            payload: {
              puzzleId: right.run.puzzle?.id,
              moves: [{ type: 'move', from: 't1', to: 't1', count: 1 }],
            },
          })
        ).json(),
      );
      expect(wrong.correct).toBe(false);
      expect(wrong.run).toMatchObject({ solved: 1, wrong: 1, score: 1 });
      expect(Date.parse(wrong.run.endsAt)).toBe(Date.parse(start.endsAt) - PUZZLE_RUN_PENALTY_MS);

      // Someone else's run: 403 to read it or answer in it; no token: 401; unknown run: 404.
      expectError(await call(app, 'GET', `/api/puzzles/runs/${start.id}`, { as: bob }), 403, 'forbidden');
      expectError(
        await call(app, 'POST', `/api/puzzles/runs/${start.id}/answer`, {
          as: bob,
          payload: { puzzleId: wrong.run.puzzle?.id, moves: [{ type: 'draw' }] },
        }),
        403,
        'forbidden',
      );
      expectError(await call(app, 'GET', `/api/puzzles/runs/${start.id}`), 401, 'unauthorized');
      expectError(await call(app, 'GET', '/api/puzzles/runs/nope', { as: alice }), 404, 'not-found');

      // The clock passes the run's end: an answer then finishes the run and is not counted.
      offset += PUZZLE_RUN_MS;
      const late = PuzzleRunAnswerSchema.parse(
        (
          await call(app, 'POST', `/api/puzzles/runs/${start.id}/answer`, {
            as: alice,
            payload: { puzzleId: wrong.run.puzzle?.id, moves: await solutionOf(wrong.run.puzzle) },
          })
        ).json(),
      );
      expect(late.run).toMatchObject({
        finished: true,
        solved: 1,
        wrong: 1,
        score: 1,
        remainingMs: 0,
        puzzle: null,
      });
      const read = PuzzleRunSchema.parse(
        (await call(app, 'GET', `/api/puzzles/runs/${start.id}`, { as: alice })).json(),
      );
      expect(read).toMatchObject({ finished: true, score: 1 });
      // Timed-run answers move no puzzle rating.
      expect(await app.prisma.puzzle.findMany({ select: { id: true, rating: true, plays: true } })).toEqual(
        ratingsBefore,
      );
    });

    it("the board keeps each player's best finished run; bots are flagged; an open run is not on it", async () => {
      // alice's second run scores 0 (one wrong answer, then the clock runs out).
      const second = PuzzleRunSchema.parse(
        (await call(app, 'POST', '/api/puzzles/runs', { as: alice })).json(),
      );
      await call(app, 'POST', `/api/puzzles/runs/${second.id}/answer`, {
        as: alice,
        payload: { puzzleId: second.puzzle?.id, moves: [{ type: 'draw' }] },
      });
      // The bot solves two.
      const botRun = PuzzleRunSchema.parse(
        (await call(app, 'POST', '/api/puzzles/runs', { as: robo })).json(),
      );
      let current = botRun.puzzle;
      for (let i = 0; i < 2 && current !== null; i++) {
        const a = PuzzleRunAnswerSchema.parse(
          (
            await call(app, 'POST', `/api/puzzles/runs/${botRun.id}/answer`, {
              as: robo,
              payload: { puzzleId: current.id, moves: await solutionOf(current) },
            })
          ).json(),
        );
        current = a.run.puzzle;
      }
      // bob's run is still open: not on the board.
      PuzzleRunSchema.parse((await call(app, 'POST', '/api/puzzles/runs', { as: bob })).json());
      const openBoard = PuzzleRunBoardSchema.parse(
        (await call(app, 'GET', '/api/puzzles/runs/board?period=all')).json(),
      );
      expect(openBoard.entries.map((e) => e.playerId)).toEqual([alice.id]);

      offset += PUZZLE_RUN_MS;
      const board = PuzzleRunBoardSchema.parse(
        (await call(app, 'GET', '/api/puzzles/runs/board?period=all', { as: alice })).json(),
      );
      const scores = board.entries.map((e) => [e.playerId, e.score, e.bot]);
      expect(scores).toContainEqual([alice.id, 1, false]);
      expect(scores).toContainEqual([robo.id, 2, true]);
      expect(board.entries.filter((e) => e.playerId === alice.id)).toHaveLength(1);
      expect(board.me).toMatchObject({ playerId: alice.id, score: 1 });
      expect(board.entries.map((e) => e.rank)).toEqual(board.entries.map((_, i) => i + 1));
      const anonymous = PuzzleRunBoardSchema.parse(
        (await call(app, 'GET', '/api/puzzles/runs/board')).json(),
      );
      expect(anonymous.period).toBe('day');
      expect(anonymous.me).toBeNull();
      expectError(await call(app, 'GET', '/api/puzzles/runs/board?period=week'), 400, 'bad-request');
      const me = PuzzleProfileSchema.parse((await call(app, 'GET', '/api/puzzles/me', { as: alice })).json());
      expect(me.bestRun.allTime).toBe(1);
    });
  });

  it('once the day has closed and the race has finished, their games are cut', async () => {
    await call(app, 'POST', `/api/games/${raceGames[1]}/resign`, { as: carol, payload: {} });
    expect(RaceSchema.parse((await call(app, 'GET', `/api/races/${raceCode}`)).json()).status).toBe(
      'finished',
    );
    offset += 86_400_000;
    await app.puzzles.sweep();
    const scanned = new Set((await app.prisma.puzzleScan.findMany()).map((s) => s.gameId));
    for (const g of [dailyGame, ...raceGames]) expect(scanned.has(g)).toBe(true);
    expect(scanned.has(openGame)).toBe(false);
  });
});
