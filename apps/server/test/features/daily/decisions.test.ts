/**
 * What the daily decides, without a database (daily/decisions.ts, the pure parts of daily/leaderboard.ts and
 * daily/players.ts): which days are open and may be named, who may open an attempt, practise, see a reveal,
 * fair-play signals or an export file, which caller's row a leaderboard page holds, which archive dailies are
 * missing and the fill's order, and what a result under way, a finished result, a challenge, a leaderboard
 * page's offset and a player's statistics are. Tables of cases: each row could fail on its own.
 */
import type { ApiErrorCode } from '@klondike/protocol';
import { describe, expect, it } from 'vitest';
import {
  archiveDates,
  boardOf,
  challengeOf,
  checkAttempt,
  checkExportDate,
  checkFairPlay,
  checkPractice,
  checkReveal,
  closedDayRow,
  finishedResult,
  isOpen,
  leaderboardViewer,
  missingDailies,
  missingDaily,
  namedDay,
  playingResult,
  refineOrder,
  tomorrowOf,
} from '../../../src/features/daily/decisions.js';
import { dailyCommitment } from '../../../src/features/daily/commitment.js';
import { pageOffset } from '../../../src/features/daily/leaderboard.js';
import { ALL_TIME_SIZE, rankAllTime, statsFromRows } from '../../../src/features/daily/players.js';
import type { DailyRow, StatsRow } from '../../../src/features/daily/repository.js';
import { ApiError } from '../../../src/infra/errors.js';

const TODAY = '2026-03-10';
const YESTERDAY = '2026-03-09';
const TOMORROW = '2026-03-11';
const KEY = 'ab'.repeat(32);

