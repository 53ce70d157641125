/**
 * The daily challenge: deals stored ahead of their day, ranked attempts, practice games, reveals,
 * leaderboards (per daily, all-time) and player statistics.
 *
 * Secrecy: while a day is open (its UTC date is today by the server clock), nothing here returns its deal,
 * deal number or line; only `par` is public. A date after today answers 404 like a date without a daily,
 * so tomorrow's stored daily stays invisible.
 *
 * Schedule: `current()` makes sure today's and tomorrow's dailies exist and settles the attempts of closed
 * days (memoised per date, so every daily route can await it cheaply); the archive (the last
 * `archiveDays` days) is filled in the background after that. `tick()` runs all of it and is what the
 * daily plugin's timer calls. The dailies themselves are made and refined by daily/deals.ts; leaderboards
 * are daily/leaderboard.ts, the players' statistics daily/players.ts.
 */
import {
  DAILY_PRESETS,
  type AllTimeLeaderboardSchema,
  type Board,
  type DailyArchiveSchema,
  type DailyChallengeSchema,
  type DailyResultSchema,
  type DailyRevealSchema,
  type DailyTodaySchema,
  type ExportListSchema,
  type FairPlaySignals,
  type GameResponse,
  type LeaderboardQuerySchema,
  type LeaderboardSchema,
  type MeSchema,
  MoveSchema,
  type PlayerPageSchema,
  type PlayerStatsSchema,
} from '@klondike/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../../infra/bus/event-bus.js';
import type { z } from 'zod';
import { ApiError } from '../../infra/errors.js';
import type { DailyDeal, PrismaClient } from '../../generated/prisma/client.js';
import { type AuthedPlayer, storedSettings } from '../players/players.js';
import type { SolverPool } from '../solve/task.js';
import type { DailyRef, GameRooms, Subscriber } from '../../core/rooms/game-rooms.js';
import { recordSignals } from '../fairness/signals.js';
import { createDailyGame, settleClosedAttempt } from './games.js';
import { addDays, closesAt, isCalendarDate, startOfDate, utcDate } from '../../infra/dates.js';
import type { DailyWorkPriority } from '../solve/scheduler.js';
import { type DailyPreset, GenerationStopped } from './generate.js';
import { commitmentOf, revealOf } from './commitment.js';
import { EXPORT_LICENSE, storeMissingExports } from './open-data.js';
import {
  type LeaderboardFrame,
  LeaderboardWatchers,
  type ResultRowLike,
  boardWhere,
  isLeaderboardFrame,
  leaderboardPage,
  rankOf,
} from './leaderboard.js';
import { allTimeLeaderboard, statsOf } from './players.js';
import { DailyDeals } from './deals.js';

export { LeaderboardWatchers } from './leaderboard.js';
export { ALL_TIME_SIZE } from './players.js';
export { DAILY_SECRET_KEY } from './deals.js';

/** A challenge as this service builds it; the rating fields are added by the ratings (routes/daily.ts). */
type DailyChallenge = Omit<z.infer<typeof DailyChallengeSchema>, 'difficulty' | 'yourRating'>;
type DailyToday = Omit<z.infer<typeof DailyTodaySchema>, 'challenges'> & { challenges: DailyChallenge[] };
type ExportList = z.infer<typeof ExportListSchema>;
type DailyArchive = Omit<z.infer<typeof DailyArchiveSchema>, 'days'> & { days: DailyChallenge[] };
type DailyResult = z.infer<typeof DailyResultSchema>;
type DailyReveal = z.infer<typeof DailyRevealSchema>;
type Leaderboard = z.infer<typeof LeaderboardSchema>;
type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;
type AllTimeLeaderboard = z.infer<typeof AllTimeLeaderboardSchema>;
type PlayerStats = z.infer<typeof PlayerStatsSchema>;
type PlayerPage = z.infer<typeof PlayerPageSchema>;
type Me = z.infer<typeof MeSchema>;

