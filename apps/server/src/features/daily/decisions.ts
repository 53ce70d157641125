/**
 * What the daily decides, as pure functions of the stored rows and the UTC date (no database, no clock of
 * their own; tested as tables in test/features/daily/decisions.test.ts): whether a day is open, which days a
 * caller may name, who may open a ranked attempt or a practice game, when a day's deal, fair-play signals or
 * export file may be shown, which of the archive's dailies are missing and in which order the fill works, and
 * what a challenge, a result under way and a finished result look like.
 *
 * Secrecy (docs/features.md "Daily challenge"): while a day is open (its UTC date is today) nothing of its
 * deal, deal number or line is shown; a date after today is answered like a date without a daily.
 */
import {
  DAILY_PRESETS,
  type Board,
  type DailyChallengeSchema,
  type DailyResultSchema,
  type DailyRevealSchema,
  type DailyTodaySchema,
  type LeaderboardQuerySchema,
  MoveSchema,
} from '@klondike/protocol';
import type { z } from 'zod';
import { addDays, closesAt, isCalendarDate, startOfDate } from '../../infra/dates.js';
import { ApiError } from '../../infra/errors.js';
import { commitmentOf, revealOf } from './commitment.js';
import type { DailyPreset } from './generate.js';
import type { DailyWorkPriority } from '../solve/scheduler.js';
import type { GameFacts, ResultRow } from '../../core/rooms/policies.js';
import type { AttemptRow, DailyRow, ResultRowLike } from './repository.js';

/** A challenge as the daily builds it; the rating fields are added by the ratings (daily/routes.ts). */
export type DailyChallenge = Omit<z.infer<typeof DailyChallengeSchema>, 'difficulty' | 'yourRating'>;
/** A commitment of tomorrow's daily (GET /api/daily `tomorrow`). */
export type TomorrowCommitment = z.infer<typeof DailyTodaySchema>['tomorrow'][number];
/** A player's result at a daily (finished, or under way with `status: 'playing'`). */
export type DailyResult = z.infer<typeof DailyResultSchema>;
/** A closed day's reveal (GET /api/daily/:date/:preset). */
export type DailyReveal = z.infer<typeof DailyRevealSchema>;
type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;

/** The identity of a caller as the daily's rules need it. */
export interface DailyCaller {
  readonly id: string;
  readonly bot: boolean;
}

/** Whether the daily of `date` is open at UTC date `today` (its day is today). */
export function isOpen(date: string, today: string): boolean {
  return date === today;
}

/** The archive window: the `archiveDays` closed days before `today`, newest first. */
export function archiveDates(today: string, archiveDays: number): string[] {
  return Array.from({ length: archiveDays }, (_, i) => addDays(today, -(i + 1)));
}

/** The dailies of `dates` (in that order, presets in DAILY_PRESETS order) whose `date|preset` is not in `stored`. */
export function missingDailies(
  dates: readonly string[],
  stored: ReadonlySet<string>,
): { date: string; preset: DailyPreset }[] {
  return dates.flatMap((date) =>
    DAILY_PRESETS.filter((preset) => !stored.has(`${date}|${preset}`)).map((preset) => ({ date, preset })),
  );
}

/**
 * The days whose pars the fill refines, in order, with the solver priority of each: today and tomorrow
 * (`par`), then the archive window's days (`archive`) in the order given.
 */
export function refineOrder(
  today: string,
  archive: readonly string[],
): (readonly [string, DailyWorkPriority])[] {
  return [[today, 'par'], [addDays(today, 1), 'par'], ...archive.map((d) => [d, 'archive'] as const)];
}

/**
 * Which day a caller names: `today` (wait for today's dailies) or `closed` (wait for the closed days to
 * settle). Errors: `not-found` for a date after `today` or not a calendar date.
 */
export function namedDay(date: string, today: string): 'today' | 'closed' {
  if (!isCalendarDate(date) || date > today) throw new ApiError('not-found', `no daily for ${date}`);
  return date === today ? 'today' : 'closed';
}

/**
 * The refusal of a named day without a stored daily: within the archive window it is `unavailable` (being
 * prepared: `fill` says the background fill should be started), before it `not-found`.
 */
export function missingDaily(
  date: string,
  preset: DailyPreset,
  today: string,
  archiveDays: number,
): { error: ApiError; fill: boolean } {
  if (date >= addDays(today, -archiveDays))
    return {
      error: new ApiError(
        'unavailable',
        `the ${date} ${preset} daily is still being prepared; retry shortly`,
      ),
      fill: true,
    };
  return { error: new ApiError('not-found', `no daily for ${date} ${preset}`), fill: false };
}

/** May a player open a ranked attempt at the daily of `date`? Only while open. Errors: `conflict`. */
export function checkAttempt(date: string, today: string): void {
  if (!isOpen(date, today))
    throw new ApiError(
      'conflict',
      `the day has closed: ranked attempts are for today's daily only (${today}); play ${date} as practice`,
    );
}

/**
 * May anyone practise the daily of `date`? Only once closed: a practice game (hints, undo) would preview the
 * open deal to a second account. Errors: `forbidden`.
 */
export function checkPractice(date: string, preset: DailyPreset, today: string): void {
  if (isOpen(date, today))
    throw new ApiError(
      'forbidden',
      `practice on the ${date} ${preset} daily opens once its day has closed (UTC midnight)`,
    );
}

