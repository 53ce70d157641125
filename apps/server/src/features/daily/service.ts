/**
 * The daily challenge: deals stored ahead of their day, ranked attempts, practice games, reveals,
 * leaderboards (per daily, all-time) and player statistics.
 *
 * Secrecy: while a day is open (its UTC date is today by the server clock), nothing here returns its deal,
 * deal number or line; only `par` is public. A date after today answers 404 like a date without a daily,
 * so tomorrow's stored daily stays invisible.
 *
 * The service is the daily's one entry point and delegates: the schedule (today's and tomorrow's dailies,
 * settling closed days, the archive, the exports) is daily/schedule.ts; what is allowed and what a view
 * shows is decided purely in daily/decisions.ts; leaderboards and their live watchers are
 * daily/leaderboard.ts, the players' statistics daily/players.ts; every row is read and written by
 * daily/repository.ts and daily/export-repository.ts.
 */
import {
  DAILY_PRESETS,
  type AllTimeLeaderboardSchema,
  type Board,
  type DailyArchiveSchema,
  type DailyTodaySchema,
  type ExportListSchema,
  type FairPlaySignals,
  type GameResponse,
  type LeaderboardQuerySchema,
  type LeaderboardSchema,
  type MeSchema,
  type PlayerPageSchema,
} from '@klondike/protocol';
import type { Deal } from '@klondike/rules';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { DailyRef, GameRooms, Subscriber } from '../../core/rooms/game-rooms.js';
import type { EventBus } from '../../infra/bus/event-bus.js';
import { addDays, closesAt } from '../../infra/dates.js';
import { ApiError } from '../../infra/errors.js';
import type { FairnessRepository } from '../fairness/repository.js';
import { recordSignals } from '../fairness/signals.js';
import type { AuthedPlayer } from '../players/players.js';
import type { DailyWorkPriority } from '../solve/scheduler.js';
import type { SolverPool } from '../solve/task.js';
import {
  type DailyChallenge,
  type DailyResult,
  type DailyReveal,
  challengeOf,
  checkAttempt,
  checkExportDate,
  checkFairPlay,
  checkPractice,
  checkReveal,
  dailyRef,
  leaderboardViewer,
  missingDaily,
  namedDay,
  revealView,
  tomorrowOf,
} from './decisions.js';
import type { ExportRepository } from './export-repository.js';
import type { DailyPreset } from './generate.js';
import { createDailyGame, dailyDeal } from './games.js';
import { LiveLeaderboards, leaderboardPage } from './leaderboard.js';
import { EXPORT_LICENSE } from './open-data.js';
import { allTimeLeaderboard, meView, playerPageView, resultsAt } from './players.js';
import type { DailyRepository, DailyRow, ResultRowLike } from './repository.js';
import { type DailyJobStatus, DailySchedule } from './schedule.js';

export { DAILY_SECRET_KEY } from './deals.js';
export type { DailyJobStatus } from './schedule.js';

type DailyToday = Omit<z.infer<typeof DailyTodaySchema>, 'challenges'> & { challenges: DailyChallenge[] };
type ExportList = z.infer<typeof ExportListSchema>;
type DailyArchive = Omit<z.infer<typeof DailyArchiveSchema>, 'days'> & { days: DailyChallenge[] };
type Leaderboard = z.infer<typeof LeaderboardSchema>;
type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;
type AllTimeLeaderboard = z.infer<typeof AllTimeLeaderboardSchema>;
type PlayerPage = z.infer<typeof PlayerPageSchema>;
type Me = z.infer<typeof MeSchema>;

/** How long `stop` waits for daily work under way before the server closes anyway, ms. */
export const STOP_GRACE_MS = 2_000;

/** Options of the daily service. */
export interface DailyServiceOptions {
  /** The daily's rows (daily/repository.ts). */
  readonly repository: DailyRepository;
  /** The open data files' rows (daily/export-repository.ts). */
  readonly exports: ExportRepository;
  /** The fair-play signals' rows (fairness/repository.ts). */
  readonly fairness: FairnessRepository;
  readonly rooms: GameRooms;
  readonly solver: SolverPool;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** DAILY_SECRET, or undefined to use (and create once) the secret stored in the database. */
  readonly secret: string | undefined;
  /** Closed days kept generated and listed by the archive. */
  readonly archiveDays: number;
  /** Solver time per candidate, ms. */
  readonly solveMs: number;
  /** See `DailyScheduleOptions.rolloverOnFirstUse` (default true). */
  readonly rolloverOnFirstUse?: boolean;
  /**
   * The bus to the other nodes (default: none): a leaderboard change is published on `leaderboards`, and
   * the watchers here hear the changes other nodes committed.
   */
  readonly bus?: EventBus;
}