/** What the daily job is doing (GET /api/ready's `daily`). */
export interface DailyJobStatus {
  /** Today's dailies are stored (by this node's knowledge). */
  readonly todayReady: boolean;
  /** Archive dailies not yet stored, as the fill last counted them; null before the fill first ran. */
  readonly archivePending: number | null;
  /** Par refinements under way or waiting. */
  readonly parPending: number;
  /** The background fill (archive, then pars) is running. */
  readonly backfilling: boolean;
}

/** How long `stop` waits for daily work under way before the server closes anyway, ms. */
export const STOP_GRACE_MS = 2_000;

/** Results shown on a player page. */
export const RECENT_RESULTS = 20;

/** Options of the daily service. */
export interface DailyServiceOptions {
  readonly prisma: PrismaClient;
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
  /**
   * The bus to the other nodes (default: none): a leaderboard change is published on `leaderboards`, and
   * the watchers here hear the changes other nodes committed.
   */
  readonly bus?: EventBus;
}

/** The daily challenge service (see the module comment). All public methods throw `ApiError` for refusals. */
export class DailyService {
  /** Sockets watching daily leaderboards. */
  readonly watchers = new LeaderboardWatchers();
  /** The stored dailies: made, refined (deals.ts). */
  private readonly deals: DailyDeals;
  /** Today's dailies made ready, per date (see `todayReady`). */
  private readonly todays = new Map<string, Promise<void>>();
  /** The date whose dailies `todayReady` last found stored (for `status`). */
  private readyDate: string | undefined;
  /** The archive's dailies not yet stored, as last counted by the fill (null before it first ran). */
  private archivePending: number | null = null;
  /** The fill (archive, then pars) is running. */
  private filling = false;
  private readonly rollovers = new Map<string, Promise<void>>();
  /** The closed days' settlement per date (see `settled`). */
  private readonly settlements = new Map<string, Promise<void>>();
  private readonly archives = new Map<string, Promise<void>>();
  /** The closed days' export files made, per date (see `exported`). */
  private readonly exporting = new Map<string, Promise<void>>();
  private stopped = false;
  /** Fair-play signals being recorded (one after another). */
  private signals: Promise<void> = Promise.resolve();
  /** Stops hearing other nodes' leaderboard changes (several nodes). */
  private readonly unlisten: (() => void) | undefined;

  /** See `DailyServiceOptions`. */
  constructor(private readonly opts: DailyServiceOptions) {
    this.deals = new DailyDeals({ ...opts, stopped: () => this.stopped });
    if (opts.bus && opts.bus.kind !== 'single')
      this.unlisten = opts.bus.subscribe('leaderboards', (m) => {
        if (isLeaderboardFrame(m)) this.watchers.send(m.date, m.preset, m);
      });
  }

  /** Today's UTC date by the server clock. */
  today(): string {
    return utcDate(this.opts.now());
  }

  // ---------- schedule ----------

  /**
   * Makes sure today's dailies exist, certifying them first when missing (milliseconds of solver work: the
   * only daily work a request ever waits for). Memoised per date; also starts the rest of the schedule
   * (`current`) in the background.
   */
  todayReady(): Promise<void> {
    const p = this.todaysDailies();
    void this.current().catch((err: unknown) => this.logFailure(err, 'daily schedule'));
    return p;
  }

  /** Today's dailies made ready (memoised per date), without starting anything else. */
  private todaysDailies(): Promise<void> {
    const today = this.today();
    let p = this.todays.get(today);
    if (!p) {
      for (const d of this.todays.keys()) if (d < today) this.todays.delete(d);
      p = Promise.all(DAILY_PRESETS.map((preset) => this.ensure(today, preset, 'daily'))).then(() => {
        this.readyDate = today;
      });
      this.todays.set(today, p);
      p.catch(() => this.todays.delete(today)); // retried on next use
    }
    return p;
  }

