/**
 * The moderation rows (docs/moderation.md): reports, flags (read), marks and their rating refunds, appeals,
 * moderators named by the CLI and the audit log (`ModAction`). Every moderator's action writes its rows and
 * its `ModAction` in one transaction. What is refused and why is decided in moderation/service.ts; the
 * refunds are computed by moderation/refunds.ts.
 */
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { racePool } from '../ratings/periods.js';
import type { RatedRace, Refund } from './refunds.js';
import type { FairPlayCount, FairPlayCountKind } from './stats.js';

type Tx = Prisma.TransactionClient;

/** A player as moderators see them. */
export interface ModPlayerRow {
  readonly id: string;
  readonly name: string;
  readonly bot: boolean;
  readonly createdAt: Date;
  readonly markedAt: Date | null;
  readonly closedAt: Date | null;
}

/** A stored report. */
export interface ReportRow {
  readonly id: number;
  readonly reporterId: string;
  readonly playerId: string;
  readonly reason: string;
  readonly gameId: string | null;
  readonly text: string | null;
  readonly createdAt: Date;
  readonly closedAt: Date | null;
  readonly outcome: string | null;
}

/** A stored flag. */
export interface FlagRow {
  readonly id: number;
  readonly playerId: string;
  readonly gameId: string | null;
  readonly reason: string;
  readonly evidence: unknown;
  readonly createdAt: Date;
  readonly closedAt: Date | null;
}

/** A stored mark. */
export interface MarkRow {
  readonly id: number;
  readonly playerId: string;
  readonly reason: string;
  readonly createdAt: Date;
  readonly liftedAt: Date | null;
}

/** A stored appeal. */
export interface AppealRow {
  readonly id: number;
  readonly playerId: string;
  readonly markId: number;
  readonly text: string;
  readonly createdAt: Date;
  readonly decidedAt: Date | null;
  readonly outcome: string | null;
  readonly answer: string | null;
}

/** A stored action of the audit log, with its moderator's name when the moderator is a player. */
export interface ActionRow {
  readonly id: number;
  readonly moderatorId: string;
  readonly moderatorName: string | null;
  readonly action: string;
  readonly playerId: string | null;
  readonly reason: string;
  readonly details: unknown;
  readonly createdAt: Date;
}

/** A stored GameSignals row. */
export type SignalsRow = Prisma.GameSignalsGetPayload<object>;

/** Who acted, why and when: what every action's `ModAction` row records. */
export interface Actor {
  /** The moderator's player id, or `system` / `cli`. */
  readonly moderatorId: string;
  readonly reason: string;
  readonly at: Date;
}

const PLAYER = { id: true, name: true, bot: true, createdAt: true, markedAt: true, closedAt: true } as const;

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';
}

/** Writes one `ModAction` row. */
function logAction(
  tx: Tx,
  actor: Actor,
  action: string,
  playerId: string | null,
  details: Record<string, unknown>,
): Promise<unknown> {
  return tx.modAction.create({
    data: {
      moderatorId: actor.moderatorId,
      action,
      playerId,
      reason: actor.reason,
      details: details as Prisma.InputJsonObject,
      createdAt: actor.at,
    },
  });
}

/** Holds `pool`'s rating lock (ratings/repository.ts's) until the transaction ends. */
async function lockPool(tx: Tx, pool: string): Promise<void> {
  await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `rating:${pool}`);
}

/** Adds `points` to each refund's opponent's rating in its pool (negative points take it back). */
async function applyRefunds(tx: Tx, refunds: readonly Refund[], sign: 1 | -1): Promise<void> {
  for (const pool of [...new Set(refunds.map((r) => r.pool))].sort()) await lockPool(tx, pool);
  for (const r of refunds)
    await tx.rating.updateMany({
      where: { playerId: r.playerId, pool: r.pool },
      data: { rating: { increment: sign * r.points } },
    });
}