/** The daily challenge service (see the module comment). All public methods throw `ApiError` for refusals. */
export class DailyService {
  /** The schedule: today's and tomorrow's dailies, settling, the archive, the exports. */
  private readonly schedule: DailySchedule;
  /** The live leaderboards and the fair-play signals recorded after each new row. */
  private readonly live: LiveLeaderboards;
  private readonly repo: DailyRepository;
  /** Today's dailies as the ranked openings need them, by preset (`opening`), and the date they are of. */
  private readonly openings = new Map<DailyPreset, Promise<DailyOpening>>();
  private openingsDate = '';

  /** See `DailyServiceOptions`. */
  constructor(private readonly opts: DailyServiceOptions) {
    this.repo = opts.repository;
    this.schedule = new DailySchedule(opts);
    this.live = new LiveLeaderboards(opts);
  }

  /** Sockets watching daily leaderboards. */
  get watchers(): LiveLeaderboards['watchers'] {
    return this.live.watchers;
  }

  /** Today's UTC date by the server clock. */
  today(): string {
    return this.schedule.today();
  }

  // ---------- schedule (daily/schedule.ts) ----------

  /** Makes sure today's dailies exist (memoised per date) and starts the rest of the schedule. */
  todayReady(): Promise<void> {
    return this.schedule.todayReady();
  }

  /** Hears each day this node first finds playable (daily/schedule.ts `onOpened`). Returns the stop function. */
  onOpened(listener: (date: string) => void): () => void {
    return this.schedule.onOpened(listener);
  }

  /** Today's and tomorrow's dailies, closed days settled; then the fill, in the background. Memoised per date. */
  current(): Promise<void> {
    return this.schedule.current();
  }

  /** Settles the ranked attempts of closed days (memoised per date). */
  settled(): Promise<void> {
    return this.schedule.settled();
  }

  /** The open data files of the closed days, made once each has settled (memoised per date). */
  exported(): Promise<void> {
    return this.schedule.exported();
  }

  /** Runs the whole schedule now and waits for it. */
  tick(): Promise<void> {
    return this.schedule.tick();
  }

  /** What the daily job is doing, for `GET /api/ready`. */
  status(): DailyJobStatus {
    return this.schedule.status();
  }

  /** Settles every ranked attempt of a closed day that has no leaderboard row yet (as `unfinished`). */
  finaliseClosed(): Promise<number> {
    return this.schedule.finaliseClosed();
  }

  /** The stored daily of a date and preset, certifying and storing it first when missing. */
  ensure(date: string, preset: DailyPreset, priority: DailyWorkPriority = 'daily'): Promise<DailyRow> {
    return this.schedule.ensure(date, preset, priority);
  }

