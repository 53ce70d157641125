/**
 * Ratings in the database (docs/ratings.md): rating closed dailies once, reading a player's ratings and
 * history, and the rating leaderboards.
 *
 * A closed daily is rated when its day has closed and every ranked attempt of it is settled: in one
 * transaction that first inserts its `RatedDaily` row (a second settlement, on this node or another, finds
 * the row and changes nothing) and holds the pool's advisory lock (two days of one pool never interleave).
 * Each board (people, bots) is rated on its own: its established players' rows in leaderboard order, one
 * game each against the board's field (ratings/glicko2.ts `rateBoard`). Rows of accounts created on the
 * day's date or later are provisional on the leaderboard and are not rated; unfinished attempts are rated at
 * their place (after every finished attempt of equal standing, as ranked).
 */
import type { Board, RatingPool } from '@klondike/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../infra/errors.js';
import { NEW_RATING, PROVISIONAL_DEVIATION } from './glicko2.js';
import { type RatingRow, asOf, dailyPool, rateDaily } from './periods.js';
import type { RatingRepository } from './repository.js';

export { dailyPool, racePool } from './periods.js';

/** A rating as the API shows it. */
export interface ShownRating {
  readonly rating: number;
  readonly deviation: number;
  readonly games: number;
  readonly provisional: boolean;
}

/** Options of the rating service. */
export interface RatingServiceOptions {
  /** The ratings' rows (repository.ts). */
  readonly repository: RatingRepository;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
}

/** See the module comment. All methods throw `ApiError` for refusals. */
export class RatingService {
  constructor(private readonly opts: RatingServiceOptions) {}

  private today(): string {
    return new Date(this.opts.now()).toISOString().slice(0, 10);
  }

  /**
   * Rates every closed daily not yet rated whose attempts are all settled, oldest first (per preset, it stops
   * at the first one still waiting for its settlement). Returns how many dailies this call rated.
   */
  async rateClosedDays(): Promise<number> {
    const repository = this.opts.repository;
    const pending = await repository.unratedDailies(this.today());
    let rated = 0;
    const blocked = new Set<string>();
    for (const d of pending) {
      if (blocked.has(d.preset)) continue;
      if ((await repository.unsettledAttempts(d.id)) > 0) {
        blocked.add(d.preset);
        continue;
      }
      if (await this.rateDaily(d.id, d.date, d.preset)) rated++;
    }
    return rated;
  }

  /** Rates one closed daily (see the module comment). False when it was already rated. */
  async rateDaily(dailyId: number, date: string, preset: string): Promise<boolean> {
    const started = Date.now();
    const players = await this.opts.repository.rateDaily(dailyId, date, dailyPool(preset), (rows, stored) =>
      rateDaily(rows, stored, date),
    );
    if (players === null) return false;
    this.opts.log.info({ date, preset, players, ms: Date.now() - started }, 'daily rated');
    return true;
  }

  /**
   * What rates a finished race inside the transaction that ends it (ratings/repository.ts `rateRaceIn`): the
   * races' repository takes it (races/repository.ts `RaceRater`).
   */
  get raceRater(): RatingRepository {
    return this.opts.repository;
  }

  /**
   * Adds each daily's `difficulty` (once rated) and the viewer's `yourRating` (before → after of that day's
   * rating period, when the viewer was rated on it) to a list of daily challenges. Before = the viewer's
   * previous history point in the pool, or a new player's 1500.
   */
  async annotateDailies<T extends { date: string; preset: string }>(
    challenges: readonly T[],
    viewerId: string | null,
  ): Promise<(T & { difficulty: number | null; yourRating: { before: number; after: number } | null })[]> {
    const repository = this.opts.repository;
    const dates = [...new Set(challenges.map((c) => c.date))];
    const [rated, points] = await Promise.all([
      repository.ratedDailies(dates),
      viewerId === null || dates.length === 0
        ? []
        : repository.dailyHistory(
            viewerId,
            dates.reduce((a, b) => (a > b ? a : b)),
          ),
    ]);
    const difficulty = new Map(rated.map((r) => [`${r.date}/${r.preset}`, r.difficulty]));
    const change = new Map<string, { before: number; after: number }>();
    const last = new Map<string, number>();
    for (const p of points) {
      change.set(`${p.period}/${p.pool}`, {
        before: Math.round(last.get(p.pool) ?? NEW_RATING.rating),
        after: Math.round(p.rating),
      });
      last.set(p.pool, p.rating);
    }
    return challenges.map((c) => {
      const d = difficulty.get(`${c.date}/${c.preset}`);
      return {
        ...c,
        difficulty: d === undefined || d === null ? null : Math.round(d),
        yourRating: change.get(`${c.date}/${dailyPool(c.preset)}`) ?? null,
      };
    });
  }

  /** How a stored rating shows today: whole points, the deviation grown for the closed days since. */
  private shown(r: RatingRow): ShownRating {
    const now = asOf(r, this.today());
    return {
      rating: Math.round(now.rating),
      deviation: Math.round(now.deviation),
      games: r.games,
      provisional: now.deviation > PROVISIONAL_DEVIATION,
    };
  }

  /** A player's ratings by pool (pools without a rated result are absent). */
  async of(playerId: string): Promise<Partial<Record<RatingPool, ShownRating>>> {
    const rows = await this.opts.repository.ratingsOf(playerId);
    return Object.fromEntries(rows.map((r) => [r.pool, this.shown(r)]));
  }

  /**
   * A player's ratings and their history, one point per rating period with a result, oldest first.
   * Errors: `not-found` when the player does not exist.
   */
  async history(playerId: string): Promise<{
    ratings: Partial<Record<RatingPool, ShownRating>>;
    history: Partial<Record<RatingPool, { period: string; rating: number; deviation: number }[]>>;
  }> {
    const repository = this.opts.repository;
    if (!(await repository.playerExists(playerId))) throw new ApiError('not-found', `no player ${playerId}`);
    const points = await repository.history(playerId);
    const history: Partial<Record<RatingPool, { period: string; rating: number; deviation: number }[]>> = {};
    for (const p of points) {
      const pool = p.pool as RatingPool;
      (history[pool] ??= []).push({
        period: p.period,
        rating: Math.round(p.rating),
        deviation: Math.round(p.deviation),
      });
    }
    return { ratings: await this.of(playerId), history };
  }

  /**
   * A page of a pool's rating leaderboard on one board, best rating first (then more games, then player
   * id). Provisional ratings (deviation above PROVISIONAL_DEVIATION at the player's last rated period) are
   * left out unless `includeProvisional`.
   */
  async leaderboard(
    pool: RatingPool,
    query: { offset: number; limit: number; includeProvisional: boolean; board: Board },
  ): Promise<{
    total: number;
    entries: (ShownRating & { rank: number; playerId: string; name: string })[];
  }> {
    const { total, rows } = await this.opts.repository.leaderboard(pool, query);
    return {
      total,
      entries: rows.map((r, i) => ({
        ...this.shown(r),
        rank: query.offset + i + 1,
        playerId: r.playerId,
        name: r.name,
      })),
    };
  }
}