  /**
   * The schedule's daily part, in the background: today's and tomorrow's dailies certified and stored,
   * closed days settled; then the fill (`fill`: the archive, then every par). Memoised per date. No request
   * awaits it.
   */
  current(): Promise<void> {
    const today = this.today();
    let p = this.rollovers.get(today);
    if (!p) {
      for (const d of this.rollovers.keys()) if (d < today) this.rollovers.delete(d);
      p = (async () => {
        await this.todaysDailies();
        await Promise.all(DAILY_PRESETS.map((preset) => this.ensure(addDays(today, 1), preset, 'daily')));
        await this.settled();
        void this.exported().catch((err: unknown) => this.logFailure(err, 'daily exports'));
      })();
      this.rollovers.set(today, p);
      p.then(
        () => void this.fill(today).catch((err: unknown) => this.logFailure(err, 'daily fill')),
        () => this.rollovers.delete(today), // retried on next use
      );
    }
    return p;
  }

  /**
   * Settles the ranked attempts of closed days, memoised per date, without waiting for any daily to be
   * generated: what the player, statistics, archive and closed-day routes need.
   */
  settled(): Promise<void> {
    const today = this.today();
    let p = this.settlements.get(today);
    if (!p) {
      for (const d of this.settlements.keys()) if (d < today) this.settlements.delete(d);
      p = this.finaliseClosed().then(() => undefined);
      this.settlements.set(today, p);
      p.catch(() => this.settlements.delete(today)); // retried on next use
    }
    return p;
  }

  /**
   * The open data files of the closed days (daily/open-data.ts): made once each day has settled, memoised
   * per date (a failure is retried on next use).
   */
  exported(): Promise<void> {
    const today = this.today();
    let p = this.exporting.get(today);
    if (!p) {
      for (const d of this.exporting.keys()) if (d < today) this.exporting.delete(d);
      p = (async () => {
        await this.settled();
        const made = await storeMissingExports(this.opts.prisma, today);
        if (made.length > 0) this.opts.log.info({ days: made.length }, 'daily exports stored');
      })();
      this.exporting.set(today, p);
      p.catch(() => this.exporting.delete(today)); // retried on next use
    }
    return p;
  }

  /**
   * Runs the whole schedule now and waits for it: today and tomorrow, settling closed days, the archive,
   * the exports.
   */
  async tick(): Promise<void> {
    await this.current();
    await this.finaliseClosed();
    await this.fill(this.today());
    await this.exported();
  }

  /** What the daily job is doing, for `GET /api/ready`. */
  status(): DailyJobStatus {
    return {
      todayReady: this.readyDate === this.today(),
      archivePending: this.archivePending,
      parPending: this.deals.refinesPending,
      backfilling: this.filling,
    };
  }

  /** Stops generating (the server is closing) and waits up to STOP_GRACE_MS for work under way to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    // A deal search under way can take seconds on a loaded machine: wait STOP_GRACE_MS for the work to end,
    // then let the server close (the solver pool's shutdown ends the search; a day left without its deal is
    // generated again by the next node that needs it, the same deal, since candidates are keyed).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([
        ...this.deals.inFlight(),
        ...this.rollovers.values(),
        ...this.archives.values(),
        ...this.exporting.values(),
        this.signals,
      ]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** The archive window: the `archiveDays` closed days before `today`, newest first. */
  private archiveDates(today: string): string[] {
    return Array.from({ length: this.opts.archiveDays }, (_, i) => addDays(today, -(i + 1)));
  }

