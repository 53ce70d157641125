/**
 * Compaction of finished games' move logs: a game won or resigned (R12, R13: it takes no more action) longer
 * ago than MOVE_ARCHIVE_AFTER_MS, or a ranked daily attempt whose day closed longer ago than that (the daily
 * policy refuses any action after the close, on every node, whatever the game's status), gets its entries encoded into its row ("Game"."moveLog", db/log-codec.ts,
 * docs/move-log.md) and its "Move" rows deleted, in one transaction per batch: a batch is compacted whole or
 * not at all, whatever kills the server in its middle. Readers see the same log either way
 * (db/game-log.ts). The maintenance tick runs it (maintenance/plugin.ts) on every node: a batch locks its
 * games (`FOR UPDATE SKIP LOCKED`), so two nodes never take the same game, and re-checks under the lock that
 * each is still uncompacted, so a second run finds nothing to do.
 *
 * Any other game still playing (or blocked: undo may take it back) is never touched.
 */
import type { StoredEntry } from '../../core/rooms/store.js';
import { UnencodableEntry, encodeLog } from '../../infra/db/log-codec.js';
import { DAY_MS, utcDate } from '../../infra/dates.js';
import type { MaintenanceRepository } from './repository.js';

/** Games compacted per batch (one transaction). */
export const COMPACTION_BATCH = 200;

/** Batches one call runs at most (the rest waits for the next tick). */
export const COMPACTION_MAX_BATCHES = 10;

/** The last UTC date whose day closed (at its next midnight) no later than `cutoff`. */
export function closedBy(cutoff: Date): string {
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
  repo: MaintenanceRepository,
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
    const done = await repo.compactBatch(cutoff, closedBy(cutoff), size, skip, (game, log) => {
      const bytes = encodeOrSkip(game.createdAt, log);
      if (bytes instanceof Error) {
        skip.add(game.id);
        options.skipped?.(game.id, bytes);
        return null;
      }
      return bytes;
    });
    if (done === null) break;
    batches++;
    games += done.games;
    entries += done.entries;
    if (!done.full) break;
  }
  return { games, entries, batches };
}

/**
 * A game's log encoded into its row's format (db/log-codec.ts), or the error when an entry cannot be
 * encoded (the game is then left as it is). Errors: anything else `encodeLog` throws.
 */
export function encodeOrSkip(createdAt: Date, log: readonly StoredEntry[]): Uint8Array<ArrayBuffer> | Error {
  try {
    return encodeLog(createdAt.getTime(), log);
  } catch (err) {
    if (err instanceof UnencodableEntry || err instanceof RangeError) return err;
    throw err;
  }
}
