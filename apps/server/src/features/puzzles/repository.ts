/**
 * The puzzles' rows (docs/puzzles.md): the games to cut and the claim of each (PuzzleScan, once per game),
 * the puzzles, the players' puzzle ratings and first attempts, the puzzle of the day and the timed runs.
 * Every method throws database errors.
 */
import { PUZZLE_THEMES, type PuzzleTheme } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { Rated } from '../ratings/glicko2.js';
import type { PuzzleCandidate } from './generation.js';
import type { StoredPosition } from './position.js';

/** A stored puzzle. */
export interface PuzzleRow {
  readonly id: string;
  readonly goal: 'only-move' | 'clear-the-table';
  readonly par: number;
  readonly proven: boolean;
  readonly position: StoredPosition;
  readonly solution: readonly Move[];
  readonly themes: readonly PuzzleTheme[];
  readonly unseen: number;
  readonly gameId: string;
  readonly ply: number;
  readonly dailyDate: string | null;
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly plays: number;
}

/** A stored timed run. */
export interface RunRow {
  readonly id: string;
  readonly playerId: string;
  readonly startedAt: Date;
  readonly endsAt: Date;
  readonly solved: number;
  readonly wrong: number;
  readonly puzzleId: string | null;
  readonly served: readonly string[];
  readonly closedAt: Date | null;
}

