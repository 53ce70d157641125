/**
 * Compaction of finished games' move logs: a game won or resigned (R12, R13: it takes no more action) longer
 * ago than MOVE_ARCHIVE_AFTER_MS, or a ranked daily attempt whose day closed longer ago than that (the daily
 * policy refuses any action after the close, on every node, whatever the game's status), gets its entries encoded into its row ("Game"."moveLog", db/log-codec.ts,
 * docs/move-log.md) and its "Move" rows deleted, in one transaction per batch: a batch is compacted whole or
 * not at all, whatever kills the server in its middle. Readers see the same log either way
 * (db/game-log.ts). The maintenance tick runs it (plugins/maintenance.ts) on every node: a batch locks its
 * games (`FOR UPDATE SKIP LOCKED`), so two nodes never take the same game, and re-checks under the lock that
 * each is still uncompacted, so a second run finds nothing to do.
 *
 * Any other game still playing (or blocked: undo may take it back) is never touched.
 */
import type { PrismaClient } from '../../generated/prisma/client.js';
import { gameDay, readLogs } from '../../infra/db/game-log.js';
import { UnencodableEntry, encodeLog } from '../../infra/db/log-codec.js';
import { DAY_MS, utcDate } from '../../infra/dates.js';

/** Games compacted per batch (one transaction). */
export const COMPACTION_BATCH = 200;

/** Batches one call runs at most (the rest waits for the next tick). */
export const COMPACTION_MAX_BATCHES = 10;

/** The last UTC date whose day closed (at its next midnight) no later than `cutoff`. */
function closedBy(cutoff: Date): string {
  return utcDate(cutoff.getTime() - DAY_MS);
}

/** What a run did. */
export interface CompactionReport {
  /** Games compacted. */
  readonly games: number;
  /** "Move" rows deleted. */
  readonly entries: number;
  /** Batches (transactions) committed. */
  readonly batches: number;
}

/** Options of `compactFinishedGames`. */
export interface CompactionOptions {
  /** Games a batch (default COMPACTION_BATCH). */
  readonly batch?: number;
  /** Most batches this call (default COMPACTION_MAX_BATCHES). */
  readonly maxBatches?: number;
  /** Hears of a game left as it is because an entry cannot be encoded (its rows stay). */
  readonly skipped?: (gameId: string, err: unknown) => void;
}

/**
 * Compacts the logs of games won or resigned before `cutoff` (oldest end first), in batches (see the module
 * comment). Returns what it did. Errors: database errors (the batch under way is rolled back).
 */
export async function compactFinishedGames(
  prisma: PrismaClient,
  cutoff: Date,
  options: CompactionOptions = {},
): Promise<CompactionReport> {
  const size = Math.max(1, options.batch ?? COMPACTION_BATCH);
  const maxBatches = Math.max(1, options.maxBatches ?? COMPACTION_MAX_BATCHES);
  // Games left as they are this call (an entry the format cannot hold): not selected again.
  const skip = new Set<string>();
  let games = 0;
  let entries = 0;
  let batches = 0;
  while (batches < maxBatches) {
    const done = await prisma.$transaction(async (tx) => {
      // The partial index "Game_compaction_idx" holds exactly these games.
      const rows = await tx.$queryRawUnsafe<{ id: string; createdAt: Date; version: number }[]>(
        `SELECT id, "createdAt", version FROM "Game"
          WHERE "moveLog" IS NULL AND status IN ('won', 'resigned')
            AND "endedAt" < (to_timestamp($1::float8 / 1000.0) AT TIME ZONE 'UTC')
            AND NOT (id = ANY($3::text[]))
          ORDER BY "endedAt" LIMIT $2 FOR UPDATE SKIP LOCKED`,
        cutoff.getTime(),
        size,
        [...skip],
      );
      if (rows.length < size)
        rows.push(
          ...(await tx.$queryRawUnsafe<{ id: string; createdAt: Date; version: number }[]>(
            // "Game_ranked_compaction_idx" holds the ranked attempts not compacted, by daily.
            `SELECT id, "createdAt", version FROM "Game"
              WHERE "moveLog" IS NULL AND ranked AND status IN ('playing', 'blocked')
                AND "dailyId" IN (SELECT id FROM "DailyDeal" WHERE date <= $1)
                AND NOT (id = ANY($3::text[]))
              LIMIT $2 FOR UPDATE SKIP LOCKED`,
            closedBy(cutoff),
            size - rows.length,
            [...skip],
          )),
        );
      if (rows.length === 0) return null;
      const logs = await readLogs(
        tx,
        rows.map((r) => ({ ...r, moveLog: null })),
      );
      let logged = 0;
      const compacted: typeof rows = [];
      for (const r of rows) {
        const log = logs.get(r.id) ?? [];
        let bytes: Uint8Array<ArrayBuffer>;
        try {
          bytes = encodeLog(r.createdAt.getTime(), log);
        } catch (err) {
          if (!(err instanceof UnencodableEntry || err instanceof RangeError)) throw err;
          skip.add(r.id);
          options.skipped?.(r.id, err);
          continue;
        }
        await tx.game.updateMany({ where: { id: r.id }, data: { moveLog: bytes } });
        compacted.push(r);
        logged += log.length;
      }
      if (compacted.length > 0) {
        const days = [...new Set(compacted.map((r) => gameDay(r.createdAt).getTime()))].map(
          (d) => new Date(d),
        );
        await tx.move.deleteMany({
          where: { gameId: { in: compacted.map((r) => r.id) }, gameDay: { in: days } },
        });
      }
      return { games: compacted.length, entries: logged, full: rows.length === size };
    });
    if (done === null) break;
    batches++;
    games += done.games;
    entries += done.entries;
    if (!done.full) break;
  }
  return { games, entries, batches };
}
