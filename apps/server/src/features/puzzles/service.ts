/**
 * Puzzles (docs/puzzles.md): generation off the move path, serving, rated attempts, the puzzle of the day,
 * the profile and the timed runs.
 *
 * Generation: a pass finds finished games whose replay is public and that no node has claimed
 * (repository.ts `pending`, bounded by PUZZLES_BATCH), asks GameRooms.replay for each (the one rule of who may
 * see a replay: a game it refuses is skipped and looked at again by a later pass), claims it (a PuzzleScan
 * row: a game is cut once, by whichever node claims it first), and cuts it on a background solver thread
 * (task `puzzles`, priority `puzzles`: after every interactive job and after the signals). Passes run at
 * start-up, every PUZZLES_SWEEP_MS, and soon after a nudge (a race game ended); one pass at a time per node.
 */
import {
  PUZZLE_RUN_MS,
  PUZZLE_RUN_PENALTY_MS,
  type Puzzle,
  type PuzzleAttemptResult,
  type PuzzleProfile,
  type PuzzleRun,
  type PuzzleRunBoard,
  PuzzleThemeSchema,
  type PuzzleTheme,
} from '@klondike/protocol';
import { type GameAction, type Move, parseDeal } from '@klondike/rules';
import { randomBytes } from 'node:crypto';
import type { Replay } from '../../core/rooms/room.js';
import { startOfDate, utcDate } from '../../infra/dates.js';
import { ApiError } from '../../infra/errors.js';
import { type PageQuery, slicePage } from '../../infra/http/pagination.js';
import type { Rated } from '../ratings/glicko2.js';
import type { SolverPool } from '../solve/task.js';
import { isCorrect, puzzleOf } from './answers.js';
import type { GenerationLimits } from './generation.js';
import { NEW_PUZZLE_PLAYER, rateAttempt, startRating } from './rating.js';
import type { PuzzlesRepository, RunRow, RunTransaction } from './repository.js';
import { CoalescingPass } from '../../core/coalescing-pass.js';

/** Only games created this recently are looked for (ms): 30 days. */
export const PUZZLES_LOOKBACK_MS = 30 * 86_400_000;
/** Points of history a profile shows. */
const HISTORY_POINTS = 200;
/** The rating a timed run's first puzzle is picked near; each puzzle answered adds RUN_STEP. */
const RUN_START_RATING = 1_000;
const RUN_STEP = 50;
const DAY_MS = 86_400_000;
/** The route key of the run board's cursors (infra/http/pagination.ts). */
const BOARD_CURSOR_KEY = 'puzzle-runs';

/** What the service needs. */
export interface PuzzlesServiceOptions {
  readonly repository: PuzzlesRepository;
  readonly solver: SolverPool;
  /** A finished game's replay, with GameRooms.replay's visibility rules (throws `forbidden` before). */
  readonly replay: (id: string) => Promise<Replay>;
  /** Server time, ms since the epoch. */
  readonly now: () => number;
  /** Games a pass cuts at most. */
  readonly batch: number;
  readonly limits: GenerationLimits;
  /** Logs a failure (a game whose cutting failed is not retried: it stays claimed). */
  readonly warn: (msg: string, err: unknown) => void;
}

/** A new puzzle or run id: 16 URL-safe characters. */
function newId(): string {
  return randomBytes(12).toString('base64url');
}

/** The actions of a replay. Errors: throws on a move step without its move (a corrupt record). */
function actionsOf(replay: Replay): GameAction[] {
  return replay.steps.map((s): GameAction => {
    if (s.type !== 'move') return { type: s.type };
    if (s.move === undefined) throw new Error(`game ${replay.id}: a move step without its move`);
    return { type: 'move', move: s.move };
  });
}

const whole = (r: Rated): number => Math.round(r.rating);

/** See the module comment. */
export class PuzzlesService {
  private readonly passes = new CoalescingPass(() => this.pass());

