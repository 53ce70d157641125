/**
 * Player statistics, game history and a daily's result distribution (docs/features.md "Statistics"), read from the
 * stored games: every finished game (`won`, `resigned`, `blocked`; docs/rules.md R12/R13) whose `Game.playerId`
 * is the player — casual games created with the player's token, practice games, ranked attempts, races.
 *
 * A game's time is the server's game clock: `endedAt − startedAt` (the first logged action; a ranked
 * attempt's creation), ms. A ranked daily attempt counts under its daily preset; options matching no preset
 * count as `custom`.
 */
import type {
  Board,
  DailyPreset,
  HistoryEntry,
  HistoryPage,
  HistoryQuery,
  PlayerStatistics,
  PresetStats,
  ResultDistribution,
  StatsPreset,
  TimeHistogram,
} from '@klondike/protocol';
import { HistoryCursorSchema, type LeaderboardEntrySchema, StatsPresetSchema } from '@klondike/protocol';
import type { z } from 'zod';
import { addDays, closesAt, startOfDate, utcDate } from '../../infra/dates.js';
import { gameOptionsOf } from '../../infra/db/game-options.js';
import { ApiError } from '../../infra/errors.js';
import type { GameRow, StatsRepository } from './stats-repository.js';

/** Days of the win-rate series (today included). */
export const WIN_RATE_DAYS = 90;
/** Days of the daily-rank series (today included). */
export const DAILY_RANK_DAYS = 30;
/** Most buckets of a winning-time histogram. */
export const MAX_BUCKETS = 12;

/** Bucket widths a histogram may use, ms: 5 s … 1 day. */
const BUCKET_WIDTHS = [
  5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000,
  21_600_000, 43_200_000, 86_400_000,
] as const;

/**
 * A histogram of times (ms): the narrowest width of BUCKET_WIDTHS that covers every time in at most
 * MAX_BUCKETS equal buckets [from, to), starting at the bucket of the fastest time. No time → no bucket.
 */
export function timeHistogram(times: readonly number[]): TimeHistogram {
  if (times.length === 0) return { bucketMs: 60_000, buckets: [] };
  const min = Math.min(...times);
  const max = Math.max(...times);
  const width =
    BUCKET_WIDTHS.find((w) => Math.floor(max / w) - Math.floor(min / w) + 1 <= MAX_BUCKETS) ??
    Math.ceil((max + 1) / MAX_BUCKETS);
  const first = Math.floor(min / width);
  const count = Math.floor(max / width) - first + 1;
  const buckets = Array.from({ length: count }, (_, i) => ({
    fromMs: (first + i) * width,
    toMs: (first + i + 1) * width,
    count: 0,
  }));
  for (const t of times) {
    const b = buckets[Math.floor(t / width) - first];
    if (b) b.count++;
  }
  return { bucketMs: width, buckets };
}