/** The moderation rows in one database. Every method throws database errors. */
export class ModerationRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /** Player `id` as moderators see them, or null. */
  player(id: string): Promise<ModPlayerRow | null> {
    return this.prisma.player.findUnique({ where: { id }, select: PLAYER });
  }

  /** Whether game `id` exists. */
  async gameExists(id: string): Promise<boolean> {
    return (await this.prisma.game.count({ where: { id } })) > 0;
  }

  /** Whether a `Moderator` row names player `id`. */
  async isModeratorRow(id: string): Promise<boolean> {
    return (await this.prisma.moderator.count({ where: { playerId: id } })) > 0;
  }

  /** Every `Moderator` row, oldest first. */
  moderatorRows(): Promise<{ playerId: string; grantedAt: Date; grantedBy: string }[]> {
    return this.prisma.moderator.findMany({ orderBy: { grantedAt: 'asc' } });
  }

  /** Names player `playerId` a moderator, with its action. Returns false (nothing written) when already one. */
  grantModerator(playerId: string, actor: Actor): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const made = await tx.moderator.createMany({
        data: [{ playerId, grantedAt: actor.at, grantedBy: actor.moderatorId }],
        skipDuplicates: true,
      });
      if (made.count === 0) return false;
      await logAction(tx, actor, 'grant', playerId, {});
      return true;
    });
  }

  /** Removes player `playerId`'s `Moderator` row, with its action. Returns false when there was none. */
  revokeModerator(playerId: string, actor: Actor): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const gone = await tx.moderator.deleteMany({ where: { playerId } });
      if (gone.count === 0) return false;
      await logAction(tx, actor, 'revoke', playerId, {});
      return true;
    });
  }

  /**
   * Stores a report. Returns it, or `conflict` (nothing stored) when the reporter already has an open
   * report about the player (partial unique index `Report_open_key`).
   */
  async insertReport(r: {
    reporterId: string;
    playerId: string;
    reason: string;
    gameId: string | null;
    text: string | null;
    createdAt: Date;
  }): Promise<ReportRow | 'conflict'> {
    try {
      return await this.prisma.report.create({ data: r });
    } catch (e) {
      if (isUniqueViolation(e)) return 'conflict';
      throw e;
    }
  }

  /** Player `playerId`'s marks, newest first. */
  marks(playerId: string): Promise<MarkRow[]> {
    return this.prisma.fairPlayMark.findMany({ where: { playerId }, orderBy: { id: 'desc' } });
  }

  /** The appeal against mark `markId`, or null. */
  appealOf(markId: number): Promise<AppealRow | null> {
    return this.prisma.appeal.findUnique({ where: { markId } });
  }

  /**
   * Stores player `playerId`'s appeal against their open mark `markId`. Returns it, or `conflict` when the
   * mark already has one (one appeal per mark) or is no longer open.
   */
  insertAppeal(playerId: string, markId: number, text: string, at: Date): Promise<AppealRow | 'conflict'> {
    return this.prisma
      .$transaction(async (tx) => {
        const open = await tx.fairPlayMark.count({ where: { id: markId, playerId, liftedAt: null } });
        if (open === 0) return 'conflict' as const;
        return tx.appeal.create({ data: { playerId, markId, text, createdAt: at } });
      })
      .catch((e: unknown) => {
        if (isUniqueViolation(e)) return 'conflict' as const;
        throw e;
      });
  }

  /**
   * The players with an open flag, report or appeal, the one waiting longest first (at most `limit`), each
   * with their open flags, open reports, open appeal and `games` most recent signals.
   */
  async queue(limit: number, games: number) {
    const waiting = await this.prisma.$queryRaw<{ playerId: string; since: Date }[]>`
      SELECT "playerId", min(at) AS since FROM (
        SELECT "playerId", "createdAt" AS at FROM "FairPlayFlag" WHERE "closedAt" IS NULL
        UNION ALL SELECT "playerId", "createdAt" FROM "Report" WHERE "closedAt" IS NULL
        UNION ALL SELECT "playerId", "createdAt" FROM "Appeal" WHERE "decidedAt" IS NULL
      ) w GROUP BY "playerId" ORDER BY since ASC, "playerId" ASC LIMIT ${limit}`;
    const out = [];
    for (const w of waiting) {
      const entry = await this.entry(w.playerId, games);
      if (entry !== null) out.push(entry);
    }
    return out;
  }

  /** Player `playerId`'s queue entry (open flags, reports, appeal; recent signals), or null without player. */
  async entry(playerId: string, games: number) {
    const player = await this.player(playerId);
    if (player === null) return null;
    const [flags, reports, appeal, signals] = await Promise.all([
      this.prisma.fairPlayFlag.findMany({ where: { playerId, closedAt: null }, orderBy: { id: 'asc' } }),
      this.prisma.report.findMany({ where: { playerId, closedAt: null }, orderBy: { id: 'asc' } }),
      this.prisma.appeal.findFirst({ where: { playerId, decidedAt: null }, orderBy: { id: 'desc' } }),
      this.prisma.gameSignals.findMany({ where: { playerId }, orderBy: { computedAt: 'desc' }, take: games }),
    ]);
    return { player, flags, reports, appeal, games: signals };
  }

  /** Every report about player `playerId`, newest first (at most `limit`). */
  reportsAbout(playerId: string, limit: number): Promise<ReportRow[]> {
    return this.prisma.report.findMany({ where: { playerId }, orderBy: { id: 'desc' }, take: limit });
  }

  /**
   * A page of the audit log, newest first: actions with an id below `before` (all when undefined), at most
   * `limit`, only player `playerId`'s when given.
   */
  async log(query: { before?: number; limit: number; playerId?: string }): Promise<ActionRow[]> {
    const rows = await this.prisma.modAction.findMany({
      where: {
        ...(query.before !== undefined ? { id: { lt: query.before } } : {}),
        ...(query.playerId !== undefined ? { playerId: query.playerId } : {}),
      },
      orderBy: { id: 'desc' },
      take: query.limit,
    });
    const ids = [...new Set(rows.map((r) => r.moderatorId))];
    const names = new Map(
      (
        await this.prisma.player.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })
      ).map((p) => [p.id, p.name]),
    );
    return rows.map((r) => ({ ...r, moderatorName: names.get(r.moderatorId) ?? null }));
  }

  /**
   * Marks player `playerId` in one transaction: `Player.markedAt` (only if not marked: else `conflict`,
   * nothing written), the `FairPlayMark`, their open flags and reports closed as `marked`, the refunds that
   * `decide` computes from their rated races (rows and ratings), and the `mark` action. Returns the refunds,
   * or `missing` without player.
   */
  mark(
    playerId: string,
    actor: Actor,
    decide: (races: RatedRace[]) => Refund[],
  ): Promise<Refund[] | 'conflict' | 'missing'> {
    return this.prisma.$transaction(
      async (tx) => {
        const set = await tx.player.updateMany({
          where: { id: playerId, markedAt: null },
          data: { markedAt: actor.at },
        });
        if (set.count === 0)
          return (await tx.player.count({ where: { id: playerId } })) > 0 ? 'conflict' : 'missing';
        const mark = await tx.fairPlayMark.create({
          data: { playerId, reason: actor.reason, moderatorId: actor.moderatorId, createdAt: actor.at },
        });
        const closed = await this.closeOpen(tx, playerId, actor, 'marked');
        const refunds = decide(await ratedRaces(tx, playerId));
        if (refunds.length > 0)
          await tx.ratingRefund.createMany({ data: refunds.map((r) => ({ ...r, markId: mark.id })) });
        await applyRefunds(tx, refunds, 1);
        await logAction(tx, actor, 'mark', playerId, {
          markId: mark.id,
          ...closed,
          refunds: refunds.map((r) => ({ ...r })),
        });
        return refunds;
      },
      { timeout: 60_000, maxWait: 30_000 },
    );
  }

  /**
   * Lifts player `playerId`'s open mark in one transaction: its refunds taken back (their rows kept, with
   * the lifted mark, for the record), `Player.markedAt` cleared, and the action (`unmark`, or `action`)
   * logged with `details`. Returns the refunds taken back, `conflict` when the player is not marked, or
   * `missing` without player.
   */
  unmark(
    playerId: string,
    actor: Actor,
    action = 'unmark',
    details: Record<string, unknown> = {},
    within?: Tx,
  ): Promise<Refund[] | 'conflict' | 'missing'> {
    const run = async (tx: Tx): Promise<Refund[] | 'conflict' | 'missing'> => {
      const set = await tx.player.updateMany({
        where: { id: playerId, markedAt: { not: null } },
        data: { markedAt: null },
      });
      if (set.count === 0)
        return (await tx.player.count({ where: { id: playerId } })) > 0 ? 'conflict' : 'missing';
      const marks = await tx.fairPlayMark.findMany({
        where: { playerId, liftedAt: null },
        select: { id: true },
      });
      await tx.fairPlayMark.updateMany({
        where: { id: { in: marks.map((m) => m.id) }, liftedAt: null },
        data: { liftedAt: actor.at, liftedBy: actor.moderatorId },
      });
      const rows = await tx.ratingRefund.findMany({
        where: { markId: { in: marks.map((m) => m.id) } },
        orderBy: [{ raceCode: 'asc' }, { playerId: 'asc' }],
      });
      const refunds = rows.map((r) => ({
        playerId: r.playerId,
        raceCode: r.raceCode,
        pool: r.pool,
        points: r.points,
      }));
      await applyRefunds(tx, refunds, -1);
      await logAction(tx, actor, action, playerId, { ...details, marks: marks.map((m) => m.id), refunds });
      return refunds;
    };
    return within ? run(within) : this.prisma.$transaction(run, { timeout: 60_000, maxWait: 30_000 });
  }

  /**
   * Closes player `playerId`'s open flags and reports as `dismissed` and logs `dismiss`, in one transaction.
   * Returns how many were closed, or `conflict` (nothing written) when none was open.
   */
  dismiss(playerId: string, actor: Actor): Promise<{ flags: number; reports: number } | 'conflict'> {
    return this.prisma.$transaction(async (tx) => {
      const closed = await this.closeOpen(tx, playerId, actor, 'dismissed');
      if (closed.flags + closed.reports === 0) return 'conflict' as const;
      await logAction(tx, actor, 'dismiss', playerId, closed);
      return closed;
    });
  }

  /** Closes player `playerId`'s open flags and reports with `outcome`; returns how many of each. */
  private async closeOpen(
    tx: Tx,
    playerId: string,
    actor: Actor,
    outcome: 'marked' | 'dismissed',
  ): Promise<{ flags: number; reports: number }> {
    const flags = await tx.fairPlayFlag.updateMany({
      where: { playerId, closedAt: null },
      data: { closedAt: actor.at, closedBy: actor.moderatorId },
    });
    const reports = await tx.report.updateMany({
      where: { playerId, closedAt: null },
      data: { closedAt: actor.at, closedBy: actor.moderatorId, outcome },
    });
    return { flags: flags.count, reports: reports.count };
  }

  /**
   * Renames player `playerId` to `name` (with its uniqueness keys, players/players.ts) and logs `rename`, in
   * one transaction. Returns the old name, `taken` when another player holds the name key or skeleton, or
   * `missing`.
   */
  async rename(
    playerId: string,
    name: { name: string; nameKey: string; nameSkeleton: string },
    actor: Actor,
  ): Promise<{ oldName: string } | 'taken' | 'missing'> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const old = await tx.player.findUnique({ where: { id: playerId }, select: { name: true } });
        if (old === null) return 'missing' as const;
        await tx.player.update({ where: { id: playerId }, data: name });
        await logAction(tx, actor, 'rename', playerId, { oldName: old.name, name: name.name });
        return { oldName: old.name };
      });
    } catch (e) {
      if (isUniqueViolation(e)) return 'taken';
      throw e;
    }
  }

  /**
   * Closes player `playerId`'s account in one transaction: `Player.closedAt`, every token and transfer code
   * deleted (every device signed out), and the `close` action. Returns how many tokens were deleted,
   * `conflict` when already closed, or `missing`.
   */
  close(playerId: string, actor: Actor): Promise<{ devices: number } | 'conflict' | 'missing'> {
    return this.prisma.$transaction(async (tx) => {
      const set = await tx.player.updateMany({
        where: { id: playerId, closedAt: null },
        data: { closedAt: actor.at },
      });
      if (set.count === 0)
        return (await tx.player.count({ where: { id: playerId } })) > 0 ? 'conflict' : 'missing';
      const tokens = await tx.playerToken.deleteMany({ where: { playerId } });
      await tx.accessToken.deleteMany({ where: { playerId } });
      await tx.transferCode.deleteMany({ where: { playerId } });
      await logAction(tx, actor, 'close', playerId, { devices: tokens.count });
      return { devices: tokens.count };
    });
  }

  /** Appeal `id`, or null. */
  appeal(id: number): Promise<AppealRow | null> {
    return this.prisma.appeal.findUnique({ where: { id } });
  }

  /**
   * Decides open appeal `id` in one transaction: its outcome and answer, and (granted) the mark lifted with
   * its refunds taken back, logged as `appeal-granted`; else `appeal-denied`. Returns the refunds taken back
   * (none when denied), or `conflict` when the appeal was already decided, or `missing`.
   */
  decideAppeal(
    id: number,
    outcome: 'granted' | 'denied',
    answer: string,
    actor: Actor,
  ): Promise<{ appeal: AppealRow; refunds: Refund[] } | 'conflict' | 'missing'> {
    return this.prisma.$transaction(
      async (tx) => {
        const set = await tx.appeal.updateMany({
          where: { id, decidedAt: null },
          data: { decidedAt: actor.at, decidedBy: actor.moderatorId, outcome, answer },
        });
        const appeal = await tx.appeal.findUnique({ where: { id } });
        if (appeal === null) return 'missing' as const;
        if (set.count === 0) return 'conflict' as const;
        const details = { appealId: id, markId: appeal.markId, answer };
        if (outcome === 'denied') {
          await logAction(tx, actor, 'appeal-denied', appeal.playerId, details);
          return { appeal, refunds: [] };
        }
        const mark = await tx.fairPlayMark.findUnique({ where: { id: appeal.markId } });
        if (mark?.liftedAt !== null) {
          // The mark was lifted meanwhile (an unmark): the appeal is granted with nothing left to undo.
          await logAction(tx, actor, 'appeal-granted', appeal.playerId, { ...details, refunds: [] });
          return { appeal, refunds: [] };
        }
        const refunds = await this.unmark(appeal.playerId, actor, 'appeal-granted', details, tx);
        return { appeal, refunds: Array.isArray(refunds) ? refunds : [] };
      },
      { timeout: 60_000, maxWait: 30_000 },
    );
  }

  /** The published figures' counts, by kind and UTC month. */
  async counts(): Promise<FairPlayCount[]> {
    const rows = await this.prisma.$queryRaw<
      { kind: FairPlayCountKind; month: string; count: bigint | number }[]
    >`
      SELECT kind, month, count(*) AS count FROM (
        SELECT 'reportReceived' AS kind, to_char("createdAt", 'YYYY-MM') AS month FROM "Report"
        UNION ALL SELECT 'reportClosed', to_char("closedAt", 'YYYY-MM') FROM "Report" WHERE "closedAt" IS NOT NULL
        UNION ALL SELECT 'flag', to_char("createdAt", 'YYYY-MM') FROM "FairPlayFlag"
        UNION ALL SELECT 'mark', to_char("createdAt", 'YYYY-MM') FROM "FairPlayMark"
        UNION ALL SELECT 'unmark', to_char("liftedAt", 'YYYY-MM') FROM "FairPlayMark" WHERE "liftedAt" IS NOT NULL
        UNION ALL SELECT 'appeal', to_char("createdAt", 'YYYY-MM') FROM "Appeal"
        UNION ALL SELECT 'appealGranted', to_char("decidedAt", 'YYYY-MM') FROM "Appeal" WHERE "outcome" = 'granted'
      ) e GROUP BY kind, month`;
    return rows.map((r) => ({ kind: r.kind, month: r.month, count: Number(r.count) }));
  }
}

/** Player `playerId`'s rated races (arena races included) with every racer's place and ratings. */
async function ratedRaces(tx: Tx, playerId: string): Promise<RatedRace[]> {
  const races = await tx.race.findMany({
    where: { ratedAt: { not: null }, racers: { some: { playerId, placement: { not: null } } } },
    orderBy: { code: 'asc' },
    select: {
      code: true,
      preset: true,
      racers: {
        select: { playerId: true, placement: true, ratingBefore: true, ratingAfter: true },
        orderBy: { playerId: 'asc' },
      },
    },
  });
  return races.flatMap((r) => {
    const pool = racePool(r.preset);
    return pool === null ? [] : [{ raceCode: r.code, pool, racers: r.racers }];
  });
}