  constructor(private readonly opts: PuzzlesServiceOptions) {}

  // ---------- generation ----------

  /**
   * One pass (or, while one runs, another right after it): cuts up to `batch` pending games. Resolves with
   * the number of puzzles this node wrote. Errors: database errors reject.
   */
  sweep(): Promise<number> {
    return this.passes.run();
  }

  /** Resolves once no pass is running. */
  idle(): Promise<void> {
    return this.passes.idle();
  }

  private async pass(): Promise<number> {
    const now = this.opts.now();
    const ids = await this.opts.repository.pending(
      this.opts.batch,
      new Date(now - PUZZLES_LOOKBACK_MS),
      utcDate(now),
    );
    let written = 0;
    for (const id of ids) {
      let replay: Replay;
      try {
        replay = await this.opts.replay(id);
      } catch (err) {
        if (err instanceof ApiError) continue; // not public (yet) or gone: a later pass looks again
        throw err;
      }
      if (!(await this.opts.repository.claim(id))) continue;
      try {
        written += await this.cut(replay);
      } catch (err) {
        this.opts.warn(`puzzles of game ${id} failed`, err);
      }
    }
    return written;
  }

  /** Cuts one claimed game on a background thread and stores its puzzles. */
  private async cut(replay: Replay): Promise<number> {
    const deal = parseDeal(replay.deal);
    if (!deal.ok) throw new Error(`unreadable deal: ${deal.error.message}`);
    const outcome = await this.opts.solver.run(
      {
        kind: 'puzzles',
        deal: deal.value,
        options: replay.options,
        actions: actionsOf(replay),
        limits: this.opts.limits,
      },
      { priority: 'puzzles', label: `puzzles ${replay.id}` },
    );
    const result = outcome.puzzles;
    if (result === undefined || result === null) throw new Error('the game does not replay');
    const dailyDate = await this.opts.repository.dailyDateOf(replay.id);
    return this.opts.repository.store(
      replay.id,
      dailyDate,
      result.stats.candidates,
      result.puzzles.map((p) => ({ ...p, id: newId(), start: startRating(p) })),
    );
  }

  // ---------- puzzles ----------

  /** Puzzle `id`. Errors: `not-found`. */
  async get(id: string): Promise<Puzzle> {
    const p = await this.opts.repository.puzzle(id);
    if (p === null) throw new ApiError('not-found', `no puzzle ${id}`);
    return puzzleOf(p);
  }

  /** The puzzle nearest the player's puzzle rating that they have not attempted. Errors: `not-found` when none. */
  async next(playerId: string, theme?: PuzzleTheme): Promise<Puzzle> {
    const mine = await this.opts.repository.rating(playerId);
    const p = await this.opts.repository.nearest((mine ?? NEW_PUZZLE_PLAYER).rating, {
      playerId,
      ...(theme !== undefined ? { theme } : {}),
    });
    if (p === null) throw new ApiError('not-found', 'no puzzle left for you: come back later');
    return puzzleOf(p);
  }

  /**
   * An attempt at puzzle `id`, checked with the rules package; only the player's first attempt at it is
   * rated. Errors: `not-found`.
   */
  async attempt(playerId: string, id: string, moves: readonly Move[]): Promise<PuzzleAttemptResult> {
    const p = await this.opts.repository.puzzle(id);
    if (p === null) throw new ApiError('not-found', `no puzzle ${id}`);
    const correct = isCorrect(p, moves);
    const r = await this.opts.repository.rateAttempt(
      playerId,
      id,
      correct,
      NEW_PUZZLE_PLAYER,
      (me, pz) => rateAttempt(me, pz, correct),
      new Date(this.opts.now()),
    );
    if (r === null) throw new ApiError('not-found', `no puzzle ${id}`);
    return {
      correct,
      solution: [...p.solution],
      rating: { before: whole(r.player[0]), after: whole(r.player[1]) },
      puzzleRating: { before: whole(r.puzzle[0]), after: whole(r.puzzle[1]) },
      rated: r.rated,
    };
  }

