/**
 * The fair-play signals' rows: which ended rated games still lack their `GameSignals` row, each game's deal,
 * options and log, and the writes of a game's signals and flags (idempotent: once per game, one flag per
 * player, reason and game). What a signal is and when a flag is raised: analysis.ts and thresholds.ts.
 */
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { readLogs } from '../../infra/db/game-log.js';
import type { StoredEntry } from '../../infra/db/game-rows.js';
import type { StoredOptions } from '../../infra/db/game-options.js';

/** What a finished rated game counted for. */
export type SignalledKind = 'daily' | 'race' | 'arena';

/** An ended rated game without signals. */
export interface PendingGame {
  readonly gameId: string;
  readonly kind: SignalledKind;
}

/** A game to compute signals for: its player, deal, options and log. */
export interface GameForSignals extends StoredOptions {
  readonly gameId: string;
  readonly kind: SignalledKind;
  readonly playerId: string;
  /** The player is a bot account. */
  readonly bot: boolean;
  /** The deal: 52 card codes, space-separated. */
  readonly deal: string;
  readonly log: readonly StoredEntry[];
}

/** One game's signals row to store. */
export interface SignalsRow {
  readonly gameId: string;
  readonly playerId: string;
  readonly kind: SignalledKind;
  readonly moves: number;
  readonly medianGapMs: number | null;
  readonly fastShare: number;
  readonly gapVariation: number | null;
  readonly solverAgreement: number | null;
  readonly hiddenChoices: number;
  readonly hiddenHits: number;
  readonly flags: readonly string[];
  readonly computedAt: Date;
}

/** A flag to raise. */
export interface FlagRow {
  readonly reason: string;
  /** The game that passed it, or null for a flag over several games. */
  readonly gameId: string | null;
  readonly evidence: Record<string, unknown>;
}

/** A stored game's signals as the account rule reads them. */
export interface StoredSignals {
  readonly gameId: string;
  readonly moves: number;
  readonly medianGapMs: number | null;
  readonly solverAgreement: number | null;
  readonly hiddenChoices: number;
  readonly hiddenHits: number;
}

/** The signals rows in one database. Every method throws database errors. */
export class SignalsRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Up to `limit` rated games that have ended and have no signals row, oldest first: ranked daily attempts
   * with their leaderboard row (of dailies dated from `since` on: found from the few daily rows, then by
   * keys), and the racers' games of finished rated or arena races that ended from `since` on (found from
   * the races by their status index), so a pass never scans the games table.
   */
  async pending(limit: number, since: Date): Promise<PendingGame[]> {
    const sinceDate = since.toISOString().slice(0, 10);
    const rows = await this.prisma.$queryRaw<{ id: string; kind: SignalledKind }[]>`
      SELECT g.id, 'daily' AS kind, g."createdAt"
        FROM "DailyDeal" dd
        JOIN "DailyResult" d ON d."dailyId" = dd.id
        JOIN "Game" g ON g.id = d."gameId"
       WHERE dd.date >= ${sinceDate} AND g.ranked AND g."playerId" IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM "GameSignals" s WHERE s."gameId" = g.id)
      UNION ALL
      SELECT g.id, CASE WHEN r."arenaId" IS NULL THEN 'race' ELSE 'arena' END AS kind, g."createdAt"
        FROM "Race" r
        JOIN "RaceRacer" rr ON rr."raceCode" = r.code
        JOIN "Game" g ON g.id = rr."gameId"
       WHERE r.status = 'finished' AND COALESCE(r."endedAt", r."createdAt") >= ${since}
         AND (r.rated OR r."arenaId" IS NOT NULL) AND g."playerId" IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM "GameSignals" s WHERE s."gameId" = g.id)
      ORDER BY 3
      LIMIT ${limit}`;
    return rows.map((r) => ({ gameId: r.id, kind: r.kind }));
  }

  /** The games `pending` named, each with its player, deal, options and log (a deleted game is left out). */
  async games(pending: readonly PendingGame[]): Promise<GameForSignals[]> {
    if (pending.length === 0) return [];
    const kinds = new Map(pending.map((p) => [p.gameId, p.kind]));
    const rows = await this.prisma.game.findMany({
      where: { id: { in: [...kinds.keys()] }, playerId: { not: null } },
      select: {
        id: true,
        createdAt: true,
        version: true,
        moveLog: true,
        deal: true,
        preset: true,
        options: true,
        ranked: true,
        playerId: true,
        daily: { select: { preset: true } },
        player: { select: { bot: true } },
      },
    });
    const logs = await readLogs(this.prisma, rows);
    return rows.map((r) => ({
      gameId: r.id,
      kind: kinds.get(r.id) ?? 'race',
      playerId: r.playerId ?? '',
      bot: r.player?.bot ?? false,
      deal: r.deal,
      preset: r.preset,
      options: r.options,
      ranked: r.ranked,
      dailyPreset: r.daily?.preset ?? null,
      log: logs.get(r.id) ?? [],
    }));
  }

  /**
   * Stores one game's signals and its flags, once: when the game already has its row (another node, an
   * earlier pass) nothing is written. Returns whether this call wrote it.
   */
  async store(row: SignalsRow, flags: readonly FlagRow[]): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const put = await tx.gameSignals.createMany({
        data: [{ ...row, flags: [...row.flags] }],
        skipDuplicates: true,
      });
      if (put.count === 0) return false;
      await this.flag(tx, row.playerId, flags);
      return true;
    });
  }

  /**
   * Raises flags on `playerId` (each skipped when the same flag — player, reason and game — exists; a flag
   * over several games, with no game, is skipped while one of its reason is open).
   */
  async raise(playerId: string, flags: readonly FlagRow[]): Promise<void> {
    await this.prisma.$transaction((tx) => this.flag(tx, playerId, flags));
  }

  private async flag(
    tx: Prisma.TransactionClient,
    playerId: string,
    flags: readonly FlagRow[],
  ): Promise<void> {
    for (const f of flags) {
      if (f.gameId === null) {
        const open = await tx.fairPlayFlag.findFirst({
          where: { playerId, reason: f.reason, gameId: null, closedAt: null },
          select: { id: true },
        });
        if (open !== null) continue;
      }
      await tx.fairPlayFlag.createMany({
        data: [
          { playerId, reason: f.reason, gameId: f.gameId, evidence: f.evidence as Prisma.InputJsonObject },
        ],
        skipDuplicates: true,
      });
    }
  }

  /** The player's `n` latest signals rows of rated games, newest first. */
  recent(playerId: string, n: number): Promise<StoredSignals[]> {
    return this.prisma.gameSignals.findMany({
      where: { playerId },
      orderBy: { computedAt: 'desc' },
      take: n,
      select: {
        gameId: true,
        moves: true,
        medianGapMs: true,
        solverAgreement: true,
        hiddenChoices: true,
        hiddenHits: true,
      },
    });
  }
}
