/**
 * Reading games' logs: the ONE function every reader of moves goes through (the game store's load and
 * replay, the open-data export, the fair-play signals).
 *
 * "Move" is partitioned by its game's creation day (`gameDay`, migration 20261202100000): the read names the
 * days of the games asked for, so Postgres reads only their partitions.
 */
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { StoredEntry } from '../rooms/store.js';

/** What the log of one game is read from: its row's id, creation time and version. */
export interface LogSource {
  readonly id: string;
  /** The game's creation time: its log's partition (the UTC day of it). */
  readonly createdAt: Date;
  /** The game's version as read: its log is read up to this entry (later ones may be committing). */
  readonly version: number;
}

/** Which entries to read: all of them, or only moves (kind = move; the export's filter). */
export type LogFilter = 'all' | 'moves';

/** A UTC day as the `gameDay` column holds it (a DATE: midnight UTC of that day). */
export function gameDay(createdAt: Date): Date {
  const ms = createdAt.getTime();
  return new Date(ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000));
}

/**
 * The logs of `games`, each in order (seq 1 … its version), as a map by game id (a game with no entry maps
 * to an empty list). One statement whatever the number of games. Errors: database errors.
 */
export async function readLogs(
  prisma: PrismaClient | Prisma.TransactionClient,
  games: readonly LogSource[],
  filter: LogFilter = 'all',
): Promise<Map<string, StoredEntry[]>> {
  const out = new Map<string, StoredEntry[]>(games.map((g) => [g.id, []]));
  if (games.length === 0) return out;
  const days = [...new Set(games.map((g) => gameDay(g.createdAt).getTime()))].map((d) => new Date(d));
  const rows = await prisma.move.findMany({
    where: {
      gameId: games.length === 1 ? (games[0] as LogSource).id : { in: games.map((g) => g.id) },
      gameDay: days.length === 1 ? days[0] : { in: days },
      ...(filter === 'moves' ? { kind: 'move' } : {}),
    },
    orderBy: [{ gameId: 'asc' }, { seq: 'asc' }],
    select: { gameId: true, seq: true, kind: true, move: true, createdAt: true },
  });
  const version = new Map(games.map((g) => [g.id, g.version]));
  for (const r of rows) {
    // Up to the version read: another node may append more meanwhile (its row and its entry commit
    // together, so every entry up to that version is visible).
    if (r.seq > (version.get(r.gameId) ?? 0)) continue;
    out.get(r.gameId)?.push({ seq: r.seq, kind: r.kind, move: r.move, at: r.createdAt.getTime() });
  }
  return out;
}

/** The log of one game (readLogs for one). */
export async function readLog(
  prisma: PrismaClient | Prisma.TransactionClient,
  game: LogSource,
  filter: LogFilter = 'all',
): Promise<StoredEntry[]> {
  return (await readLogs(prisma, [game], filter)).get(game.id) ?? [];
}