/** A player's best finished run of a period, with their name and bot flag. */
export interface BestRunRow {
  readonly playerId: string;
  readonly name: string;
  readonly bot: boolean;
  readonly score: number;
  readonly endsAt: Date;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** The open transaction of `updateRun`, for reads inside it (PGlite has one connection). */
export type RunTransaction = Prisma.TransactionClient;

const themesOf = (j: unknown): PuzzleTheme[] =>
  Array.isArray(j)
    ? j.filter((t): t is PuzzleTheme => (PUZZLE_THEMES as readonly unknown[]).includes(t))
    : [];

function toPuzzle(r: {
  id: string;
  goal: string;
  par: number;
  proven: boolean;
  position: unknown;
  solution: unknown;
  themes: unknown;
  unseen: number;
  gameId: string;
  ply: number;
  dailyDate: string | null;
  rating: number;
  deviation: number;
  volatility: number;
  plays: number;
}): PuzzleRow {
  return {
    ...r,
    goal: r.goal === 'clear-the-table' ? 'clear-the-table' : 'only-move',
    position: r.position as StoredPosition,
    solution: r.solution as Move[],
    themes: themesOf(r.themes),
  };
}

function toRun(r: {
  id: string;
  playerId: string;
  startedAt: Date;
  endsAt: Date;
  solved: number;
  wrong: number;
  puzzleId: string | null;
  served: unknown;
  closedAt: Date | null;
}): RunRow {
  return { ...r, served: Array.isArray(r.served) ? r.served.filter((s) => typeof s === 'string') : [] };
}

/** The windows around a player's rating that `next` tries in turn (points either side). */
const WINDOWS = [100, 200, 400, 800, Number.POSITIVE_INFINITY] as const;

/** The puzzles' rows in one database. */
export class PuzzlesRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Up to `limit` games created from `since` on, not yet claimed, whose replay is public by the rules of
   * GameRooms.replay (a race game once its race has finished, a daily game once its day — before `today` —
   * has closed, any other game once won or resigned), oldest first. The caller still asks `replay` itself.
   */
  async pending(limit: number, since: Date, today: string): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT g.id
        FROM "Game" g
        LEFT JOIN "DailyDeal" dd ON dd.id = g."dailyId"
        LEFT JOIN "RaceRacer" rr ON rr."gameId" = g.id
        LEFT JOIN "Race" r ON r.code = rr."raceCode"
       WHERE g."createdAt" >= ${since} AND g.version > 0
         AND NOT EXISTS (SELECT 1 FROM "PuzzleScan" s WHERE s."gameId" = g.id)
         AND CASE
               WHEN rr."gameId" IS NOT NULL THEN r.status = 'finished'
               WHEN g."dailyId" IS NOT NULL THEN dd.date < ${today}
               ELSE g.status IN ('won', 'resigned')
             END
       ORDER BY g."createdAt", g.id
       LIMIT ${limit}`;
    return rows.map((r) => r.id);
  }

  /** Claims game `gameId` for cutting: false when it was claimed already (another node, an earlier pass). */
  async claim(gameId: string): Promise<boolean> {
    const put = await this.prisma.puzzleScan.createMany({
      data: [{ gameId, candidates: 0, puzzles: 0 }],
      skipDuplicates: true,
    });
    return put.count === 1;
  }

  /** Stores the puzzles cut from a claimed game and its figures. Returns the puzzles written. */
  async store(
    gameId: string,
    dailyDate: string | null,
    candidates: number,
    puzzles: readonly (PuzzleCandidate & { readonly id: string; readonly start: Rated })[],
  ): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const put = await tx.puzzle.createMany({
        data: puzzles.map((p) => ({
          id: p.id,
          goal: p.goal,
          par: p.par,
          proven: p.proven,
          position: p.position as unknown as Prisma.InputJsonObject,
          solution: p.solution as unknown as Prisma.InputJsonArray,
          themes: [...p.themes],
          unseen: p.unseen,
          choices: p.choices,
          gameId,
          ply: p.ply,
          dailyDate,
          rating: p.start.rating,
          deviation: p.start.deviation,
          volatility: p.start.volatility,
        })),
        skipDuplicates: true,
      });
      await tx.puzzleScan.update({ where: { gameId }, data: { candidates, puzzles: put.count } });
      return put.count;
    });
  }

  /** The daily date of game `gameId` when it is a daily game, else null. */
  async dailyDateOf(gameId: string): Promise<string | null> {
    const g = await this.prisma.game.findUnique({
      where: { id: gameId },
      select: { daily: { select: { date: true } } },
    });
    return g?.daily?.date ?? null;
  }

  /** Puzzle `id`, or null. */
  async puzzle(id: string, db: Db = this.prisma): Promise<PuzzleRow | null> {
    const r = await db.puzzle.findUnique({ where: { id } });
    return r === null ? null : toPuzzle(r);
  }

  /**
   * The puzzle nearest `rating` that `playerId` has not attempted (with theme `theme`, and none of
   * `exclude`), looking in ever wider windows; null when none is left.
   */
  async nearest(
    rating: number,
    opts: { playerId?: string; theme?: PuzzleTheme; exclude?: readonly string[] },
    db: Db = this.prisma,
  ): Promise<PuzzleRow | null> {
    const theme =
      opts.theme === undefined
        ? Prisma.empty
        : Prisma.sql`AND p.themes @> ${JSON.stringify([opts.theme])}::jsonb`;
    const mine =
      opts.playerId === undefined
        ? Prisma.empty
        : Prisma.sql`AND NOT EXISTS (SELECT 1 FROM "PuzzleAttempt" a
                                      WHERE a."playerId" = ${opts.playerId} AND a."puzzleId" = p.id)`;
    const exclude =
      opts.exclude === undefined || opts.exclude.length === 0
        ? Prisma.empty
        : Prisma.sql`AND p.id NOT IN (${Prisma.join([...opts.exclude])})`;
    for (const w of WINDOWS) {
      const window = Number.isFinite(w)
        ? Prisma.sql`AND p.rating BETWEEN ${rating - w} AND ${rating + w}`
        : Prisma.empty;
      const rows = await db.$queryRaw<{ id: string }[]>`
        SELECT p.id FROM "Puzzle" p
         WHERE TRUE ${window} ${theme} ${mine} ${exclude}
         ORDER BY ABS(p.rating - ${rating}), p.id
         LIMIT 1`;
      const id = rows[0]?.id;
      if (id !== undefined) return this.puzzle(id, db);
    }
    return null;
  }

  /** A player's puzzle rating row, or null before their first rated attempt. */
  async rating(playerId: string): Promise<(Rated & { attempts: number; solved: number }) | null> {
    return this.prisma.puzzleRating.findUnique({
      where: { playerId },
      select: { rating: true, deviation: true, volatility: true, attempts: true, solved: true },
    });
  }

  /**
   * Rates a first attempt once (docs/puzzles.md "Rating"). In one transaction: the player's rating row is
   * created if missing and locked (so one player's attempts are rated one after another), an existing
   * attempt row of the player at this puzzle makes it unrated, else the puzzle's row is locked, `rate`
   * computes both new ratings, and the attempt row and both ratings are written.
   * Returns the ratings before and after (equal when not rated) and whether it was rated; null when the
   * puzzle does not exist.
   */
  async rateAttempt(
    playerId: string,
    puzzleId: string,
    correct: boolean,
    fresh: Rated,
    rate: (player: Rated, puzzle: Rated) => { player: Rated; puzzle: Rated },
    at: Date,
  ): Promise<{ rated: boolean; player: [Rated, Rated]; puzzle: [Rated, Rated] } | null> {
    return this.prisma.$transaction(async (tx) => {
      await tx.puzzleRating.createMany({ data: [{ playerId, ...fresh }], skipDuplicates: true });
      const [me] = await tx.$queryRaw<Rated[]>`
        SELECT rating, deviation, volatility FROM "PuzzleRating" WHERE "playerId" = ${playerId} FOR UPDATE`;
      const [pz] = await tx.$queryRaw<Rated[]>`
        SELECT rating, deviation, volatility FROM "Puzzle" WHERE id = ${puzzleId} FOR UPDATE`;
      if (me === undefined || pz === undefined) return null;
      const done = await tx.puzzleAttempt.findUnique({
        where: { playerId_puzzleId: { playerId, puzzleId } },
        select: { correct: true },
      });
      if (done !== null) return { rated: false, player: [me, me], puzzle: [pz, pz] };
      const next = rate(me, pz);
      await tx.puzzleAttempt.create({
        data: {
          playerId,
          puzzleId,
          correct,
          ratingBefore: me.rating,
          ratingAfter: next.player.rating,
          puzzleBefore: pz.rating,
          puzzleAfter: next.puzzle.rating,
          createdAt: at,
        },
      });
      await tx.puzzleRating.update({
        where: { playerId },
        data: {
          ...next.player,
          attempts: { increment: 1 },
          solved: { increment: correct ? 1 : 0 },
        },
      });
      await tx.puzzle.update({ where: { id: puzzleId }, data: { ...next.puzzle, plays: { increment: 1 } } });
      return { rated: true, player: [me, next.player], puzzle: [pz, next.puzzle] };
    });
  }

  /** A player's last `n` rated attempts, oldest first. */
  async history(playerId: string, n: number): Promise<{ at: Date; rating: number }[]> {
    const rows = await this.prisma.puzzleAttempt.findMany({
      where: { playerId },
      orderBy: [{ createdAt: 'desc' }, { puzzleId: 'desc' }],
      take: n,
      select: { createdAt: true, ratingAfter: true },
    });
    return rows.reverse().map((r) => ({ at: r.createdAt, rating: r.ratingAfter }));
  }

  /** A player's rated attempts and solved ones by theme. */
  async themes(playerId: string): Promise<{ theme: string; attempts: number; solved: number }[]> {
    const rows = await this.prisma.$queryRaw<{ theme: string; attempts: bigint; solved: bigint }[]>`
      SELECT t.theme, COUNT(*) AS attempts, COUNT(*) FILTER (WHERE a.correct) AS solved
        FROM "PuzzleAttempt" a
        JOIN "Puzzle" p ON p.id = a."puzzleId"
        CROSS JOIN LATERAL jsonb_array_elements_text(p.themes) AS t(theme)
       WHERE a."playerId" = ${playerId}
       GROUP BY t.theme
       ORDER BY t.theme`;
    return rows.map((r) => ({ theme: r.theme, attempts: Number(r.attempts), solved: Number(r.solved) }));
  }

  /** The puzzle of `date`, chosen once: the first call stores a choice (unique on the date), every node reads it. */
  async daily(date: string): Promise<PuzzleRow | null> {
    const stored = await this.prisma.puzzleDaily.findUnique({ where: { date } });
    if (stored === null) {
      // Never a puzzle that was a puzzle of the day before; among the rest, one picked by the date.
      const n = await this.prisma.$queryRaw<{ n: bigint }[]>`
        SELECT COUNT(*) AS n FROM "Puzzle" p WHERE NOT EXISTS (SELECT 1 FROM "PuzzleDaily" d WHERE d."puzzleId" = p.id)`;
      const count = Number(n[0]?.n ?? 0);
      const pool = count > 0;
      let offset = 0;
      for (const ch of date) offset = (offset * 31 + ch.charCodeAt(0)) % 1_000_003;
      const rows = pool
        ? await this.prisma.$queryRaw<{ id: string }[]>`
            SELECT p.id FROM "Puzzle" p
             WHERE NOT EXISTS (SELECT 1 FROM "PuzzleDaily" d WHERE d."puzzleId" = p.id)
             ORDER BY p.id OFFSET ${offset % count} LIMIT 1`
        : await this.prisma.$queryRaw<{ id: string }[]>`SELECT p.id FROM "Puzzle" p ORDER BY p.id LIMIT 1`;
      const id = rows[0]?.id;
      if (id === undefined) return null;
      await this.prisma.puzzleDaily.createMany({ data: [{ date, puzzleId: id }], skipDuplicates: true });
    }
    const chosen = await this.prisma.puzzleDaily.findUnique({ where: { date } });
    return chosen === null ? null : this.puzzle(chosen.puzzleId);
  }

  /** Stores a new run. */
  async createRun(run: RunRow): Promise<void> {
    await this.prisma.puzzleRun.create({ data: { ...run, served: [...run.served] } });
  }

  /** Run `id`, or null. */
  async run(id: string): Promise<RunRow | null> {
    const r = await this.prisma.puzzleRun.findUnique({ where: { id } });
    return r === null ? null : toRun(r);
  }

  /**
   * Changes run `id` under its row lock: `change` reads the locked row (null when missing) and returns the new
   * fields (or null to write nothing) and a value to hand back.
   */
  async updateRun<T>(
    id: string,
    change: (
      run: RunRow | null,
      tx: Prisma.TransactionClient,
    ) => Promise<{ write: Partial<RunRow> | null; value: T }>,
  ): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<
        { id: string }[]
      >`SELECT id FROM "PuzzleRun" WHERE id = ${id} FOR UPDATE`;
      const row = locked === undefined ? null : await tx.puzzleRun.findUnique({ where: { id } });
      const { write, value } = await change(row === null ? null : toRun(row), tx);
      if (write !== null) {
        const { served, ...rest } = write;
        await tx.puzzleRun.update({
          where: { id },
          data: { ...rest, ...(served !== undefined ? { served: [...served] } : {}) },
        });
      }
      return value;
    });
  }

  /**
   * Each player's best finished run (its end at or before `now`), ends from `from` (inclusive) to `to`
   * (exclusive) when given; marked players left out. Best first: score, then the earlier end.
   */
  async bestRuns(now: Date, from: Date | null, to: Date | null): Promise<BestRunRow[]> {
    const period =
      from === null || to === null
        ? Prisma.empty
        : Prisma.sql`AND r."endsAt" >= ${from} AND r."endsAt" < ${to}`;
    const rows = await this.prisma.$queryRaw<BestRunRow[]>`
      SELECT b."playerId", pl.name, pl.bot, b.score, b."endsAt"
        FROM (SELECT DISTINCT ON (r."playerId") r."playerId", r.solved AS score, r."endsAt"
                FROM "PuzzleRun" r
               WHERE r."endsAt" <= ${now} ${period}
               ORDER BY r."playerId", r.solved DESC, r."endsAt" ASC) b
        JOIN "Player" pl ON pl.id = b."playerId"
       WHERE pl."markedAt" IS NULL
       ORDER BY b.score DESC, b."endsAt" ASC, b."playerId"`;
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }
}
