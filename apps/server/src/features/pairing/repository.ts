/**
 * The pairing pool's rows (`PairingEntry`), and the facts it reads elsewhere (a race's status, the pairs who
 * met today in `RatedPair`): the only file of pairing/ that speaks to the database. A pairing round is one
 * transaction under the pool's advisory lock, the pairs chosen in between (matching.ts `pairUp`, pure).
 */
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { racePool } from '../ratings/service.js';
import { type WaitingPlayer, metKey } from './matching.js';

/** A player's pairing row. */
export interface EntryRow {
  readonly playerId: string;
  readonly preset: string;
  readonly bot: boolean;
  readonly rating: number;
  readonly enteredAt: Date;
  /** `waiting`, `matching` (a node is making their race) or `paired`. */
  readonly status: string;
  readonly raceCode: string | null;
}

/** The pairing pool's rows. */
export class PairingRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Players waiting in each preset's pool (metrics: `klondike_pairing_pool_players`); presets without one are absent. */
  async poolSizes(): Promise<[string, number][]> {
    const rows = await this.prisma.pairingEntry.groupBy({
      by: ['preset'],
      where: { status: 'waiting' },
      _count: { _all: true },
    });
    return rows.map((r) => [r.preset, r._count._all]);
  }

  /** Player `playerId`'s row, or null. */
  entry(playerId: string): Promise<EntryRow | null> {
    return this.prisma.pairingEntry.findUnique({ where: { playerId } });
  }

  /** Enters a player waiting in `preset`'s pool since `at` (a row already there stays as it is). */
  async enter(e: {
    playerId: string;
    preset: string;
    bot: boolean;
    rating: number;
    at: Date;
  }): Promise<void> {
    await this.prisma.pairingEntry.createMany({
      data: [
        {
          playerId: e.playerId,
          preset: e.preset,
          bot: e.bot,
          rating: e.rating,
          enteredAt: e.at,
          status: 'waiting',
        },
      ],
      skipDuplicates: true,
    });
  }

  /** Moves a waiting player to `preset`'s pool, waiting from `at` with `rating`. */
  async move(playerId: string, preset: string, rating: number, at: Date): Promise<void> {
    await this.prisma.pairingEntry.updateMany({
      where: { playerId, status: 'waiting' },
      data: { preset, rating, enteredAt: at },
    });
  }

  /** Race `code`'s status, or null when there is no such race. */
  async raceStatus(code: string): Promise<string | null> {
    const race = await this.prisma.race.findUnique({ where: { code }, select: { status: true } });
    return race?.status ?? null;
  }

  /** Clears player `playerId`'s row paired into race `raceCode` (that race has finished). */
  async clearPaired(playerId: string, raceCode: string): Promise<void> {
    await this.prisma.pairingEntry.deleteMany({ where: { playerId, status: 'paired', raceCode } });
  }

  /** Takes a waiting player out of the pool; returns whether they were waiting. */
  async leave(playerId: string): Promise<boolean> {
    const gone = await this.prisma.pairingEntry.deleteMany({ where: { playerId, status: 'waiting' } });
    return gone.count === 1;
  }

  /**
   * One pairing round at server time `now` (ms), in one transaction: unless another node holds the pool's
   * lock (then no pairs, `left` 1), `matching` rows older than `matchingTimeoutMs` wait again, the waiting
   * players and who of them met today are read, `choose` picks the pairs, and each pair is claimed
   * (`matching`) when both still wait. Returns the claimed pairs and how many players were left waiting.
   */
  pairRound(
    now: number,
    matchingTimeoutMs: number,
    choose: (waiting: WaitingPlayer[], met: Set<string>) => Iterable<readonly [WaitingPlayer, WaitingPlayer]>,
  ): Promise<{ pairs: [WaitingPlayer, WaitingPlayer][]; left: number }> {
    return this.prisma.$transaction(async (tx) => {
      const lock = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
        `SELECT pg_try_advisory_xact_lock(hashtext('pairing')) AS locked`,
      );
      if (lock[0]?.locked !== true) return { pairs: [], left: 1 };
      await tx.pairingEntry.updateMany({
        where: { status: 'matching', claimedAt: { lt: new Date(now - matchingTimeoutMs) } },
        data: { status: 'waiting', claimedAt: null },
      });
      const rows = await tx.pairingEntry.findMany({ where: { status: 'waiting' } });
      const met = await metToday(tx, rows, now);
      const waiting: WaitingPlayer[] = rows.map((r) => ({
        playerId: r.playerId,
        preset: r.preset,
        bot: r.bot,
        rating: r.rating,
        enteredAt: r.enteredAt.getTime(),
      }));
      const made: [WaitingPlayer, WaitingPlayer][] = [];
      for (const [a, b] of choose(waiting, met)) {
        const claimed = await tx.pairingEntry.updateMany({
          where: { playerId: { in: [a.playerId, b.playerId] }, status: 'waiting' },
          data: { status: 'matching', claimedAt: new Date(now) },
        });
        if (claimed.count === 2) made.push([a, b]);
        else
          await tx.pairingEntry.updateMany({
            where: {
              playerId: { in: [a.playerId, b.playerId] },
              status: 'matching',
              claimedAt: new Date(now),
            },
            data: { status: 'waiting', claimedAt: null },
          });
      }
      return { pairs: made, left: rows.length - 2 * made.length };
    });
  }

  /** A claimed pair waits again (their race could not be made). */
  async waitAgain(playerIds: readonly string[]): Promise<void> {
    await this.prisma.pairingEntry.updateMany({
      where: { playerId: { in: [...playerIds] }, status: 'matching' },
      data: { status: 'waiting', claimedAt: null },
    });
  }

  /** A claimed pair is paired into race `code`. */
  async paired(playerIds: readonly string[], code: string): Promise<void> {
    await this.prisma.pairingEntry.updateMany({
      where: { playerId: { in: [...playerIds] }, status: 'matching' },
      data: { status: 'paired', raceCode: code },
    });
  }
}

/**
 * Who already met today (docs/ratings.md "No farming"): the `metKey`s (matching.ts) of the pairs among
 * `waiting` whose rated race result has counted today (UTC date of `now`, ms since the epoch) in the race
 * pool of their pairing preset, read from `RatedPair` (ratings/farming.ts) inside the pairing transaction, so
 * every node pairs from the same facts. One indexed read; empty for fewer than two players.
 */
async function metToday(
  tx: Prisma.TransactionClient,
  waiting: readonly { readonly playerId: string; readonly preset: string }[],
  now: number,
): Promise<Set<string>> {
  if (waiting.length < 2) return new Set();
  const presetOf = new Map<string, string>();
  for (const w of waiting) {
    const pool = racePool(w.preset);
    if (pool !== null) presetOf.set(pool, w.preset);
  }
  const ids = waiting.map((w) => w.playerId);
  const rows = await tx.ratedPair.findMany({
    where: {
      pool: { in: [...presetOf.keys()] },
      day: new Date(now).toISOString().slice(0, 10),
      playerA: { in: ids },
      playerB: { in: ids },
    },
    select: { pool: true, playerA: true, playerB: true },
  });
  return new Set(rows.map((r) => metKey(presetOf.get(r.pool) ?? r.pool, r.playerA, r.playerB)));
}