  /** The puzzle of today (UTC). Errors: `not-found` while there is no puzzle at all. */
  async daily(): Promise<{ date: string; puzzle: Puzzle }> {
    const date = utcDate(this.opts.now());
    const p = await this.opts.repository.daily(date);
    if (p === null) throw new ApiError('not-found', 'there is no puzzle yet');
    return { date, puzzle: puzzleOf(p) };
  }

  /** The player's puzzle profile (a new player's rating before any rated attempt). */
  async profile(playerId: string): Promise<PuzzleProfile> {
    const { repository } = this.opts;
    const now = this.opts.now();
    const [mine, history, themes, day, all] = await Promise.all([
      repository.rating(playerId),
      repository.history(playerId, HISTORY_POINTS),
      repository.themes(playerId),
      this.bestOf(playerId, 'day', now),
      this.bestOf(playerId, 'all', now),
    ]);
    const r = mine ?? { ...NEW_PUZZLE_PLAYER, attempts: 0, solved: 0 };
    return {
      playerId,
      rating: Math.round(r.rating),
      deviation: Math.round(r.deviation),
      attempts: r.attempts,
      solved: r.solved,
      history: history.map((h) => ({ at: h.at.toISOString(), rating: Math.round(h.rating) })),
      themes: themes.flatMap((t) => {
        const theme = PuzzleThemeSchema.safeParse(t.theme);
        return theme.success ? [{ theme: theme.data, attempts: t.attempts, solved: t.solved }] : [];
      }),
      bestRun: { today: day, allTime: all },
    };
  }

  private async bestOf(playerId: string, period: 'day' | 'all', now: number): Promise<number | null> {
    const board = await this.boardRows(period, now);
    return board.find((b) => b.playerId === playerId)?.score ?? null;
  }

  // ---------- timed runs ----------

  /** The run as the player sees it at `now`. */
  private async runView(run: RunRow, now: number): Promise<PuzzleRun> {
    const finished = run.closedAt !== null || now >= run.endsAt.getTime();
    const puzzle = finished || run.puzzleId === null ? null : await this.opts.repository.puzzle(run.puzzleId);
    return {
      id: run.id,
      startedAt: run.startedAt.toISOString(),
      endsAt: run.endsAt.toISOString(),
      remainingMs: finished ? 0 : Math.max(0, run.endsAt.getTime() - now),
      solved: run.solved,
      wrong: run.wrong,
      score: run.solved,
      finished,
      puzzle: puzzle === null ? null : puzzleOf(puzzle),
    };
  }

  /** The run's next puzzle: near a rating that climbs with each answer, never one it served. */
  private async runPuzzle(
    answered: number,
    served: readonly string[],
    db?: RunTransaction,
  ): Promise<string | null> {
    const p = await this.opts.repository.nearest(
      RUN_START_RATING + RUN_STEP * answered,
      { exclude: served },
      db,
    );
    return p?.id ?? null;
  }

  /** Starts a timed run for `playerId` by the server's clock. Errors: `not-found` when there is no puzzle. */
  async startRun(playerId: string): Promise<PuzzleRun> {
    const now = this.opts.now();
    const first = await this.runPuzzle(0, []);
    if (first === null) throw new ApiError('not-found', 'there is no puzzle yet');
    const run: RunRow = {
      id: newId(),
      playerId,
      startedAt: new Date(now),
      endsAt: new Date(now + PUZZLE_RUN_MS),
      solved: 0,
      wrong: 0,
      puzzleId: first,
      served: [first],
      closedAt: null,
    };
    await this.opts.repository.createRun(run);
    return this.runView(run, now);
  }

