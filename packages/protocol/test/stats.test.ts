/**
 * The statistics and history schemas (docs/features.md "Statistics"): the history query coerces and bounds its
 * fields and refuses unknown presets, results and cursors; a distribution's share stays within 0 … 1.
 */
import { describe, expect, it } from 'vitest';
import {
  HistoryQuerySchema,
  LeaderboardSchema,
  PlayerStatisticsSchema,
  ResultDistributionSchema,
  StatsPresetSchema,
} from '../src/index.js';

describe('history query', () => {
  it('defaults limit to 20 and coerces it from query text', () => {
    expect(HistoryQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(HistoryQuerySchema.parse({ limit: '5', preset: 'custom', result: 'lost' })).toEqual({
      limit: 5,
      preset: 'custom',
      result: 'lost',
    });
  });
  it('refuses limits out of 1…100, unknown presets and results, and cursors not of nextCursor form', () => {
    for (const bad of [
      { limit: '0' },
      { limit: '101' },
      { limit: '2.5' },
      { preset: 'klondike' },
      { result: 'draw' },
      { cursor: 'abc' },
      { cursor: '12_' },
      { cursor: '_abc' },
      { cursor: '12_a b' },
    ])
      expect(HistoryQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(HistoryQuerySchema.safeParse({ cursor: '1763990000000_Ab-_9' }).success).toBe(true);
  });
  it('every preset name and custom group statistics; nothing else', () => {
    expect(StatsPresetSchema.safeParse('vegas-draw3').success).toBe(true);
    expect(StatsPresetSchema.safeParse('custom').success).toBe(true);
    expect(StatsPresetSchema.safeParse('Custom').success).toBe(false);
  });
});

describe('statistics and distribution', () => {
  const empty = { bucketMs: 60_000, buckets: [] };
  it('a distribution share outside 0 … 1 is refused', () => {
    const d = { finished: 3, wins: 1, winTimes: empty, yourTimeMs: null, youBeat: 0.5 };
    expect(ResultDistributionSchema.safeParse(d).success).toBe(true);
    expect(ResultDistributionSchema.safeParse({ ...d, youBeat: 1.5 }).success).toBe(false);
    expect(ResultDistributionSchema.safeParse({ ...d, youBeat: -0.1 }).success).toBe(false);
  });
  it('a leaderboard without its distribution is refused (the web client relies on it)', () => {
    const lb = {
      date: '2026-03-10',
      preset: 'classic-draw1',
      board: 'humans',
      par: 90,
      parProven: false,
      total: 0,
      offset: 0,
      limit: 20,
      nextCursor: null,
      entries: [],
      me: null,
    };
    expect(LeaderboardSchema.safeParse(lb).success).toBe(false);
    const distribution = { finished: 0, wins: 0, winTimes: empty, yourTimeMs: null, youBeat: null };
    expect(LeaderboardSchema.safeParse({ ...lb, distribution }).success).toBe(true);
  });
  it('statistics: a win-rate day needs a game; a daily rank needs a board of at least one', () => {
    const base = {
      id: 'p1',
      name: 'Ada',
      bot: false,
      asOf: '2026-03-10T00:00:00.000Z',
      total: { games: 1, wins: 1, winRate: 1 },
      presets: [],
      winRate: [{ date: '2026-03-10', games: 1, wins: 1, cumulativeWinRate: 1 }],
      winTimes: empty,
      bestTimeMs: 1000,
      dailyRanks: [{ date: '2026-03-10', preset: 'classic-draw1', status: 'won', rank: 1, of: 1 }],
    };
    expect(PlayerStatisticsSchema.safeParse(base).success).toBe(true);
    const noGames = { ...base, winRate: [{ date: '2026-03-10', games: 0, wins: 0, cumulativeWinRate: 0 }] };
    expect(PlayerStatisticsSchema.safeParse(noGames).success).toBe(false);
    const noBoard = {
      ...base,
      dailyRanks: [{ date: '2026-03-10', preset: 'classic-draw1', status: 'won', rank: 1, of: 0 }],
    };
    expect(PlayerStatisticsSchema.safeParse(noBoard).success).toBe(false);
  });
});