/** Streaks of wins over results in end-time order: the run ending with the last one, and the longest. */
export function winStreaks(wonInOrder: readonly boolean[]): { current: number; best: number } {
  let run = 0;
  let best = 0;
  for (const won of wonInOrder) {
    run = won ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return { current: run, best };
}

/** The finished statuses of a game (docs/rules.md R12/R13). */
const FINISHED = ['won', 'resigned', 'blocked'] as const;

/** The preset a finished game counts under: its own, a ranked attempt's daily preset, or `custom`. */
function presetOf(g: GameRow): StatsPreset {
  const name = g.preset ?? (g.ranked && g.daily ? g.daily.preset : null);
  const parsed = StatsPresetSchema.safeParse(name);
  return parsed.success ? parsed.data : 'custom';
}

/** Game time of a finished game, ms. */
function timeOf(g: GameRow): number {
  const end = (g.endedAt ?? g.createdAt).getTime();
  return Math.max(0, end - (g.startedAt ?? g.createdAt).getTime());
}

/**
 * Whether GET /api/games/:id/replay answers at `now` — the same rule as `GameRooms.replay` (docs/features.md "Fair
 * play"): a race game once its race has finished, a daily game once its day has closed, another game once
 * won or resigned.
 */
function replayOpen(g: GameRow, now: number): boolean {
  if (g.raceEntry !== null) return g.raceEntry.race.status === 'finished';
  if (g.daily !== null) return now >= closesAt(g.daily.date);
  return g.status === 'won' || g.status === 'resigned';
}

function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

function mean(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Statistics of one preset's finished games, in end-time order. */
function presetStats(preset: StatsPreset, games: readonly GameRow[]): PresetStats {
  const wins = games.filter((g) => g.status === 'won');
  const times = wins.map(timeOf);
  const moves = wins.map((g) => g.moves);
  const s = winStreaks(games.map((g) => g.status === 'won'));
  // A ranked attempt's options are its daily preset's (GAME_SELECT reads the daily's preset).
  const vegas = games.filter(
    (g) => gameOptionsOf({ ...g, dailyPreset: g.daily?.preset ?? null }, `game ${g.id}`).scoring === 'vegas',
  );
  const avgTime = mean(times);
  const avgMoves = mean(moves);
  return {
    preset,
    games: games.length,
    wins: wins.length,
    winRate: ratio(wins.length, games.length),
    currentStreak: s.current,
    bestStreak: s.best,
    bestTimeMs: times.length === 0 ? null : Math.min(...times),
    averageTimeMs: avgTime === null ? null : Math.round(avgTime),
    bestMoves: moves.length === 0 ? null : Math.min(...moves),
    averageMoves: avgMoves === null ? null : Math.round(avgMoves * 10) / 10,
    vegasBalance: vegas.length === 0 ? null : vegas.reduce((sum, g) => sum + g.score, 0),
  };
}

/** Rank of a stored daily result on a board (DailyService.rankOf). */
export type RankOf = (
  r: {
    dailyId: number;
    playerId: string;
    gameId: string;
    status: 'won' | 'resigned' | 'blocked' | 'unfinished';
    won: boolean;
    score: number;
    timeMs: number;
    moves: number;
    finishedAt: Date;
  },
  board: Board,
) => Promise<number>;

/**
 * GET /api/players/:id/stats at server time `now` (ms). `rankOf` ranks a daily result on its board.
 * Errors: `not-found` for an unknown player.
 */
export async function playerStatistics(
  repo: StatsRepository,
  id: string,
  now: number,
  rankOf: RankOf,
): Promise<PlayerStatistics> {
  const player = await repo.player(id);
  if (player === null) throw new ApiError('not-found', `no player ${id}`);
  const board: Board = player.bot ? 'bots' : 'humans';
  const today = utcDate(now);
  const games = await repo.finishedGames(id, FINISHED);

  const byPreset = new Map<StatsPreset, GameRow[]>();
  for (const g of games) {
    const p = presetOf(g);
    byPreset.set(p, [...(byPreset.get(p) ?? []), g]);
  }
  const presets = [...byPreset]
    .map(([p, gs]) => presetStats(p, gs))
    .sort((a, b) => b.games - a.games || (a.preset < b.preset ? -1 : 1));

  const firstDay = addDays(today, -(WIN_RATE_DAYS - 1));
  const days = new Map<string, { games: number; wins: number }>();
  let before = { games: 0, wins: 0 };
  for (const g of games) {
    const day = utcDate((g.endedAt ?? g.createdAt).getTime());
    const won = g.status === 'won' ? 1 : 0;
    if (day < firstDay) before = { games: before.games + 1, wins: before.wins + won };
    else {
      const d = days.get(day) ?? { games: 0, wins: 0 };
      days.set(day, { games: d.games + 1, wins: d.wins + won });
    }
  }
  let run = before;
  const winRate = [...days]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, d]) => {
      run = { games: run.games + d.games, wins: run.wins + d.wins };
      return { date, games: d.games, wins: d.wins, cumulativeWinRate: ratio(run.wins, run.games) };
    });

  const winTimes = games.filter((g) => g.status === 'won').map(timeOf);

  const results = await repo.dailyResultsSince(id, addDays(today, -(DAILY_RANK_DAYS - 1)));
  const dailyRanks = await Promise.all(
    results.map(async (r) => ({
      date: r.daily.date,
      preset: r.daily.preset as DailyPreset,
      status: r.status,
      rank: await rankOf(r, board),
      of: await repo.countOnBoard(r.dailyId, board),
    })),
  );

  const wins = games.filter((g) => g.status === 'won').length;
  return {
    id: player.id,
    name: player.name,
    bot: player.bot,
    asOf: new Date(now).toISOString(),
    total: { games: games.length, wins, winRate: ratio(wins, games.length) },
    presets,
    winRate,
    winTimes: timeHistogram(winTimes),
    bestTimeMs: winTimes.length === 0 ? null : Math.min(...winTimes),
    dailyRanks,
  };
}

