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
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { ApiError } from '../../infra/errors.js';
import { claimPairs, pairKey } from './farming.js';
import { DAY_MS, startOfDate } from '../../infra/dates.js';
import {
  NEW_RATING,
  PROVISIONAL_DEVIATION,
  type Rated,
  deckDifficulty,
  inactive,
  rateBoard,
  ratePeriod,
} from './glicko2.js';

/** Rows of one multi-row statement when ratings are written. */
const WRITE_CHUNK = 1000;

/** A rating as the API shows it. */
export interface ShownRating {
  readonly rating: number;
  readonly deviation: number;
  readonly games: number;
  readonly provisional: boolean;
}

/** Options of the rating service. */
export interface RatingServiceOptions {
  readonly prisma: PrismaClient;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
}

/** Whole closed days from `from` to `to` (UTC dates), negative when `to` is earlier. */
function daysBetween(from: string, to: string): number {
  return Math.round((startOfDate(to) - startOfDate(from)) / DAY_MS);
}

/** The race pool of a classic preset, or null for any other game (never rated). */
export function racePool(preset: string | null): RatingPool | null {
  return preset === 'classic-draw1'
    ? 'race-classic-draw1'
    : preset === 'classic-draw3'
      ? 'race-classic-draw3'
      : null;
}

/** The daily pool of a daily preset. */
export function dailyPool(preset: string): RatingPool {
  return preset === 'classic-draw3' ? 'daily-classic-draw3' : 'daily-classic-draw1';
}

/** A stored rating row. */
interface RatingRow {
  readonly playerId: string;
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly games: number;
  readonly period: string;
}