/** May the deal, par and line of the daily of `date` be shown? Only once closed. Errors: `forbidden`. */
export function checkReveal(date: string, preset: DailyPreset, today: string): void {
  if (isOpen(date, today))
    throw new ApiError('forbidden', `the ${date} ${preset} daily is revealed once its day has closed`);
}

/**
 * May a player see their fair-play signals at the daily of `date`? Only once closed: the share of moves on
 * the solver's line would tell that line. Errors: `forbidden`.
 */
export function checkFairPlay(date: string, today: string): void {
  if (isOpen(date, today))
    throw new ApiError('forbidden', 'fair-play signals are shown once the day has closed');
}

/** May the export file of `date` exist? Only for a closed calendar day. Errors: `not-found`. */
export function checkExportDate(date: string, today: string): void {
  if (!isCalendarDate(date) || date >= today)
    throw new ApiError('not-found', `no export for ${date}: a day is exported once it has closed`);
}

/**
 * Whose row a leaderboard page on `query.board` holds for the caller: the caller's id when they are ranked on
 * that board (people on `humans`, bots on `bots`), else null. Errors: `unauthorized` for `around=me` without a
 * caller; `forbidden` for `around=me` on the other kind's board.
 */
export function leaderboardViewer(
  query: Pick<LeaderboardQuery, 'around' | 'board'>,
  caller: DailyCaller | null,
): string | null {
  if (query.around === 'me' && caller === null)
    throw new ApiError('unauthorized', 'around=me needs your player token');
  const onBoard = caller !== null && caller.bot === (query.board === 'bots');
  if (query.around === 'me' && !onBoard)
    throw new ApiError(
      'forbidden',
      caller?.bot ? 'bots are ranked on the bot board (board=bots)' : 'only bots are ranked on the bot board',
    );
  return caller !== null && onBoard ? caller.id : null;
}

/** The board a caller's own results rank on. */
export function boardOf(caller: { readonly bot: boolean }): Board {
  return caller.bot ? 'bots' : 'humans';
}

/** The daily ref a daily's games carry (rooms/policies.ts `DailyRef`). */
export function dailyRef(row: DailyRow): { id: number; date: string; preset: DailyPreset; closesAt: number } {
  return { id: row.id, date: row.date, preset: row.preset as DailyPreset, closesAt: closesAt(row.date) };
}

/** A daily as a challenge at `today`: `players` ranked attempts, the caller's result `you`. */
export function challengeOf(
  row: DailyRow,
  players: number,
  you: DailyResult | null,
  today: string,
): DailyChallenge {
  return {
    date: row.date,
    preset: row.preset as DailyPreset,
    players,
    closesAt: new Date(closesAt(row.date)).toISOString(),
    closed: !isOpen(row.date, today),
    par: row.par,
    parProven: row.parProven,
    you,
    commitment: commitmentOf(row),
  };
}

/** The commitments of tomorrow's stored dailies (a daily stored before commitments has none: left out). */
export function tomorrowOf(rows: readonly DailyRow[]): TomorrowCommitment[] {
  return rows.flatMap((r) => {
    const commitment = commitmentOf(r);
    return commitment === null
      ? []
      : [
          {
            date: r.date,
            preset: r.preset as DailyPreset,
            opensAt: new Date(startOfDate(r.date)).toISOString(),
            commitment,
          },
        ];
  });
}

/**
 * A ranked attempt under way as its player sees it at `now`: its score and moves so far, its time from its
 * first action to now (or to its day's close, `closes`, if earlier), no rank.
 */
export function playingResult(a: AttemptRow, closes: number, now: number): DailyResult {
  const started = a.game.startedAt?.getTime() ?? null;
  const end = Math.min(now, closes);
  return {
    gameId: a.gameId,
    status: 'playing',
    score: a.game.score,
    timeMs: started === null ? 0 : Math.max(0, end - started),
    moves: a.game.moves,
    rank: null,
  };
}

/** A finished attempt's leaderboard row as its result, with its rank on its player's board. */
export function finishedResult(r: ResultRowLike, rank: number): DailyResult {
  return { gameId: r.gameId, status: r.status, score: r.score, timeMs: r.timeMs, moves: r.moves, rank };
}

/** A closed day's reveal: its deal, par, line, commitment and the commitment's preimage. */
export function revealView(row: DailyRow, preset: DailyPreset): DailyReveal {
  return {
    date: row.date,
    preset,
    commitment: commitmentOf(row),
    reveal: revealOf(row),
    deal: row.deal,
    par: row.par,
    parProven: row.parProven,
    parLowerBound: row.parLowerBound,
    line: MoveSchema.array().parse(row.line),
  };
}

/**
 * The leaderboard row of a ranked attempt whose day has closed at `now` while it was still playing: status
 * `unfinished`, with the score, time and moves of its standing (`standingAt`) when it ended or else when the
 * day closed, finished at the close. Null for any other game (not a ranked attempt, no daily or player) and
 * for a day still open.
 */
export function closedDayRow(
  game: Pick<GameFacts, 'kind' | 'daily' | 'owner' | 'endedAt'>,
  now: number,
  standingAt: (end: number) => { score: number; timeMs: number; moves: number },
): ResultRow | null {
  const daily = game.daily;
  if (game.kind !== 'daily-ranked' || daily === null || game.owner === null) return null;
  if (now < daily.closesAt) return null;
  const standing = standingAt(game.endedAt ?? daily.closesAt);
  return {
    status: 'unfinished',
    score: standing.score,
    timeMs: standing.timeMs,
    moves: standing.moves,
    finishedAt: daily.closesAt,
  };
}