  /**
   * The background fill, one solver job at a time at background priority: first the archive window's missing
   * dailies, newest first, certified (milliseconds each, so the archive is complete soon); then the pars of
   * today, tomorrow and the archive, refined. Logs when the archive is complete and when the fill is done.
   */
  private fill(today: string): Promise<void> {
    let p = this.archives.get(today);
    if (!p) {
      for (const d of this.archives.keys()) if (d < today) this.archives.delete(d);
      p = (async () => {
        const started = Date.now();
        const dates = this.archiveDates(today);
        const stored = await this.opts.prisma.dailyDeal.findMany({
          where: { date: { in: dates } },
          select: { date: true, preset: true },
        });
        const have = new Set(stored.map((r) => `${r.date}|${r.preset}`));
        const missing = dates.flatMap((date) =>
          DAILY_PRESETS.filter((preset) => !have.has(`${date}|${preset}`)).map((preset) => ({
            date,
            preset,
          })),
        );
        this.archivePending = missing.length;
        for (const { date, preset } of missing) {
          if (this.stopped) return;
          await this.ensure(date, preset, 'archive');
          this.archivePending = Math.max(0, (this.archivePending ?? 1) - 1);
        }
        this.archivePending = 0;
        if (missing.length > 0)
          this.opts.log.info({ days: missing.length, ms: Date.now() - started }, 'daily archive ready');
        for (const [date, priority] of [
          [today, 'par'],
          [addDays(today, 1), 'par'],
          ...dates.map((d) => [d, 'archive'] as const),
        ] as const)
          for (const preset of DAILY_PRESETS) {
            if (this.stopped) return;
            await this.deals.refine(date, preset, priority);
          }
        if (missing.length > 0)
          this.opts.log.info(
            { ms: Date.now() - started },
            'daily backfill done: archive stored, pars refined',
          );
      })();
      this.archives.set(today, p);
      this.filling = true;
      const done = (): void => {
        this.filling = false;
      };
      p.then(done, () => {
        done();
        this.archives.delete(today); // retried on next use
      });
    }
    return p;
  }

  /** Settles every ranked attempt of a closed day that has no leaderboard row yet (as `unfinished`). */
  async finaliseClosed(): Promise<number> {
    const open = await this.opts.prisma.dailyAttempt.findMany({
      where: { daily: { date: { lt: this.today() } }, game: { result: { is: null } } },
      select: { gameId: true },
    });
    let n = 0;
    for (const a of open) if (await settleClosedAttempt(this.opts.rooms, a.gameId)) n++;
    return n;
  }

  private logFailure(err: unknown, what: string): void {
    if (err instanceof GenerationStopped || this.stopped) return;
    this.opts.log.error({ err }, `${what} failed`);
  }

  /**
   * The stored daily of a date and preset, certifying and storing it first when missing (par not yet
   * refined: see daily/deals.ts `refine`). `priority` is the solver lane's priority of that work.
   */
  ensure(date: string, preset: DailyPreset, priority: DailyWorkPriority = 'daily'): Promise<DailyDeal> {
    return this.deals.ensure(date, preset, priority);
  }

  // ---------- lookups ----------

  private ref(row: DailyDeal): DailyRef {
    return { id: row.id, date: row.date, preset: row.preset as DailyPreset, closesAt: closesAt(row.date) };
  }

  private isOpen(row: { date: string }): boolean {
    return row.date === this.today();
  }

  /**
   * A daily that exists for callers: today's or a closed day's (archive days are generated on demand).
   * Errors: `not-found` for a date after today, before the archive without a stored daily, or not a date.
   */
  async published(date: string, preset: DailyPreset): Promise<DailyDeal> {
    const today = this.today();
    if (!isCalendarDate(date) || date > today) throw new ApiError('not-found', `no daily for ${date}`);
    if (date === today) await this.todayReady();
    else await this.settled();
    const row = await this.opts.prisma.dailyDeal.findUnique({ where: { date_preset: { date, preset } } });
    if (row) return row;
    if (date >= addDays(today, -this.opts.archiveDays)) {
      // An archive day not yet filled: never waited for (docs/features.md "Daily challenge"); it is on its way.
      void this.fill(today).catch((err: unknown) => this.logFailure(err, 'daily fill'));
      throw new ApiError('unavailable', `the ${date} ${preset} daily is still being prepared; retry shortly`);
    }
    throw new ApiError('not-found', `no daily for ${date} ${preset}`);
  }

  /**
   * GET /api/daily: today's challenges, with the caller's own results, and the commitments of tomorrow's
   * dailies stored so far (certified in the background ahead of their day; nothing else of them is public).
   * Waits only for today's dailies.
   */
  async todayView(player: AuthedPlayer | null): Promise<DailyToday> {
    await this.todayReady();
    const today = this.today();
    const tomorrow = addDays(today, 1);
    const [rows, next] = await Promise.all([
      Promise.all(DAILY_PRESETS.map((preset) => this.published(today, preset))),
      this.opts.prisma.dailyDeal.findMany({ where: { date: tomorrow }, orderBy: { preset: 'asc' } }),
    ]);
    return {
      date: today,
      now: new Date(this.opts.now()).toISOString(),
      nextAt: new Date(closesAt(today)).toISOString(),
      challenges: await this.challenges(rows, player),
      tomorrow: next.flatMap((r) => {
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
      }),
    };
  }