/** The error code `f` throws (an ApiError), or null when it returns. */
function refusal(f: () => unknown): ApiErrorCode | null {
  try {
    f();
    return null;
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
}

function daily(over: Partial<DailyRow> = {}): DailyRow {
  return {
    id: 7,
    date: TODAY,
    preset: 'classic-draw1',
    deal: 'secret deal text',
    dealNumber: null,
    dealKey: KEY,
    candidate: 3,
    par: 101,
    parProven: false,
    parLowerBound: null,
    line: [],
    createdAt: new Date(0),
    ...over,
  };
}

describe('open days and named days', () => {
  it.each([
    [TODAY, true],
    [YESTERDAY, false],
    [TOMORROW, false],
  ])('isOpen(%s) at %s', (date, open) => {
    expect(isOpen(date, TODAY)).toBe(open);
  });

  it.each([
    [TODAY, 'today'],
    [YESTERDAY, 'closed'],
    ['2020-01-01', 'closed'],
    [TOMORROW, 'not-found'],
    ['2026-02-30', 'not-found'],
    ['yesterday', 'not-found'],
  ])('namedDay(%s) → %s', (date, expected) => {
    let got: string | null;
    try {
      got = namedDay(date, TODAY);
    } catch (e) {
      got = e instanceof ApiError ? e.code : 'thrown';
    }
    expect(got).toBe(expected);
  });

  it('a missing daily within the archive window is being prepared (fill); before it, there is none', () => {
    const inWindow = missingDaily('2026-03-05', 'classic-draw1', TODAY, 7);
    expect(inWindow.fill).toBe(true);
    expect(inWindow.error.code).toBe('unavailable');
    const edge = missingDaily('2026-03-03', 'classic-draw3', TODAY, 7);
    expect(edge.fill).toBe(true);
    const before = missingDaily('2026-03-02', 'classic-draw1', TODAY, 7);
    expect(before.fill).toBe(false);
    expect(before.error.code).toBe('not-found');
  });
});

describe('who may do what, open day vs closed day', () => {
  it.each([
    // what, date, expected refusal
    ['attempt', TODAY, null],
    ['attempt', YESTERDAY, 'conflict'],
    ['practice', TODAY, 'forbidden'],
    ['practice', YESTERDAY, null],
    ['reveal', TODAY, 'forbidden'],
    ['reveal', YESTERDAY, null],
    ['fair-play', TODAY, 'forbidden'],
    ['fair-play', YESTERDAY, null],
    ['export', TODAY, 'not-found'],
    ['export', TOMORROW, 'not-found'],
    ['export', YESTERDAY, null],
    ['export', 'not-a-date', 'not-found'],
  ] as const)('%s on %s → %s', (what, date, expected) => {
    const check = {
      attempt: () => checkAttempt(date, TODAY),
      practice: () => checkPractice(date, 'classic-draw1', TODAY),
      reveal: () => checkReveal(date, 'classic-draw1', TODAY),
      'fair-play': () => checkFairPlay(date, TODAY),
      export: () => checkExportDate(date, TODAY),
    }[what];
    expect(refusal(check)).toBe(expected);
  });

  it("a closed day's attempt refusal points to practice and names today", () => {
    expect(() => checkAttempt(YESTERDAY, TODAY)).toThrow(`(${TODAY}); play ${YESTERDAY} as practice`);
  });
});

describe("whose row a leaderboard page holds (the caller's board only)", () => {
  const human = { id: 'h1', bot: false };
  const bot = { id: 'b1', bot: true };
  it.each([
    // around, board, caller, expected (an id, null, or a refusal)
    ['me', 'humans', null, 'unauthorized'],
    ['me', 'bots', null, 'unauthorized'],
    [undefined, 'humans', null, null],
    ['me', 'humans', human, 'h1'],
    [undefined, 'humans', human, 'h1'],
    ['me', 'bots', human, 'forbidden'],
    [undefined, 'bots', human, null],
    ['me', 'bots', bot, 'b1'],
    ['me', 'humans', bot, 'forbidden'],
    [undefined, 'humans', bot, null],
  ] as const)('around=%s board=%s caller=%o → %s', (around, board, caller, expected) => {
    let got: string | null;
    try {
      got = leaderboardViewer({ around, board }, caller);
    } catch (e) {
      got = e instanceof ApiError ? e.code : 'thrown';
    }
    expect(got).toBe(expected);
  });

  it('the refusal tells a bot and a person apart', () => {
    expect(() => leaderboardViewer({ around: 'me', board: 'humans' }, bot)).toThrow('board=bots');
    expect(() => leaderboardViewer({ around: 'me', board: 'bots' }, human)).toThrow('only bots');
  });

  it.each([
    // around, offset, limit, my rank, expected offset
    [undefined, 40, 20, 7, 40],
    ['me', 40, 20, null, 40],
    ['me', 0, 20, 1, 0],
    ['me', 0, 20, 20, 0],
    ['me', 0, 20, 21, 20],
    ['me', 0, 10, 95, 90],
  ] as const)(
    'page offset: around=%s offset=%i limit=%i rank=%s → %i',
    (around, offset, limit, rank, expected) => {
      expect(pageOffset({ around, offset, limit }, rank)).toBe(expected);
    },
  );

  it('a bot ranks on the bot board, a person on the people board', () => {
    expect(boardOf(bot)).toBe('bots');
    expect(boardOf(human)).toBe('humans');
  });
});

describe('the archive and the fill', () => {
  it('the archive window is the closed days before today, newest first', () => {
    expect(archiveDates(TODAY, 3)).toEqual(['2026-03-09', '2026-03-08', '2026-03-07']);
    expect(archiveDates('2026-03-01', 2)).toEqual(['2026-02-28', '2026-02-27']);
    expect(archiveDates(TODAY, 0)).toEqual([]);
  });

  it('missing dailies: every preset of every date not stored, in date order then preset order', () => {
    const dates = ['2026-03-09', '2026-03-08'];
    expect(missingDailies(dates, new Set(['2026-03-09|classic-draw1']))).toEqual([
      { date: '2026-03-09', preset: 'classic-draw3' },
      { date: '2026-03-08', preset: 'classic-draw1' },
      { date: '2026-03-08', preset: 'classic-draw3' },
    ]);
    expect(
      missingDailies(dates, new Set(dates.flatMap((d) => [`${d}|classic-draw1`, `${d}|classic-draw3`]))),
    ).toEqual([]);
  });

  it('pars are refined today first, then tomorrow, then the archive at background priority', () => {
    expect(refineOrder(TODAY, ['2026-03-09', '2026-03-08'])).toEqual([
      [TODAY, 'par'],
      [TOMORROW, 'par'],
      ['2026-03-09', 'archive'],
      ['2026-03-08', 'archive'],
    ]);
  });
});

describe('what a result and a challenge show', () => {
  const closes = Date.parse(`${TOMORROW}T00:00:00Z`);
  const started = Date.parse(`${TODAY}T10:00:00Z`);
  const attempt = (startedAt: Date | null) => ({
    dailyId: 7,
    gameId: 'g1',
    game: { score: 35, moves: 12, startedAt },
  });

  it.each([
    // now, expected time
    [started + 90_000, 90_000],
    [closes + 3_600_000, closes - started], // the clock stops at the close
    [started - 5_000, 0], // never negative
  ])('an attempt under way at %i has played %i ms', (now, timeMs) => {
    expect(playingResult(attempt(new Date(started)), closes, now)).toEqual({
      gameId: 'g1',
      status: 'playing',
      score: 35,
      timeMs,
      moves: 12,
      rank: null,
    });
  });

  it('an attempt without an action yet has played 0 ms', () => {
    expect(playingResult(attempt(null), closes, started + 1000).timeMs).toBe(0);
  });

  it("a finished attempt's result is its row with its rank", () => {
    const row = {
      dailyId: 7,
      playerId: 'p',
      gameId: 'g2',
      status: 'won' as const,
      won: true,
      score: 700,
      timeMs: 123_000,
      moves: 101,
      finishedAt: new Date(started),
    };
    expect(finishedResult(row, 4)).toEqual({
      gameId: 'g2',
      status: 'won',
      score: 700,
      timeMs: 123_000,
      moves: 101,
      rank: 4,
    });
  });

  it('a challenge: open today, closed before; par and commitment, never the deal or key', () => {
    const open = challengeOf(daily(), 5, null, TODAY);
    expect(open).toMatchObject({ date: TODAY, players: 5, closed: false, par: 101, you: null });
    expect(open.closesAt).toBe(new Date(closes).toISOString());
    expect(open.commitment).toBe(
      dailyCommitment({ date: TODAY, preset: 'classic-draw1', candidate: 3, key: KEY }),
    );
    expect(JSON.stringify(open)).not.toContain(KEY);
    expect(JSON.stringify(open)).not.toContain('secret deal text');
    expect(challengeOf(daily({ date: YESTERDAY }), 0, null, TODAY).closed).toBe(true);
  });

  it("tomorrow's commitments: a daily without a key has none and is left out", () => {
    const rows = [
      daily({ date: TOMORROW }),
      daily({ date: TOMORROW, preset: 'classic-draw3', dealKey: null }),
    ];
    const out = tomorrowOf(rows);
    expect(out).toHaveLength(1);
    expect(out[0]).toEqual({
      date: TOMORROW,
      preset: 'classic-draw1',
      opensAt: new Date(closes).toISOString(),
      commitment: dailyCommitment({ date: TOMORROW, preset: 'classic-draw1', candidate: 3, key: KEY }),
    });
  });
});

describe("players' statistics and the all-time order", () => {
  const row = (
    playerId: string,
    date: string,
    won: boolean,
    timeMs = 60_000,
    preset = 'classic-draw1',
  ): StatsRow => ({
    playerId,
    won,
    timeMs,
    daily: { date, preset },
  });

  it('counts, win rate, streaks up to today and best time per preset, per player', () => {
    const rows = [
      row('a', '2026-03-07', true, 90_000),
      row('a', '2026-03-08', true, 80_000, 'classic-draw3'),
      row('a', '2026-03-09', true, 70_000),
      row('a', TODAY, false),
      row('b', '2026-03-01', true),
    ];
    const stats = statsFromRows(rows, ['a', 'b', 'c'], TODAY);
    expect(stats.get('a')).toEqual({
      played: 4,
      wins: 3,
      winRate: 0.75,
      currentStreak: 3, // today not won yet: counted from yesterday
      bestStreak: 3,
      bestTimeMs: { 'classic-draw1': 70_000, 'classic-draw3': 80_000 },
    });
    expect(stats.get('b')).toMatchObject({ played: 1, wins: 1, currentStreak: 0, bestStreak: 1 });
    expect(stats.get('c')).toEqual({
      played: 0,
      wins: 0,
      winRate: 0,
      currentStreak: 0,
      bestStreak: 0,
      bestTimeMs: { 'classic-draw1': null, 'classic-draw3': null },
    });
  });

  it('all-time: wins, then win rate, then attempts played, then id; the top ALL_TIME_SIZE', () => {
    const order = rankAllTime([
      { playerId: 'd', played: 10, wins: 5 },
      { playerId: 'c', played: 4, wins: 5 },
      { playerId: 'b', played: 8, wins: 4 },
      { playerId: 'a', played: 4, wins: 2 },
      { playerId: 'e', played: 2, wins: 1 },
      { playerId: 'f', played: 4, wins: 2 },
    ]).map((r) => r.id);
    // c and d: 5 wins, c's rate higher; a, e and f: rate 0.5, a and f played more, a before f by id.
    expect(order).toEqual(['c', 'd', 'b', 'a', 'f', 'e']);
    const many = Array.from({ length: ALL_TIME_SIZE + 5 }, (_, i) => ({
      playerId: `p${i}`,
      played: 1,
      wins: 1,
    }));
    expect(rankAllTime(many)).toHaveLength(ALL_TIME_SIZE);
  });
});

describe("a ranked attempt's row when its day closes while it is still playing", () => {
  const closesAt = Date.parse(`${TOMORROW}T00:00:00Z`);
  const ref = { id: 7, date: TODAY, preset: 'classic-draw1' as const, closesAt };
  const standings: number[] = [];
  const standingAt = (end: number) => {
    standings.push(end);
    return { score: 40, timeMs: end - closesAt + 3_600_000, moves: 17 };
  };
  const game = (over: object = {}) => ({
    kind: 'daily-ranked' as const,
    daily: ref,
    owner: 'p1',
    endedAt: null,
    ...over,
  });

  it.each([
    ['a day still open', game(), closesAt - 1],
    ['a practice game', game({ kind: 'daily-practice' }), closesAt],
    ['a casual game', game({ kind: 'casual', daily: null }), closesAt],
    ['an attempt without its player', game({ owner: null }), closesAt],
  ])('none for %s', (_what, g, now) => {
    expect(closedDayRow(g, now, standingAt)).toBeNull();
  });

  it('unfinished, standing at the close, finished at the close', () => {
    standings.length = 0;
    expect(closedDayRow(game(), closesAt + 5_000, standingAt)).toEqual({
      status: 'unfinished',
      score: 40,
      timeMs: 3_600_000,
      moves: 17,
      finishedAt: closesAt,
    });
    expect(standings).toEqual([closesAt]);
  });

  it('a blocked attempt stands where it ended', () => {
    standings.length = 0;
    const ended = closesAt - 600_000;
    expect(closedDayRow(game({ endedAt: ended }), closesAt, standingAt)?.finishedAt).toBe(closesAt);
    expect(standings).toEqual([ended]);
  });
});