/** `stored` as of rating period `date` (its deviation grown for the closed days between). */
function asOf(stored: RatingRow | undefined, date: string): Rated {
  if (stored === undefined) return NEW_RATING;
  return inactive(stored, daysBetween(stored.period, date) - 1);
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
    const prisma = this.opts.prisma;
    const pending = await prisma.dailyDeal.findMany({
      where: { date: { lt: this.today() }, rated: { is: null } },
      orderBy: [{ date: 'asc' }, { preset: 'asc' }],
      select: { id: true, date: true, preset: true },
    });
    let rated = 0;
    const blocked = new Set<string>();
    for (const d of pending) {
      if (blocked.has(d.preset)) continue;
      const unsettled = await prisma.dailyAttempt.count({
        where: { dailyId: d.id, game: { result: { is: null } } },
      });
      if (unsettled > 0) {
        blocked.add(d.preset);
        continue;
      }
      if (await this.rateDaily(d.id, d.date, d.preset)) rated++;
    }
    return rated;
  }

  /** Rates one closed daily (see the module comment). False when it was already rated. */
  async rateDaily(dailyId: number, date: string, preset: string): Promise<boolean> {
    const pool = dailyPool(preset);
    const started = Date.now();
    const players = await this.opts.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `rating:${pool}`);
        const claimed = await tx.ratedDaily.createMany({
          data: [{ dailyId, players: 0 }],
          skipDuplicates: true,
        });
        if (claimed.count === 0) return null;
        const dayStart = new Date(startOfDate(date));
        const rows = await tx.dailyResult.findMany({
          where: { dailyId, player: { is: { createdAt: { lt: dayStart } } } },
          orderBy: [
            { won: 'desc' },
            { score: 'desc' },
            { timeMs: 'asc' },
            { moves: 'asc' },
            { finishedAt: 'asc' },
            { playerId: 'asc' },
          ],
          select: {
            playerId: true,
            won: true,
            score: true,
            timeMs: true,
            moves: true,
            player: { select: { bot: true } },
          },
        });
        const stored = await tx.$queryRawUnsafe<RatingRow[]>(
          `SELECT r."playerId", r.rating, r.deviation, r.volatility, r.games, r.period
             FROM "Rating" r JOIN "DailyResult" d ON d."playerId" = r."playerId"
            WHERE d."dailyId" = $1 AND r.pool = $2`,
          dailyId,
          pool,
        );
        const byPlayer = new Map(stored.map((r) => [r.playerId, r]));
        let difficulty: Rated | null = null;
        for (const board of ['humans', 'bots'] as const) {
          const mine = rows.filter((r) => r.player.bot === (board === 'bots'));
          if (mine.length === 0) continue;
          const priors = mine.map((r) => asOf(byPlayer.get(r.playerId), date));
          if (board === 'humans')
            difficulty = deckDifficulty(
              priors,
              mine.map((r) => r.won),
            );
          if (mine.length < 2) continue; // nobody to be ranked against
          const after = rateBoard(
            priors,
            mine.map((r) => `${r.won ? 1 : 0}|${r.score}|${r.timeMs}|${r.moves}`),
          );
          await this.write(
            tx,
            pool,
            date,
            mine.map((r, i) => ({
              playerId: r.playerId,
              rated: after[i] as Rated,
              games: (byPlayer.get(r.playerId)?.games ?? 0) + 1,
            })),
          );
        }
        await tx.ratedDaily.update({
          where: { dailyId },
          data: {
            players: rows.length,
            difficulty: difficulty?.rating ?? null,
            difficultyDeviation: difficulty?.deviation ?? null,
          },
        });
        return rows.length;
      },
      { timeout: 600_000, maxWait: 60_000 },
    );
    if (players === null) return false;
    this.opts.log.info({ date, preset, players, ms: Date.now() - started }, 'daily rated');
    return true;
  }

  /**
   * Rates a finished race inside the transaction that ends it (the caller claims the race first, so this
   * runs once): every racer plays every other racer, scoring 1 against each racer placed below, ½ against
   * an equal place, 0 against each above (docs/ratings.md "Races"), all in one rating period (the race),
   * from their ratings as of `date`. Racers without a placement are left out; fewer than two: nothing.
   * No farming (ratings/farming.ts): a pair of racers whose result already counted in `pool` on `date` (an
   * earlier race of theirs that day) plays no game here; a racer left without a game is not rated by this
   * race (absent from the answer, their rating untouched).
   * Returns each rated racer's rating before and after (Glicko scale, unrounded).
   */
  async rateRaceIn(
    tx: Prisma.TransactionClient,
    pool: RatingPool,
    date: string,
    raceCode: string,
    placements: readonly { playerId: string; placement: number }[],
  ): Promise<{ playerId: string; before: number; after: number }[]> {
    if (placements.length < 2) return [];
    await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `rating:${pool}`);
    const counts = await claimPairs(
      tx,
      pool,
      date,
      raceCode,
      placements.map((p) => p.playerId),
    );
    const games = placements.map((p) =>
      placements.filter((q) => q.playerId !== p.playerId && counts.has(pairKey(p.playerId, q.playerId))),
    );
    const rated = placements.flatMap((p, i) => ((games[i] ?? []).length > 0 ? [p] : []));
    if (rated.length < 2) return [];
    const stored = await tx.rating.findMany({
      where: { pool, playerId: { in: rated.map((p) => p.playerId) } },
    });
    const byPlayer = new Map(stored.map((r) => [r.playerId, r]));
    const prior = new Map(rated.map((p) => [p.playerId, asOf(byPlayer.get(p.playerId), date)]));
    const priors = rated.map((p) => prior.get(p.playerId) as Rated);
    const after = ratePeriod(
      priors,
      rated.map((p) =>
        (games[placements.indexOf(p)] ?? []).map((q) => ({
          opponent: prior.get(q.playerId) as Rated,
          score: p.placement < q.placement ? 1 : p.placement === q.placement ? 0.5 : 0,
        })),
      ),
    );
    await this.write(
      tx,
      pool,
      date,
      rated.map((p, i) => ({
        playerId: p.playerId,
        rated: after[i] as Rated,
        games: (byPlayer.get(p.playerId)?.games ?? 0) + 1,
      })),
    );
    return rated.map((p, i) => ({
      playerId: p.playerId,
      before: (priors[i] as Rated).rating,
      after: (after[i] as Rated).rating,
    }));
  }

  /** Upserts ratings and their history points of period `date`, WRITE_CHUNK rows a statement. */
  private async write(
    tx: Prisma.TransactionClient,
    pool: RatingPool,
    date: string,
    rows: readonly { playerId: string; rated: Rated; games: number }[],
  ): Promise<void> {
    for (let at = 0; at < rows.length; at += WRITE_CHUNK) {
      const chunk = rows.slice(at, at + WRITE_CHUNK);
      const ratingArgs: unknown[] = [];
      const historyArgs: unknown[] = [];
      const ratingValues = chunk.map((r) => {
        const n = ratingArgs.length;
        ratingArgs.push(
          r.playerId,
          pool,
          r.rated.rating,
          r.rated.deviation,
          r.rated.volatility,
          r.games,
          date,
        );
        return `($${n + 1}, $${n + 2}, $${n + 3}::float8, $${n + 4}::float8, $${n + 5}::float8, $${n + 6}::int, $${n + 7})`;
      });
      const historyValues = chunk.map((r) => {
        const n = historyArgs.length;
        historyArgs.push(r.playerId, pool, date, r.rated.rating, r.rated.deviation);
        return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}::float8, $${n + 5}::float8)`;
      });
      await tx.$executeRawUnsafe(
        `INSERT INTO "Rating" ("playerId", pool, rating, deviation, volatility, games, period)
         VALUES ${ratingValues.join(', ')}
         ON CONFLICT ("playerId", pool) DO UPDATE SET rating = EXCLUDED.rating, deviation = EXCLUDED.deviation,
           volatility = EXCLUDED.volatility, games = EXCLUDED.games, period = EXCLUDED.period`,
        ...ratingArgs,
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO "RatingHistory" ("playerId", pool, period, rating, deviation)
         VALUES ${historyValues.join(', ')}
         ON CONFLICT ("playerId", pool, period) DO UPDATE SET rating = EXCLUDED.rating,
           deviation = EXCLUDED.deviation`,
        ...historyArgs,
      );
    }
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
    const prisma = this.opts.prisma;
    const dates = [...new Set(challenges.map((c) => c.date))];
    const [rated, points] = await Promise.all([
      dates.length === 0
        ? []
        : prisma.dailyDeal.findMany({
            where: { date: { in: dates }, rated: { isNot: null } },
            select: { date: true, preset: true, rated: { select: { difficulty: true } } },
          }),
      viewerId === null || dates.length === 0
        ? []
        : prisma.ratingHistory.findMany({
            where: {
              playerId: viewerId,
              pool: { in: ['daily-classic-draw1', 'daily-classic-draw3'] },
              period: { lte: dates.reduce((a, b) => (a > b ? a : b)) },
            },
            orderBy: { period: 'asc' },
          }),
    ]);
    const difficulty = new Map(rated.map((r) => [`${r.date}/${r.preset}`, r.rated?.difficulty ?? null]));
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
    const rows = await this.opts.prisma.rating.findMany({ where: { playerId } });
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
    const prisma = this.opts.prisma;
    if ((await prisma.player.count({ where: { id: playerId } })) === 0)
      throw new ApiError('not-found', `no player ${playerId}`);
    const points = await prisma.ratingHistory.findMany({
      where: { playerId },
      orderBy: [{ pool: 'asc' }, { period: 'asc' }],
    });
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
    const prisma = this.opts.prisma;
    const where: Prisma.RatingWhereInput = {
      pool,
      player: { is: { bot: query.board === 'bots' } },
      ...(query.includeProvisional ? {} : { deviation: { lte: PROVISIONAL_DEVIATION } }),
    };
    const [total, rows] = await Promise.all([
      prisma.rating.count({ where }),
      prisma.rating.findMany({
        where,
        orderBy: [{ rating: 'desc' }, { games: 'desc' }, { playerId: 'asc' }],
        skip: query.offset,
        take: query.limit,
        include: { player: { select: { name: true } } },
      }),
    ]);
    return {
      total,
      entries: rows.map((r, i) => ({
        ...this.shown(r),
        rank: query.offset + i + 1,
        playerId: r.playerId,
        name: r.player.name,
      })),
    };
  }
}
