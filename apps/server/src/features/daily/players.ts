/**
 * Daily players (daily/service.ts, "players"): a player's statistics from their leaderboard rows (played,
 * wins, streaks, best times), the all-time leaderboard of a board, and the pages of a player (GET /api/me,
 * GET /api/players/:id). What is counted and how it is ordered is decided here, purely (`statsFromRows`,
 * `rankAllTime`, `streaks`); the rows are read by daily/repository.ts.
 */
import type {
  AllTimeLeaderboardSchema,
  Board,
  MeSchema,
  PlayerPageSchema,
  PlayerStatsSchema,
} from '@klondike/protocol';
import type { z } from 'zod';
import { addDays, closesAt } from '../../infra/dates.js';
import { ApiError } from '../../infra/errors.js';
import { storedSettings } from '../players/players.js';
import { type DailyResult, boardOf, finishedResult, playingResult } from './decisions.js';
import type { DailyPreset } from './generate.js';
import type { DailyRepository, DailyRow, PlayerCounts, ResultRowLike, StatsRow } from './repository.js';

type PlayerStats = z.infer<typeof PlayerStatsSchema>;
type AllTimeLeaderboard = z.infer<typeof AllTimeLeaderboardSchema>;
type PlayerPage = z.infer<typeof PlayerPageSchema>;
type Me = z.infer<typeof MeSchema>;

/** Players on the all-time leaderboard. */
export const ALL_TIME_SIZE = 100;

/** Results shown on a player page. */
export const RECENT_RESULTS = 20;

/** Rank of a stored leaderboard row on a board (DailyService.rankOf). */
export type RankOf = (r: ResultRowLike, board: Board) => Promise<number>;

/** Statistics of each of `playerIds` from their leaderboard rows `rows`, at UTC date `today` (their streaks). */
export function statsFromRows(
  rows: readonly StatsRow[],
  playerIds: readonly string[],
  today: string,
): Map<string, PlayerStats> {
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
 * The all-time order of a board's players: by wins, then win rate, then attempts played (then id), the top
 * ALL_TIME_SIZE.
 */
export function rankAllTime(counts: readonly PlayerCounts[]): { id: string; played: number; wins: number }[] {
  return counts
    .map((p) => ({ id: p.playerId, played: p.played, wins: p.wins, rate: p.wins / p.played }))
    .sort(
      (a, b) =>
        b.wins - a.wins || b.rate - a.rate || b.played - a.played || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, ALL_TIME_SIZE)
    .map(({ id, played, wins }) => ({ id, played, wins }));
}

/** Statistics of one player at UTC date `today`. */
async function statsOf(repo: DailyRepository, playerId: string, today: string): Promise<PlayerStats> {
  const s = statsFromRows(await repo.statsRows([playerId]), [playerId], today).get(playerId);
  if (!s) throw new Error('stats missing');
  return s;
}

/**
 * The all-time leaderboard of one board (people, or bot accounts): the top ALL_TIME_SIZE players by wins,
 * then win rate, then attempts played, with their statistics at UTC date `today`.
 */
export async function allTimeLeaderboard(
  repo: DailyRepository,
  board: Board,
  today: string,
): Promise<AllTimeLeaderboard> {
  const ranked = rankAllTime(await repo.countsOnBoard(board));
  const ids = ranked.map((r) => r.id);
  const [rows, nameOf] = await Promise.all([repo.statsRows(ids), repo.names(ids)]);
  const stats = statsFromRows(rows, ids, today);
  return {
    board,
    nextCursor: null, // the whole board: the route pages it
    entries: ranked.map((r, i) => {
      const s = stats.get(r.id);
      if (!s) throw new Error('stats missing');
      return { ...s, rank: i + 1, playerId: r.id, name: nameOf.get(r.id) ?? '', bot: board === 'bots' };
    }),
  };
}

/** GET /api/me of player `id` at UTC date `today`. Errors: `not-found` when the player no longer exists. */
export async function meView(repo: DailyRepository, id: string, today: string): Promise<Me> {
  const row = await repo.player(id);
  if (!row) throw new ApiError('not-found', `no player ${id}`);
  return {
    id: row.id,
    name: row.name,
    bot: row.bot,
    createdAt: row.createdAt.toISOString(),
    stats: await statsOf(repo, row.id, today),
    settings: storedSettings(row.settings),
  };
}

/**
 * GET /api/players/:id at UTC date `today`: name, statistics and the RECENT_RESULTS latest results, each
 * ranked on the player's board by `rankOf`. Errors: `not-found`.
 */
export async function playerPageView(
  repo: DailyRepository,
  id: string,
  today: string,
  rankOf: RankOf,
): Promise<PlayerPage> {
  const row = await repo.player(id);
  if (!row) throw new ApiError('not-found', `no player ${id}`);
  const recent = await repo.recentResults(id, RECENT_RESULTS);
  return {
    id: row.id,
    name: row.name,
    bot: row.bot,
    createdAt: row.createdAt.toISOString(),
    marked: row.markedAt !== null,
    stats: await statsOf(repo, row.id, today),
    recent: await Promise.all(
      recent.map(async (r) => ({
        ...finishedResult(r, await rankOf(r, boardOf(row))),
        date: r.daily.date,
        preset: r.daily.preset as DailyPreset,
      })),
    ),
  };
}

/**
 * A player's results (finished or under way at `now`) at the dailies `rows`, by daily id; finished ones
 * ranked on the player's own board.
 */
export async function resultsAt(
  repo: DailyRepository,
  player: { readonly id: string; readonly bot: boolean },
  rows: readonly DailyRow[],
  now: number,
): Promise<Map<number, DailyResult>> {
  const { attempts, results } = await repo.playerAt(
    player.id,
    rows.map((r) => r.id),
  );
  const out = new Map<number, DailyResult>();
  const dateOf = new Map(rows.map((r) => [r.id, r.date]));
  for (const a of attempts) out.set(a.dailyId, playingResult(a, closesAt(dateOf.get(a.dailyId) ?? ''), now));
  for (const r of results) out.set(r.dailyId, finishedResult(r, await repo.rankOf(r, boardOf(player))));
  return out;
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
