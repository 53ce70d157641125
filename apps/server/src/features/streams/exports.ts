/**
 * Exports of finished games as NDJSON lines (GET /api/players/:id/games/export, GET /api/stream/races/:code/games,
 * GET /api/stream/daily/:date/:preset/games): one `game` line per game whose replay the caller may read, then
 * an `end` line. Whether a game may be shown is decided by the one replay rule (`GameRooms.replay`: a race game
 * once its race has finished, a daily game once its day has closed, another once won or resigned); a game it
 * refuses is left out, never half shown.
 */
import { DailyPresetSchema, compactAction, type ExportStreamLine } from '@klondike/protocol';
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import { ApiError } from '../../infra/errors.js';
import type { NdjsonStream } from './ndjson.js';
import { type ExportRow, kindOfRow } from './repository.js';

/** Games read from the database per page. */
export const EXPORT_PAGE = 100;

/** Reads one page of rows after id `after` (null: from the start). */
export type ExportPager = (after: string | null, limit: number) => Promise<ExportRow[]>;

/** The `game` line of `row`, or null when its replay is not open (or it vanished meanwhile). */
export async function exportLine(
  rooms: Pick<GameRooms, 'replay'>,
  row: ExportRow,
): Promise<Extract<ExportStreamLine, { type: 'game' }> | null> {
  let replay;
  try {
    replay = await rooms.replay(row.id);
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'forbidden' || err.code === 'not-found')) return null;
    throw err;
  }
  return {
    type: 'game',
    id: row.id,
    kind: kindOfRow(row),
    status: row.status,
    score: row.score,
    moves: row.moves,
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    daily:
      row.daily === null ? null : { date: row.daily.date, preset: DailyPresetSchema.parse(row.daily.preset) },
    race: row.raceCode === null ? null : { code: row.raceCode },
    replay,
    notation: replay.steps.map((s) => compactAction(s.type, s.move)).join(' '),
  };
}

/**
 * Writes every game `pager` yields whose replay is open (and `keep` accepts) to `stream`, waiting for the
 * reader between lines, then the `end` line. Stops early when the reader goes away.
 */
export async function writeExport(
  stream: NdjsonStream,
  rooms: Pick<GameRooms, 'replay'>,
  pager: ExportPager,
): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const rows = await pager(after, EXPORT_PAGE);
    for (const row of rows) {
      if (stream.closed) return;
      const line = await exportLine(rooms, row);
      if (line === null) continue;
      if (!stream.line(JSON.stringify(line))) return;
      await stream.drained();
    }
    if (rows.length < EXPORT_PAGE) break;
    after = rows[rows.length - 1]?.id ?? null;
  }
  stream.end(JSON.stringify({ type: 'end', reason: 'done' } satisfies ExportStreamLine));
}
