/**
 * Reading games' logs: the ONE function every reader of moves goes through (the game store's load and
 * replay, the open-data export, the fair-play signals).
 *
 * A game's log is in one of two forms, or both: entries compacted into its row ("Game"."moveLog", the
 * format of log-codec.ts, docs/move-log.md: entries 1 … n) and "Move" rows (the entries after those, and
 * every entry of a game not compacted). `readLogs` joins the two, so a reader cannot tell them apart.
 *
 * "Move" is partitioned by its game's creation day (`gameDay`, migration 20261202100000): the read names the
 * days of the games asked for, so Postgres reads only their partitions.
 */
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { StoredEntry } from './game-rows.js';
import { decodeLog } from './log-codec.js';

/** What the log of one game is read from: its row's id, creation time and version. */
export interface LogSource {
  readonly id: string;
  /** The game's creation time: its log's partition (the UTC day of it). */
  readonly createdAt: Date;
  /** The game's version as read: its log is read up to this entry (later ones may be committing). */
  readonly version: number;
  /** The compacted log, if any ("Game"."moveLog"). */
  readonly moveLog: Uint8Array | null;
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
  const out = new Map<string, StoredEntry[]>();
  const compactedUpTo = new Map<string, number>();
  for (const g of games) {
    const compacted = g.moveLog === null ? [] : decodeLog(g.createdAt.getTime(), g.moveLog);
    compactedUpTo.set(g.id, compacted.length);
    out.set(
      g.id,
      compacted.filter((e) => e.seq <= g.version && (filter === 'all' || e.kind === 'move')),
    );
  }
  // A game whose compacted log reaches its version has no row to read.
  const open = games.filter((g) => (compactedUpTo.get(g.id) ?? 0) < g.version);
  if (open.length === 0) return out;
  const days = [...new Set(open.map((g) => gameDay(g.createdAt).getTime()))].map((d) => new Date(d));
  const rows = await prisma.move.findMany({
    where: {
      gameId: open.length === 1 ? (open[0] as LogSource).id : { in: open.map((g) => g.id) },
      gameDay: days.length === 1 ? days[0] : { in: days },
      ...(filter === 'moves' ? { kind: 'move' } : {}),
    },
    orderBy: [{ gameId: 'asc' }, { seq: 'asc' }],
    select: { gameId: true, seq: true, kind: true, move: true, createdAt: true },
  });
  const version = new Map(games.map((g) => [g.id, g.version]));
  for (const r of rows) {
    // Up to the version read: another node may append more meanwhile (its row and its entry commit
    // together, so every entry up to that version is visible). After the compacted ones.
    if (r.seq > (version.get(r.gameId) ?? 0) || r.seq <= (compactedUpTo.get(r.gameId) ?? 0)) continue;
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
