/**
 * Daily players (daily/service.ts, "players"): a player's statistics from their leaderboard rows (played,
 * wins, streaks, best times), and the all-time leaderboard of a board.
 */
import type { AllTimeLeaderboardSchema, Board, PlayerStatsSchema } from '@klondike/protocol';
import type { z } from 'zod';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { addDays } from '../../infra/dates.js';
import type { DailyPreset } from './generate.js';
import { boardWhere } from './leaderboard.js';

type PlayerStats = z.infer<typeof PlayerStatsSchema>;
type AllTimeLeaderboard = z.infer<typeof AllTimeLeaderboardSchema>;

/** Players on the all-time leaderboard. */
export const ALL_TIME_SIZE = 100;

/** Statistics of several players from their leaderboard rows, at UTC date `today` (their streaks). */
export async function statsOf(
  prisma: PrismaClient,
  playerIds: string[],
  today: string,
): Promise<Map<string, PlayerStats>> {
  const rows = await prisma.dailyResult.findMany({
    where: { playerId: { in: playerIds } },
    select: { playerId: true, won: true, timeMs: true, daily: { select: { date: true, preset: true } } },
  });
  const out = new Map<string, PlayerStats>();
  for (const id of playerIds) {
    const mine = rows.filter((r) => r.playerId === id);
    const won = mine.filter((r) => r.won);
    const best = (preset: DailyPreset): number | null => {
      const times = won.filter((r) => r.daily.preset === preset).map((r) => r.timeMs);
      return times.length === 0 ? null : Math.min(...times);
    };
    const s = streaks(
      won.map((r) => r.daily.date),
      today,
    );
    out.set(id, {
      played: mine.length,
      wins: won.length,
      winRate: mine.length === 0 ? 0 : won.length / mine.length,
      currentStreak: s.current,
      bestStreak: s.best,
      bestTimeMs: { 'classic-draw1': best('classic-draw1'), 'classic-draw3': best('classic-draw3') },
    });
  }
  return out;
}

/**
 * The all-time leaderboard of one board (people, or bot accounts): the top ALL_TIME_SIZE players by wins,
 * then win rate, then attempts played, with their statistics at UTC date `today`.
 */
export async function allTimeLeaderboard(
  prisma: PrismaClient,
  board: Board,
  today: string,
): Promise<AllTimeLeaderboard> {
  const [played, wins] = await Promise.all([
    prisma.dailyResult.groupBy({ by: ['playerId'], where: boardWhere(board), _count: { _all: true } }),
    prisma.dailyResult.groupBy({
      by: ['playerId'],
      where: { won: true, ...boardWhere(board) },
      _count: { _all: true },
    }),
  ]);
  const winsOf = new Map(wins.map((w) => [w.playerId, w._count._all]));
  const ranked = played
    .map((p) => {
      const w = winsOf.get(p.playerId) ?? 0;
      return { id: p.playerId, played: p._count._all, wins: w, rate: w / p._count._all };
    })
    .sort(
      (a, b) =>
        b.wins - a.wins || b.rate - a.rate || b.played - a.played || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, ALL_TIME_SIZE);
  const ids = ranked.map((r) => r.id);
  const [stats, players] = await Promise.all([
    statsOf(prisma, ids, today),
    prisma.player.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
  ]);
  const nameOf = new Map(players.map((p) => [p.id, p.name]));
  return {
    board,
    entries: ranked.map((r, i) => {
      const s = stats.get(r.id);
      if (!s) throw new Error('stats missing');
      return { ...s, rank: i + 1, playerId: r.id, name: nameOf.get(r.id) ?? '', bot: board === 'bots' };
    }),
  };
}

/**
 * Streaks over a set of dates with a won daily: `current` counts back from `today` (or from yesterday when
 * today has no win yet, so an unplayed today does not break a streak); `best` is the longest run ever.
 */
export function streaks(wonDates: Iterable<string>, today: string): { current: number; best: number } {
  const set = new Set(wonDates);
  const sorted = [...set].sort();
  let best = 0;
  let run = 0;
  let prev: string | undefined;
  for (const d of sorted) {
    run = prev !== undefined && addDays(prev, 1) === d ? run + 1 : 1;
    best = Math.max(best, run);
    prev = d;
  }
  let day = set.has(today) ? today : addDays(today, -1);
  let current = 0;
  while (set.has(day)) {
    current++;
    day = addDays(day, -1);
  }
  return { current, best };
}
