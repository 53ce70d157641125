/**
 * The ratings' rows (`Rating`, `RatingHistory`, `RatedDaily`, `RatedPair`) and the reads of dailies and
 * players they need: the only file of ratings/ that speaks to the database. A closed daily and a finished
 * race are rated in one transaction each (the daily's own; the race's, the transaction that ends it), under
 * the pool's advisory lock, the decision taken by periods.ts in between the reads and the writes.
 */
import type { Board, RatingPool } from '@klondike/protocol';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { startOfDate } from '../../infra/dates.js';
import { pairKey } from './farming.js';
import { PROVISIONAL_DEVIATION, type Rated } from './glicko2.js';
import { type DailyResultRow, type RatingRow, type RatingWrite, rateRace, ratedRacers } from './periods.js';

/** Rows of one multi-row statement when ratings are written. */
const WRITE_CHUNK = 1000;

/** A transaction of the database (a race's rating runs in the race's). */
export type RatingTx = Prisma.TransactionClient;

/** A rating history point. */
export interface RatingPoint {
  readonly pool: string;
  readonly period: string;
  readonly rating: number;
  readonly deviation: number;
}

/** The ratings' rows. */
export class RatingRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The dailies of days before `today` not yet rated, oldest first (then by preset). */
  unratedDailies(today: string): Promise<{ id: number; date: string; preset: string }[]> {
    return this.prisma.dailyDeal.findMany({
      where: { date: { lt: today }, rated: { is: null } },
      orderBy: [{ date: 'asc' }, { preset: 'asc' }],
      select: { id: true, date: true, preset: true },
    });
  }

  /** How many attempts of daily `dailyId` have no settled result yet. */
  unsettledAttempts(dailyId: number): Promise<number> {
    return this.prisma.dailyAttempt.count({ where: { dailyId, game: { result: { is: null } } } });
  }

  /**
   * Rates closed daily `dailyId` of `date` in `pool`, once, in one transaction: the pool's advisory lock, the
   * `RatedDaily` claim (a second settlement finds the row: null), the established players' results in
   * leaderboard order (accounts created on `date` or later left out) and their stored ratings handed to
   * `decide` (periods.ts `rateDaily`), its writes stored. Returns how many results were rated, or null.
   */
  rateDaily(
    dailyId: number,
    date: string,
    pool: RatingPool,
    decide: (
      rows: DailyResultRow[],
      stored: RatingRow[],
    ) => { writes: readonly RatingWrite[]; difficulty: Rated | null },
  ): Promise<number | null> {
    return this.prisma.$transaction(
      async (tx) => {
        await lockPool(tx, pool);
        const claimed = await tx.ratedDaily.createMany({
          data: [{ dailyId, players: 0 }],
          skipDuplicates: true,
        });
        if (claimed.count === 0) return null;
        const dayStart = new Date(startOfDate(date));
        const rows = await tx.dailyResult.findMany({
          // A marked player's results are void: they rate nobody (docs/moderation.md "Marks").
          where: { dailyId, player: { is: { createdAt: { lt: dayStart }, markedAt: null } } },
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
        const { writes, difficulty } = decide(
          rows.map((r) => ({ ...r, bot: r.player.bot })),
          stored,
        );
        await writeRatings(tx, pool, date, writes);
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
  }

  /**
   * Rates a finished race inside the transaction that ends it (the caller claims the race first, so this
   * runs once): under the pool's lock, its pairs are claimed (no farming, ratings/farming.ts), then
   * periods.ts `rateRace` decides from the rated racers' ratings as of `date`, and the writes are stored.
   * Racers without a placement, and marked players (their results are void, docs/moderation.md "Marks"), are
   * left out; fewer than two: nothing. Returns each rated racer's rating before and after (Glicko scale,
   * unrounded).
   */
  async rateRaceIn(
    tx: RatingTx,
    pool: RatingPool,
    date: string,
    raceCode: string,
    all: readonly { playerId: string; placement: number }[],
  ): Promise<{ playerId: string; before: number; after: number }[]> {
    if (all.length < 2) return [];
    const marked = await tx.player.findMany({
      where: { id: { in: all.map((p) => p.playerId) }, markedAt: { not: null } },
      select: { id: true },
    });
    const placements = all.filter((p) => !marked.some((m) => m.id === p.playerId));
    if (placements.length < 2) return [];
    await lockPool(tx, pool);
    const counts = await claimPairs(
      tx,
      pool,
      date,
      raceCode,
      placements.map((p) => p.playerId),
    );
    const rated = ratedRacers(placements, counts);
    if (rated.length < 2) return [];
    const stored = await tx.rating.findMany({
      where: { pool, playerId: { in: rated.map((p) => p.playerId) } },
    });
    const { writes, moved } = rateRace(placements, counts, stored, date);
    await writeRatings(tx, pool, date, writes);
    return moved;
  }

  /** Each of `dates`' rated dailies: its preset and its deck's difficulty (null: not computed). */
  ratedDailies(
    dates: readonly string[],
  ): Promise<{ date: string; preset: string; difficulty: number | null }[]> {
    if (dates.length === 0) return Promise.resolve([]);
    return this.prisma.dailyDeal
      .findMany({
        where: { date: { in: [...dates] }, rated: { isNot: null } },
        select: { date: true, preset: true, rated: { select: { difficulty: true } } },
      })
      .then((rows) =>
        rows.map((r) => ({ date: r.date, preset: r.preset, difficulty: r.rated?.difficulty ?? null })),
      );
  }

  /** Player `playerId`'s daily history points up to period `upTo`, oldest first. */
  dailyHistory(playerId: string, upTo: string): Promise<RatingPoint[]> {
    return this.prisma.ratingHistory.findMany({
      where: {
        playerId,
        pool: { in: ['daily-classic-draw1', 'daily-classic-draw3'] },
        period: { lte: upTo },
      },
      orderBy: { period: 'asc' },
    });
  }

  /** Player `playerId`'s stored ratings, with their pools. */
  ratingsOf(playerId: string): Promise<(RatingRow & { pool: string })[]> {
    return this.prisma.rating.findMany({ where: { playerId } });
  }

  /** Whether player `playerId` exists. */
  async playerExists(playerId: string): Promise<boolean> {
    return (await this.prisma.player.count({ where: { id: playerId } })) > 0;
  }

  /** Player `playerId`'s history points, by pool then period. */
  history(playerId: string): Promise<RatingPoint[]> {
    return this.prisma.ratingHistory.findMany({
      where: { playerId },
      orderBy: [{ pool: 'asc' }, { period: 'asc' }],
    });
  }

  /**
   * A page of `pool`'s ratings on `board`, best rating first (then more games, then player id), with the
   * players' names, and how many there are; provisional ones left out unless `includeProvisional`.
   */
  async leaderboard(
    pool: RatingPool,
    query: { offset: number; limit: number; includeProvisional: boolean; board: Board },
  ): Promise<{ total: number; rows: (RatingRow & { name: string })[] }> {
    const where: Prisma.RatingWhereInput = {
      pool,
      // Marked and closed accounts are on no rating list (docs/moderation.md "Marks").
      player: { is: { bot: query.board === 'bots', markedAt: null, closedAt: null } },
      ...(query.includeProvisional ? {} : { deviation: { lte: PROVISIONAL_DEVIATION } }),
    };
    const [total, rows] = await Promise.all([
      this.prisma.rating.count({ where }),
      this.prisma.rating.findMany({
        where,
        orderBy: [{ rating: 'desc' }, { games: 'desc' }, { playerId: 'asc' }],
        skip: query.offset,
        take: query.limit,
        include: { player: { select: { name: true } } },
      }),
    ]);
    return { total, rows: rows.map((r) => ({ ...r, name: r.player.name })) };
  }
}

/** Holds `pool`'s advisory lock until the transaction ends (two ratings of one pool never interleave). */
async function lockPool(tx: RatingTx, pool: RatingPool): Promise<void> {
  await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `rating:${pool}`);
}

/**
 * Claims every pair of `playerIds` in `pool` on `day` (UTC date `YYYY-MM-DD`) for race `raceCode` and returns
 * the keys (`pairKey`) of the pairs this call claimed: the pairs whose result counts. A pair claimed earlier
 * that day, by any race on any node, is not returned (ratings/farming.ts). Also deletes the pool's rows of
 * days before `day`. Runs in the caller's transaction; at most n(n−1)/2 rows for n racers.
 */
async function claimPairs(
  tx: RatingTx,
  pool: RatingPool,
  day: string,
  raceCode: string,
  playerIds: readonly string[],
): Promise<Set<string>> {
  const ids = [...new Set(playerIds)].sort();
  const args: unknown[] = [pool, day, raceCode];
  const values: string[] = [];
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      args.push(ids[i], ids[j]);
      values.push(`($1, $2, $${args.length - 1}, $${args.length}, $3)`);
    }
  await tx.$executeRawUnsafe(`DELETE FROM "RatedPair" WHERE pool = $1 AND day < $2`, pool, day);
  if (values.length === 0) return new Set();
  const claimed = await tx.$queryRawUnsafe<{ playerA: string; playerB: string }[]>(
    `INSERT INTO "RatedPair" (pool, day, "playerA", "playerB", "raceCode")
     VALUES ${values.join(', ')}
     ON CONFLICT DO NOTHING
     RETURNING "playerA", "playerB"`,
    ...args,
  );
  return new Set(claimed.map((c) => pairKey(c.playerA, c.playerB)));
}

/** Upserts ratings and their history points of period `date`, WRITE_CHUNK rows a statement. */
async function writeRatings(
  tx: RatingTx,
  pool: RatingPool,
  date: string,
  rows: readonly RatingWrite[],
): Promise<void> {
  for (let at = 0; at < rows.length; at += WRITE_CHUNK) {
    const chunk = rows.slice(at, at + WRITE_CHUNK);
    const ratingArgs: unknown[] = [];
    const historyArgs: unknown[] = [];
    const ratingValues = chunk.map((r) => {
      const n = ratingArgs.length;
      ratingArgs.push(r.playerId, pool, r.rated.rating, r.rated.deviation, r.rated.volatility, r.games, date);
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
