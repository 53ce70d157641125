/**
 * Open data of the dailies (docs/data.md): for every closed day, one file of its ranked attempts (people's and
 * bots'), gzip-compressed NDJSON, one game a line (`ExportGameSchema` of packages/protocol), licensed CC0.
 *
 * A file is made once, after its day has settled (every ranked attempt has its leaderboard row), and stored
 * in table DailyExport: every node serves the same bytes with the same SHA-256. Lines come in a fixed order
 * (preset, then board — people before bots —, then rank), so two nodes making the same day's file at once
 * make the same file; the first stored wins.
 *
 * Only closed days are exported: nothing here is hidden information any more (deals, lines and replays of a
 * closed day are public). No token, no fair-play signal, nothing of an open game.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { type ExportGame, MoveSchema } from '@klondike/protocol';
import { gameOptionsOf } from '../../infra/db/game-options.js';
import { startOfDate } from '../../infra/dates.js';
import type { ExportRepository } from './export-repository.js';

/** Games read from the database at once while writing a file. */
export const EXPORT_BATCH = 500;

/** The licence of every export file (SPDX id). */
export const EXPORT_LICENSE = 'CC0-1.0';

/** A finished export file. */
export interface DayExport {
  readonly date: string;
  /** The gzip stream's bytes. */
  readonly data: Buffer;
  /** SHA-256 (hex) of `data`. */
  readonly sha256: string;
  /** Lines (games). */
  readonly games: number;
}

/** The export lines of one batch of games, in the order of `batch`. */
async function lines(
  repo: ExportRepository,
  date: string,
  batch: readonly { gameId: string; rank: number }[],
): Promise<string[]> {
  const { rows: byGame, logs: log } = await repo.linesOf(batch.map((b) => b.gameId));
  const dayStart = startOfDate(date);
  return batch.map(({ gameId, rank }) => {
    const r = byGame.get(gameId);
    if (!r) throw new Error(`export ${date}: result of ${gameId} vanished`);
    // A ranked attempt's clock starts at its creation (rooms/game-rooms.ts): atMs and timeMs count from it.
    const created = (r.game.startedAt ?? r.game.createdAt).getTime();
    const line: ExportGame = {
      gameId,
      playerId: r.playerId,
      name: r.player.name,
      bot: r.player.bot,
      provisional: r.player.createdAt.getTime() >= dayStart,
      date,
      preset: r.daily.preset as ExportGame['preset'],
      options: gameOptionsOf({ ...r.game, dailyPreset: r.daily.preset }, `game ${gameId}`),
      deal: r.game.deal,
      createdAt: new Date(created).toISOString(),
      moves: (log.get(gameId) ?? []).map((e) => ({
        move: MoveSchema.parse(e.move),
        atMs: Math.max(0, e.at - created),
      })),
      result: {
        status: r.status,
        score: r.score,
        timeMs: r.timeMs,
        moves: r.moves,
        rank,
        finishedAt: r.finishedAt.toISOString(),
      },
    };
    return `${JSON.stringify(line)}\n`;
  });
}

/**
 * Writes the export file of a closed, settled day (module comment), reading EXPORT_BATCH games at a time and
 * compressing as it goes. Does not store it. Errors: database errors.
 */
export async function buildDayExport(repo: ExportRepository, date: string): Promise<DayExport> {
  const order = await repo.rankedGames(date);
  async function* text(): AsyncGenerator<string> {
    for (let i = 0; i < order.length; i += EXPORT_BATCH)
      yield (await lines(repo, date, order.slice(i, i + EXPORT_BATCH))).join('');
  }
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('data', (c: Buffer) => {
      chunks.push(c);
      hash.update(c);
    });
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  Readable.from(text())
    .on('error', (e) => gzip.destroy(e))
    .pipe(gzip);
  await done;
  return { date, data: Buffer.concat(chunks), sha256: hash.digest('hex'), games: order.length };
}

/**
 * Makes and stores the export of each closed day (`date < today`) that has a stored daily and no export yet;
 * the first node to store a day's file wins. Call only once those days have settled. Returns the dates made.
 */
export async function storeMissingExports(repo: ExportRepository, today: string): Promise<string[]> {
  const { days, exported } = await repo.exportable(today);
  const made: string[] = [];
  for (const date of days) {
    if (exported.has(date)) continue;
    await repo.store(await buildDayExport(repo, date));
    made.push(date);
  }
  return made;
}
