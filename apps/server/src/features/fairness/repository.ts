/**
 * The fairness rows (issue 54 "one persistence rule"): the deal embargo's hash key (`Setting`), the races and
 * open dailies whose deals it guards, and the fair-play signals stored on the leaderboard rows
 * (`DailyResult.firstMoveMs`, `lineShare`) with the move logs they are computed from. What is embargoed and
 * what a signal is are decided in fairness/embargo.ts and fairness/signals.ts.
 */
import type { StoredEntry } from '../../core/rooms/store.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { RaceStatus } from '../../generated/prisma/enums.js';
import { readLogs } from '../../infra/db/game-log.js';

/** A leaderboard row still without its signals, with its daily's line and its game's log. */
export interface UnsignalledRow {
  readonly playerId: string;
  readonly gameId: string;
  /** The daily's solver line (JSON moves). */
  readonly line: unknown;
  /** The game's creation (when its player first saw the cards). */
  readonly createdAt: Date;
  /** The game's log (every entry, in order). */
  readonly log: readonly StoredEntry[];
}

export type { RaceStatus };

/** A race's deal and its stored hash. */
export interface RaceDealRow {
  readonly code: string;
  readonly deal: string;
  readonly dealHash: string | null;
}

/** The fairness rows in one database. Every method throws database errors. */
export class FairnessRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * The value stored under `key` in table `Setting`, storing `make()` first when there is none (race-free:
   * the first value stored wins on every node).
   */
  async setting(key: string, make: () => string): Promise<string> {
    await this.prisma.setting.createMany({ data: [{ key, value: make() }], skipDuplicates: true });
    return (await this.prisma.setting.findUniqueOrThrow({ where: { key } })).value;
  }

  /** Whether a race of one of `statuses` stores the deal hash `dealHash`. */
  async raceWithHash(dealHash: string, statuses: readonly RaceStatus[]): Promise<boolean> {
    const race = await this.prisma.race.findFirst({
      where: { dealHash, status: { in: [...statuses] } },
      select: { code: true },
    });
    return race !== null;
  }

  /** The deals of the dailies of `from` (a UTC date) and later, by daily id. */
  dailyDealsFrom(from: string): Promise<{ id: number; deal: string }[]> {
    return this.prisma.dailyDeal.findMany({
      where: { date: { gte: from } },
      select: { id: true, deal: true },
    });
  }

  /** The races of one of `statuses`, with their deals and stored hashes. */
  racesIn(statuses: readonly RaceStatus[]): Promise<RaceDealRow[]> {
    return this.prisma.race.findMany({
      where: { status: { in: [...statuses] } },
      select: { code: true, deal: true, dealHash: true },
    });
  }

  /** Replaces race `code`'s deal hash if it is still `was`. Returns whether it did. */
  async rehashRace(code: string, was: string | null, dealHash: string): Promise<boolean> {
    const r = await this.prisma.race.updateMany({ where: { code, dealHash: was }, data: { dealHash } });
    return r.count > 0;
  }

  /** The leaderboard rows of daily `dailyId` without signals, each with its line and its game's log. */
  async unsignalled(dailyId: number): Promise<UnsignalledRow[]> {
    const rows = await this.prisma.dailyResult.findMany({
      where: { dailyId, lineShare: null },
      select: {
        playerId: true,
        daily: { select: { line: true } },
        gameId: true,
        game: { select: { id: true, createdAt: true, version: true, moveLog: true } },
      },
    });
    if (rows.length === 0) return [];
    // Every game's log in one read (readLogs).
    const logs = await readLogs(
      this.prisma,
      rows.map((r) => r.game),
    );
    return rows.map((r) => ({
      playerId: r.playerId,
      gameId: r.gameId,
      line: r.daily.line,
      createdAt: r.game.createdAt,
      log: logs.get(r.gameId) ?? [],
    }));
  }

  /** Stores the signals of a player's row at daily `dailyId`. */
  async storeSignals(
    dailyId: number,
    playerId: string,
    signals: { firstMoveMs: number | null; lineShare: number },
  ): Promise<void> {
    await this.prisma.dailyResult.update({
      where: { dailyId_playerId: { dailyId, playerId } },
      data: signals,
    });
  }
}