  /** The player's own run `id`. Errors: `not-found`; `forbidden` for another player's run. */
  async getRun(playerId: string, id: string): Promise<PuzzleRun> {
    const run = await this.opts.repository.run(id);
    if (run === null) throw new ApiError('not-found', `no run ${id}`);
    if (run.playerId !== playerId) throw new ApiError('forbidden', "another player's run");
    return this.runView(run, this.opts.now());
  }

  /**
   * An answer in the player's own run, under the run's row lock (two answers at once are taken one after the
   * other). After the run's end (by the server's clock) the answer is not counted and closes the run. A wrong
   * answer moves the end PUZZLE_RUN_PENALTY_MS earlier. Errors: `not-found`; `forbidden` for another player's
   * run; `conflict` when `puzzleId` is not the run's current puzzle.
   */
  async answerRun(
    playerId: string,
    id: string,
    puzzleId: string,
    moves: readonly Move[],
  ): Promise<{ correct: boolean; solution: Move[]; run: PuzzleRun }> {
    const { repository } = this.opts;
    // Read before the run's transaction (a puzzle's position and solution never change; PGlite has one
    // connection, so nothing outside the transaction may be read inside it).
    const p = await repository.puzzle(puzzleId);
    const out = await repository.updateRun(id, async (run, tx) => {
      if (run === null) throw new ApiError('not-found', `no run ${id}`);
      if (run.playerId !== playerId) throw new ApiError('forbidden', "another player's run");
      const now = this.opts.now();
      const over = run.closedAt !== null || now >= run.endsAt.getTime();
      if (!over && run.puzzleId !== puzzleId)
        throw new ApiError('conflict', `puzzle ${puzzleId} is not this run's current puzzle`);
      if (p === null) throw new ApiError('not-found', `no puzzle ${puzzleId}`);
      const correct = isCorrect(p, moves);
      if (over) {
        const closed: RunRow = { ...run, closedAt: run.closedAt ?? new Date(now) };
        return {
          write: run.closedAt === null ? { closedAt: closed.closedAt } : null,
          value: { correct, p, run: closed, now },
        };
      }
      const solved = run.solved + (correct ? 1 : 0);
      const wrong = run.wrong + (correct ? 0 : 1);
      const endsAt = new Date(run.endsAt.getTime() - (correct ? 0 : PUZZLE_RUN_PENALTY_MS));
      const next = now >= endsAt.getTime() ? null : await this.runPuzzle(solved + wrong, run.served, tx);
      const served = next === null ? run.served : [...run.served, next];
      const write = { solved, wrong, endsAt, puzzleId: next, served };
      return { write, value: { correct, p, run: { ...run, ...write }, now } };
    });
    return { correct: out.correct, solution: [...out.p.solution], run: await this.runView(out.run, out.now) };
  }

  private async boardRows(period: 'day' | 'all', now: number) {
    const from = period === 'day' ? new Date(startOfDate(utcDate(now))) : null;
    const to = from === null ? null : new Date(from.getTime() + DAY_MS);
    return this.opts.repository.bestRuns(new Date(now), from, to);
  }

  /**
   * The timed-run board of today (UTC) or of all time: each player's best finished run, one page of it
   * (`page`: `limit` rows from its `cursor`; route key `puzzle-runs`). Errors: `bad-request` for a cursor
   * this board did not give.
   */
  async board(period: 'day' | 'all', page: PageQuery, caller: string | null): Promise<PuzzleRunBoard> {
    const now = this.opts.now();
    const rows = await this.boardRows(period, now);
    const entries = rows.map((r, i) => ({
      rank: i + 1,
      playerId: r.playerId,
      name: r.name,
      bot: r.bot,
      score: r.score,
      finishedAt: r.endsAt.toISOString(),
    }));
    const { page: shown, nextCursor } = slicePage(BOARD_CURSOR_KEY, entries, page);
    return {
      period,
      date: period === 'day' ? utcDate(now) : null,
      entries: shown,
      me: caller === null ? null : (entries.find((e) => e.playerId === caller) ?? null),
      nextCursor,
    };
  }
}
