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
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { readLogs } from '../../infra/db/game-log.js';
import { gameOptionsOf } from '../../infra/db/game-options.js';
import { startOfDate } from '../../infra/dates.js';

/** Games read from the database at once while writing a file. */
export const EXPORT_BATCH = 500;

/** The licence of every export file (SPDX id). */
export const EXPORT_LICENSE = 'CC0-1.0';

/** Leaderboard order of a daily's rows (as daily/leaderboard.ts ranks them). */
const ORDER: Prisma.DailyResultOrderByWithRelationInput[] = [
  { won: 'desc' },
  { score: 'desc' },
  { timeMs: 'asc' },
  { moves: 'asc' },
  { finishedAt: 'asc' },
  { playerId: 'asc' },
];

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

/** The ranked attempts of `date` in file order (preset, board, rank): game id and rank on its board. */
async function rankedGames(prisma: PrismaClient, date: string): Promise<{ gameId: string; rank: number }[]> {
  const dailies = await prisma.dailyDeal.findMany({
    where: { date },
    orderBy: { preset: 'asc' },
    select: { id: true },
  });
  const out: { gameId: string; rank: number }[] = [];
  for (const d of dailies)
    for (const bot of [false, true]) {
      const rows = await prisma.dailyResult.findMany({
        where: { dailyId: d.id, player: { is: { bot } } },
        orderBy: ORDER,
        select: { gameId: true },
      });
      rows.forEach((r, i) => out.push({ gameId: r.gameId, rank: i + 1 }));
    }
  return out;
}

/** The export lines of one batch of games, in the order of `batch`. */
async function lines(
  prisma: PrismaClient,
  date: string,
  batch: readonly { gameId: string; rank: number }[],
): Promise<string[]> {
  const ids = batch.map((b) => b.gameId);
  const [results, log] = await Promise.all([
    prisma.dailyResult.findMany({
      where: { gameId: { in: ids } },
      include: {
        player: { select: { name: true, bot: true, createdAt: true } },
        game: {
          select: { preset: true, options: true, ranked: true, deal: true, createdAt: true, startedAt: true },
        },
        daily: { select: { preset: true } },
      },
    }),
    prisma.game
      .findMany({
        where: { id: { in: ids } },
        select: { id: true, createdAt: true, version: true, moveLog: true },
      })
      .then((games) => readLogs(prisma, games, 'moves')),
  ]);
  const byGame = new Map(results.map((r) => [r.gameId, r]));
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
export async function buildDayExport(prisma: PrismaClient, date: string): Promise<DayExport> {
  const order = await rankedGames(prisma, date);
  async function* text(): AsyncGenerator<string> {
    for (let i = 0; i < order.length; i += EXPORT_BATCH)
      yield (await lines(prisma, date, order.slice(i, i + EXPORT_BATCH))).join('');
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
export async function storeMissingExports(prisma: PrismaClient, today: string): Promise<string[]> {
  const [days, have] = await Promise.all([
    prisma.dailyDeal.findMany({
      where: { date: { lt: today } },
      distinct: ['date'],
      select: { date: true },
    }),
    prisma.dailyExport.findMany({ select: { date: true } }),
  ]);
  const stored = new Set(have.map((h) => h.date));
  const made: string[] = [];
  for (const { date } of days) {
    if (stored.has(date)) continue;
    const e = await buildDayExport(prisma, date);
    await prisma.dailyExport.createMany({
      data: [
        {
          date,
          data: Uint8Array.from(e.data),
          sha256: e.sha256,
          bytes: e.data.byteLength,
          games: e.games,
        },
      ],
      skipDuplicates: true,
    });
    made.push(date);
  }
  return made;
}