  /**
   * GET /api/daily/archive: the closed days of the archive window that are stored now, newest first, and how
   * many of the window's dailies are still being prepared (`pending`; the fill runs in the background and is
   * started here when it is not yet running). Never waits for a deal search.
   */
  async archiveView(player: AuthedPlayer | null): Promise<DailyArchive> {
    await this.settled();
    const today = this.today();
    const dates = this.archiveDates(today);
    const stored = await this.opts.prisma.dailyDeal.findMany({ where: { date: { in: dates } } });
    const pending = dates.length * DAILY_PRESETS.length - stored.length;
    if (pending > 0) void this.fill(today).catch((err: unknown) => this.logFailure(err, 'daily fill'));
    const rows = stored.sort((a, b) => b.date.localeCompare(a.date) || a.preset.localeCompare(b.preset));
    return { days: await this.challenges(rows, player), pending };
  }

  private async challenges(rows: DailyDeal[], player: AuthedPlayer | null): Promise<DailyChallenge[]> {
    const prisma = this.opts.prisma;
    const ids = rows.map((r) => r.id);
    const counts = await prisma.dailyAttempt.groupBy({
      by: ['dailyId'],
      where: { dailyId: { in: ids } },
      _count: { _all: true },
    });
    const count = new Map(counts.map((c) => [c.dailyId, c._count._all]));
    const yours = player ? await this.results(player, rows) : new Map<number, DailyResult>();
    return rows.map((r) => ({
      date: r.date,
      preset: r.preset as DailyPreset,
      players: count.get(r.id) ?? 0,
      closesAt: new Date(closesAt(r.date)).toISOString(),
      closed: !this.isOpen(r),
      par: r.par,
      parProven: r.parProven,
      you: yours.get(r.id) ?? null,
      commitment: commitmentOf(r),
    }));
  }

  /** A player's results (finished or under way) at the given dailies, by daily id; ranks on their board. */
  private async results(player: AuthedPlayer, rows: DailyDeal[]): Promise<Map<number, DailyResult>> {
    const playerId = player.id;
    const prisma = this.opts.prisma;
    const ids = rows.map((r) => r.id);
    const [attempts, results] = await Promise.all([
      prisma.dailyAttempt.findMany({
        where: { playerId, dailyId: { in: ids } },
        include: { game: { select: { score: true, moves: true, startedAt: true } } },
      }),
      prisma.dailyResult.findMany({ where: { playerId, dailyId: { in: ids } } }),
    ]);
    const out = new Map<number, DailyResult>();
    const now = this.opts.now();
    const dateOf = new Map(rows.map((r) => [r.id, r.date]));
    for (const a of attempts) {
      const started = a.game.startedAt?.getTime() ?? null;
      const end = Math.min(now, closesAt(dateOf.get(a.dailyId) ?? ''));
      out.set(a.dailyId, {
        gameId: a.gameId,
        status: 'playing',
        score: a.game.score,
        timeMs: started === null ? 0 : Math.max(0, end - started),
        moves: a.game.moves,
        rank: null,
      });
    }
    for (const r of results) out.set(r.dailyId, await this.resultOf(r, player.bot ? 'bots' : 'humans'));
    return out;
  }

  /** A finished attempt with its rank on `board` (the player's own board). */
  private async resultOf(r: ResultRowLike, board: Board): Promise<DailyResult> {
    return {
      gameId: r.gameId,
      status: r.status,
      score: r.score,
      timeMs: r.timeMs,
      moves: r.moves,
      rank: await this.rankOf(r, board),
    };
  }