  /** Stops generating (the server is closing) and waits up to STOP_GRACE_MS for work under way to end. */
  async stop(): Promise<void> {
    const underWay = this.schedule.stop();
    this.live.close();
    // A deal search under way can take seconds on a loaded machine: wait STOP_GRACE_MS for the work to end,
    // then let the server close (the solver pool's shutdown ends the search; a day left without its deal is
    // generated again by the next node that needs it, the same deal, since candidates are keyed).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...underWay, this.live.idle()]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  // ---------- lookups ----------

  /**
   * A daily that exists for callers: today's or a closed day's (archive days are generated on demand).
   * Errors: `not-found` for a date after today, before the archive without a stored daily, or not a date;
   * `unavailable` for an archive day still being prepared.
   */
  async published(date: string, preset: DailyPreset): Promise<DailyRow> {
    const today = this.today();
    if (namedDay(date, today) === 'today') await this.todayReady();
    else await this.settled();
    const row = await this.repo.daily(date, preset);
    if (row) return row;
    const missing = missingDaily(date, preset, today, this.opts.archiveDays);
    // An archive day not yet filled: never waited for (docs/features.md "Daily challenge"); it is on its way.
    if (missing.fill) this.schedule.startFill();
    throw missing.error;
  }

  /**
   * GET /api/daily: today's challenges, with the caller's own results, and the commitments of tomorrow's
   * dailies stored so far (certified in the background ahead of their day; nothing else of them is public).
   * Waits only for today's dailies.
   */
  async todayView(player: AuthedPlayer | null): Promise<DailyToday> {
    await this.todayReady();
    const today = this.today();
    const [rows, next] = await Promise.all([
      Promise.all(DAILY_PRESETS.map((preset) => this.published(today, preset))),
      this.repo.dailiesOf(addDays(today, 1)),
    ]);
    return {
      date: today,
      now: new Date(this.opts.now()).toISOString(),
      nextAt: new Date(closesAt(today)).toISOString(),
      challenges: await this.challenges(rows, player),
      tomorrow: tomorrowOf(next),
    };
  }

  /**
   * GET /api/daily/archive: the closed days of the archive window that are stored now, newest first, and how
   * many of the window's dailies are still being prepared (`pending`; the fill runs in the background and is
   * started here when it is not yet running). Never waits for a deal search.
   */
  async archiveView(player: AuthedPlayer | null): Promise<DailyArchive> {
    await this.settled();
    const dates = this.schedule.archiveDates(this.today());
    const stored = await this.repo.dailiesOn(dates);
    const pending = dates.length * DAILY_PRESETS.length - stored.length;
    if (pending > 0) this.schedule.startFill();
    const rows = stored.sort((a, b) => b.date.localeCompare(a.date) || a.preset.localeCompare(b.preset));
    // The whole list: the route pages it (infra/http/pagination.ts).
    return { days: await this.challenges(rows, player), pending, nextCursor: null };
  }

  private async challenges(rows: DailyRow[], player: AuthedPlayer | null): Promise<DailyChallenge[]> {
    const count = await this.repo.attemptCounts(rows.map((r) => r.id));
    const yours = player
      ? await resultsAt(this.repo, player, rows, this.opts.now())
      : new Map<number, DailyResult>();
    const today = this.today();
    return rows.map((r) => challengeOf(r, count.get(r.id) ?? 0, yours.get(r.id) ?? null, today));
  }

  /**
   * GET /api/daily/:date/:preset: the deal, par and line of a closed day, with its commitment and the
   * commitment's preimage (daily/commitment.ts). Errors: `forbidden` while open.
   */
  async reveal(date: string, preset: DailyPreset): Promise<DailyReveal> {
    const row = await this.published(date, preset);
    checkReveal(row.date, preset, this.today());
    return revealView(row, preset);
  }

  // ---------- open data ----------

  /** GET /api/exports: the export files of the closed days, newest first (made first when missing). */
  async exportList(): Promise<ExportList> {
    await this.exported();
    const rows = await this.opts.exports.list();
    return {
      license: EXPORT_LICENSE,
      files: rows.map((r) => ({ ...r, url: `/api/exports/${r.date}` })),
      nextCursor: null, // the whole list: the route pages it
    };
  }

  /**
   * GET /api/exports/:date: a closed day's export file (gzip-compressed NDJSON) and its SHA-256.
   * Errors: `not-found` for an open or future day, a day without dailies, or not a date.
   */
  async exportFile(date: string): Promise<{ data: Uint8Array; sha256: string }> {
    checkExportDate(date, this.today());
    await this.exported();
    const row = await this.opts.exports.file(date);
    if (row === null) throw new ApiError('not-found', `no export for ${date}: no daily was played that day`);
    return row;
  }

  // ---------- games ----------

  /**
   * POST /api/daily/:date/:preset/attempt (and the socket's `daily-attempt`, daily/channel.ts): the player's
   * one ranked attempt at today's daily. Errors: `not-found`; `conflict` for a closed day or a second attempt.
   */
  async attempt(date: string, preset: DailyPreset, player: Pick<AuthedPlayer, 'id'>): Promise<GameResponse> {
    const today = this.today();
    const opening = await this.opening(date, preset, today);
    checkAttempt(opening.daily.date, today);
    return createDailyGame(this.opts.rooms, {
      daily: opening.daily,
      deal: opening.deal,
      ranked: true,
      owner: player.id,
    });
  }

  /**
   * Today's daily as its ranked openings need it: its reference and its deal, parsed once per node (and so
   * its first position, built once: rooms/room.ts `newRoom`), read from the database by the first opening
   * only. A stored daily never changes. Other days (refused by `checkAttempt`) are read as they are, and a
   * look-up that fails is not kept. Errors: as `published`.
   */
  private opening(date: string, preset: DailyPreset, today: string): Promise<DailyOpening> {
    if (date !== today) return this.published(date, preset).then(openingOf);
    if (this.openingsDate !== today) {
      this.openings.clear();
      this.openingsDate = today;
    }
    let opening = this.openings.get(preset);
    if (opening === undefined) {
      opening = this.published(date, preset).then(openingOf);
      this.openings.set(preset, opening);
      opening.catch(() => {
        if (this.openings.get(preset) === opening) this.openings.delete(preset);
      });
    }
    return opening;
  }

  /**
   * POST /api/daily/:date/:preset/practice: an unranked game of a closed day's deal, for anyone. Today's
   * daily opens for practice only once its day has closed: a practice game (hints, undo) would preview the
   * deal to a second account.
   * Errors: `not-found`; `forbidden` while the day is open.
   */
  async practice(date: string, preset: DailyPreset, player: AuthedPlayer | null): Promise<GameResponse> {
    const row = await this.published(date, preset);
    checkPractice(row.date, preset, this.today());
    return createDailyGame(this.opts.rooms, {
      daily: dailyRef(row),
      deal: dailyDeal(row),
      ranked: false,
      owner: player?.id ?? null,
    });
  }

  /**
   * GET /api/daily/:date/:preset/fair-play: the fair-play signals of the caller's own ranked result
   * (owner-only), once the day has closed — before, the share of moves on the solver's line would tell
   * that line. Errors: `not-found` (no daily, or no result of the caller); `forbidden` while open.
   */
  async fairPlay(date: string, preset: DailyPreset, player: AuthedPlayer): Promise<FairPlaySignals> {
    const row = await this.published(date, preset);
    checkFairPlay(row.date, this.today());
    await this.live.idle();
    await recordSignals(this.opts.fairness, row.id);
    const r = await this.repo.fairPlayOf(row.id, player.id);
    if (r === null)
      throw new ApiError('not-found', `you have no ranked result at the ${date} ${preset} daily`);
    return { date, preset, firstMoveMs: r.firstMoveMs, lineShare: r.lineShare ?? 0, moves: r.moves };
  }

  // ---------- leaderboards ----------

  /** 1 + the number of rows of the same daily and board that rank before `r`. */
  async rankOf(r: ResultRowLike, board: Board = 'humans', established?: Date): Promise<number> {
    return this.repo.rankOf(r, board, established);
  }

  /**
   * GET /api/daily/:date/:preset/leaderboard: a page of the daily's finished attempts of one board (people
   * or bots) in leaderboard order, or (`around=me`) the page holding the caller's row. Bots are ranked on the
   * bot board only: a bot asking for its place on the human board is refused.
   * Errors: `not-found`; `unauthorized` for `around=me` without a token; `forbidden` for `around=me` on the
   * other kind's board. (The route adds the `distribution`: players/stats.ts.)
   */
  async leaderboard(
    date: string,
    preset: DailyPreset,
    query: LeaderboardQuery,
    player: AuthedPlayer | null,
  ): Promise<Omit<Leaderboard, 'distribution'>> {
    const me = leaderboardViewer(query, player);
    const row = await this.published(date, preset);
    return leaderboardPage(this.repo, row, preset, query, me);
  }

  /** Starts sending `leaderboard` frames for a daily to a socket. Returns the current row count. Errors: `not-found`. */
  async watch(date: string, preset: DailyPreset, subscriber: Subscriber): Promise<number> {
    return this.live.watch(await this.published(date, preset), subscriber);
  }

  /** Called after a leaderboard row was added: tells the daily's watchers (a `leaderboard` frame). */
  resultAdded(daily: DailyRef): void {
    this.live.resultAdded(daily);
  }

  // ---------- players (daily/players.ts) ----------

  /** GET /api/me. Errors: `not-found` when the player no longer exists. */
  async me(player: AuthedPlayer): Promise<Me> {
    await this.settled();
    return meView(this.repo, player.id, this.today());
  }

  /** GET /api/players/:id: name, statistics and recent results. Errors: `not-found`. */
  async playerPage(id: string): Promise<PlayerPage> {
    await this.settled();
    return playerPageView(this.repo, id, this.today(), (r, board) => this.rankOf(r, board));
  }

  /**
   * GET /api/leaderboard: the top players of one board (people by default, or bot accounts) by wins, then
   * win rate, then attempts played.
   */
  async allTime(board: Board = 'humans'): Promise<AllTimeLeaderboard> {
    await this.settled();
    return allTimeLeaderboard(this.repo, board, this.today());
  }
}

/** A daily as its games are made from it: the reference the rooms keep and the parsed deal. */
interface DailyOpening {
  readonly daily: DailyRef;
  readonly deal: Deal;
}

function openingOf(row: DailyRow): DailyOpening {
  return { daily: dailyRef(row), deal: dailyDeal(row) };
}