/** Reads a history cursor (`<endedAt ms>_<game id>`). */
function parseCursor(cursor: string): { endedAt: Date; id: string } {
  const parsed = HistoryCursorSchema.parse(cursor);
  const cut = parsed.indexOf('_');
  return { endedAt: new Date(Number(parsed.slice(0, cut))), id: parsed.slice(cut + 1) };
}

/**
 * GET /api/players/:id/games: the player's finished games, newest first (end time, then id), `limit` a
 * page, filtered by preset and result (`lost` = resigned or blocked); `cursor` = the previous page's
 * `nextCursor`. Each row says whether its replay is open at `now`.
 * Errors: `not-found` for an unknown player.
 */
export async function playerHistory(
  repo: StatsRepository,
  id: string,
  query: HistoryQuery,
  now: number,
): Promise<HistoryPage> {
  const player = await repo.player(id);
  if (player === null) throw new ApiError('not-found', `no player ${id}`);
  const statuses =
    query.result === 'won'
      ? ['won' as const]
      : query.result === 'lost'
        ? ['resigned' as const, 'blocked' as const]
        : [...FINISHED];
  const after = query.cursor === undefined ? undefined : parseCursor(query.cursor);
  const rows = await repo.historyPage(id, statuses, query.preset, after, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const games: HistoryEntry[] = page.map((g) => ({
    gameId: g.id,
    kind:
      g.raceCode !== null || g.raceEntry !== null
        ? 'race'
        : g.dailyId !== null
          ? g.ranked
            ? 'daily-ranked'
            : 'daily-practice'
          : 'casual',
    preset: presetOf(g),
    status: g.status as HistoryEntry['status'],
    score: g.score,
    moves: g.moves,
    timeMs: timeOf(g),
    endedAt: (g.endedAt ?? g.createdAt).toISOString(),
    replay: replayOpen(g, now),
  }));
  return {
    games,
    nextCursor:
      rows.length > query.limit && last ? `${(last.endedAt ?? last.createdAt).getTime()}_${last.id}` : null,
  };
}

/**
 * The distribution of a daily's results on `board` as the leaderboard shows it: winning times of the
 * board's rows (`established`: accounts created before it only, the default view) and, when the caller has
 * a row (`me`, ranked in the same view), the share of the other rows it ranks above.
 */
export async function resultDistribution(
  repo: StatsRepository,
  date: string,
  preset: DailyPreset,
  board: Board,
  includeProvisional: boolean,
  me: z.infer<typeof LeaderboardEntrySchema> | null,
): Promise<ResultDistribution> {
  const established = includeProvisional ? undefined : new Date(startOfDate(date));
  const rows = await repo.boardRows(date, preset, board, established);
  const wins = rows.filter((r) => r.won);
  let youBeat: number | null = null;
  if (me !== null) {
    const others = rows.filter((r) => r.playerId !== me.playerId).length;
    // me.rank counts the rows of this view ranked above the caller's, plus one.
    youBeat = others === 0 ? null : Math.max(0, others - (me.rank - 1)) / others;
  }
  return {
    finished: rows.length,
    wins: wins.length,
    winTimes: timeHistogram(wins.map((r) => r.timeMs)),
    yourTimeMs: me !== null && me.status === 'won' ? me.timeMs : null,
    youBeat,
  };
}