  /**
   * GET /api/daily/:date/:preset: the deal, par and line of a closed day, with its commitment and the
   * commitment's preimage (daily/commitment.ts). Errors: `forbidden` while open.
   */
  async reveal(date: string, preset: DailyPreset): Promise<DailyReveal> {
    const row = await this.published(date, preset);
    if (this.isOpen(row))
      throw new ApiError('forbidden', `the ${date} ${preset} daily is revealed once its day has closed`);
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

  // ---------- open data ----------

  /** GET /api/exports: the export files of the closed days, newest first (made first when missing). */
  async exportList(): Promise<ExportList> {
    await this.exported();
    const rows = await this.opts.prisma.dailyExport.findMany({
      orderBy: { date: 'desc' },
      select: { date: true, sha256: true, bytes: true, games: true },
    });
    return {
      license: EXPORT_LICENSE,
      files: rows.map((r) => ({ ...r, url: `/api/exports/${r.date}` })),
    };
  }

  /**
   * GET /api/exports/:date: a closed day's export file (gzip-compressed NDJSON) and its SHA-256.
   * Errors: `not-found` for an open or future day, a day without dailies, or not a date.
   */
  async exportFile(date: string): Promise<{ data: Uint8Array; sha256: string }> {
    if (!isCalendarDate(date) || date >= this.today())
      throw new ApiError('not-found', `no export for ${date}: a day is exported once it has closed`);
    await this.exported();
    const row = await this.opts.prisma.dailyExport.findUnique({ where: { date } });
    if (row === null) throw new ApiError('not-found', `no export for ${date}: no daily was played that day`);
    return { data: row.data, sha256: row.sha256 };
  }

  /**
   * POST /api/daily/:date/:preset/attempt: the player's one ranked attempt at today's daily.
   * Errors: `not-found`; `conflict` for a closed day or a second attempt.
   */
  async attempt(date: string, preset: DailyPreset, player: AuthedPlayer): Promise<GameResponse> {
    const row = await this.published(date, preset);
    if (!this.isOpen(row))
      throw new ApiError(
        'conflict',
        `the day has closed: ranked attempts are for today's daily only (${this.today()}); play ${date} as practice`,
      );
    return createDailyGame(this.opts.rooms, {
      daily: this.ref(row),
      deal: row.deal,
      ranked: true,
      owner: player.id,
    });
  }

  /**
   * POST /api/daily/:date/:preset/practice: an unranked game of a closed day's deal, for anyone. Today's
   * daily opens for practice only once its day has closed: a practice game (hints, undo) would preview the
   * deal to a second account.
   * Errors: `not-found`; `forbidden` while the day is open.
   */
  async practice(date: string, preset: DailyPreset, player: AuthedPlayer | null): Promise<GameResponse> {
    const row = await this.published(date, preset);
    if (this.isOpen(row))
      throw new ApiError(
        'forbidden',
        `practice on the ${date} ${preset} daily opens once its day has closed (UTC midnight)`,
      );
    return createDailyGame(this.opts.rooms, {
      daily: this.ref(row),
      deal: row.deal,
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
    if (this.isOpen(row))
      throw new ApiError('forbidden', 'fair-play signals are shown once the day has closed');
    await this.signals;
    await recordSignals(this.opts.prisma, row.id);
    const r = await this.opts.prisma.dailyResult.findUnique({
      where: { dailyId_playerId: { dailyId: row.id, playerId: player.id } },
      select: { firstMoveMs: true, lineShare: true, moves: true },
    });
    if (r === null)
      throw new ApiError('not-found', `you have no ranked result at the ${date} ${preset} daily`);
    return { date, preset, firstMoveMs: r.firstMoveMs, lineShare: r.lineShare ?? 0, moves: r.moves };
  }

  // ---------- leaderboards ----------

  /** 1 + the number of rows of the same daily and board that rank before `r`. */
  async rankOf(r: ResultRowLike, board: Board = 'humans', established?: Date): Promise<number> {
    return rankOf(this.opts.prisma, r, board, established);
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
    if (query.around === 'me' && player === null)
      throw new ApiError('unauthorized', 'around=me needs your player token');
    const board = query.board;
    const onBoard = player !== null && player.bot === (board === 'bots');
    if (query.around === 'me' && !onBoard)
      throw new ApiError(
        'forbidden',
        player?.bot
          ? 'bots are ranked on the bot board (board=bots)'
          : 'only bots are ranked on the bot board',
      );
    const row = await this.published(date, preset);
    return leaderboardPage(
      this.opts.prisma,
      row,
      preset,
      query,
      player !== null && onBoard ? player.id : null,
    );
  }

  /** Starts sending `leaderboard` frames for a daily to a socket. Returns the current row count. Errors: `not-found`. */
  async watch(date: string, preset: DailyPreset, subscriber: Subscriber): Promise<number> {
    const row = await this.published(date, preset);
    this.watchers.add(date, preset, subscriber);
    return this.opts.prisma.dailyResult.count({ where: { dailyId: row.id, ...boardWhere('humans') } });
  }

  /** Called after a leaderboard row was added: tells the daily's watchers (a `leaderboard` frame). */
  resultAdded(daily: DailyRef): void {
    this.signals = this.signals
      .then(() => recordSignals(this.opts.prisma, daily.id))
      .then(
        () => undefined,
        (err: unknown) => this.opts.log.error({ err }, 'fair-play signals failed'),
      );
    const others = this.opts.bus && this.opts.bus.kind !== 'single' ? this.opts.bus : undefined;
    if (!others && !this.watchers.watched(daily.date, daily.preset)) return;
    this.opts.prisma.dailyResult.count({ where: { dailyId: daily.id, ...boardWhere('humans') } }).then(
      (total) => {
        const frame: LeaderboardFrame = {
          type: 'leaderboard',
          date: daily.date,
          preset: daily.preset,
          total,
        };
        this.watchers.send(daily.date, daily.preset, frame);
        others?.publish('leaderboards', frame);
      },
      (err: unknown) => this.opts.log.error({ err }, 'leaderboard notification failed'),
    );
  }

  // ---------- players ----------

  private async stats(playerId: string): Promise<PlayerStats> {
    const s = (await statsOf(this.opts.prisma, [playerId], this.today())).get(playerId);
    if (!s) throw new Error('stats missing');
    return s;
  }

  /** GET /api/me. Errors: `not-found` when the player no longer exists. */
  async me(player: AuthedPlayer): Promise<Me> {
    await this.settled();
    const row = await this.opts.prisma.player.findUnique({ where: { id: player.id } });
    if (!row) throw new ApiError('not-found', `no player ${player.id}`);
    return {
      id: row.id,
      name: row.name,
      bot: row.bot,
      createdAt: row.createdAt.toISOString(),
      stats: await this.stats(row.id),
      settings: storedSettings(row.settings),
    };
  }

  /** GET /api/players/:id: name, statistics and recent results. Errors: `not-found`. */
  async playerPage(id: string): Promise<PlayerPage> {
    await this.settled();
    const prisma = this.opts.prisma;
    const row = await prisma.player.findUnique({ where: { id } });
    if (!row) throw new ApiError('not-found', `no player ${id}`);
    const recent = await prisma.dailyResult.findMany({
      where: { playerId: id },
      orderBy: [{ daily: { date: 'desc' } }, { daily: { preset: 'asc' } }],
      take: RECENT_RESULTS,
      include: { daily: { select: { date: true, preset: true } } },
    });
    return {
      id: row.id,
      name: row.name,
      bot: row.bot,
      createdAt: row.createdAt.toISOString(),
      stats: await this.stats(row.id),
      recent: await Promise.all(
        recent.map(async (r) => ({
          ...(await this.resultOf(r, row.bot ? 'bots' : 'humans')),
          date: r.daily.date,
          preset: r.daily.preset as DailyPreset,
        })),
      ),
    };
  }

  /**
   * GET /api/leaderboard: the top players of one board (people by default, or bot accounts) by wins, then
   * win rate, then attempts played.
   */
  async allTime(board: Board = 'humans'): Promise<AllTimeLeaderboard> {
    await this.settled();
    return allTimeLeaderboard(this.opts.prisma, board, this.today());
  }
}
