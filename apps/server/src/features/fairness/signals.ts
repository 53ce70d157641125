/**
 * Fair-play signals of ranked daily results (docs/features.md "Fair play"), stored on each `DailyResult` row:
 * - `firstMoveMs`: ms from the attempt's creation (when the player first saw the cards) to its first move;
 * - `lineShare`: the share 0…1 of the attempt's moves equal to the move at the same position of the
 *   server's own solver line for the daily (a player copying a solver's line scores near 1; people rarely
 *   follow one line for long).
 * They are computed just after a row is written (`recordSignals`, idempotent) and shown only to the
 * result's own player once the day has closed — before that they would tell the solver's line.
 */
import { MoveSchema } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { readLogs } from '../../infra/db/game-log.js';
import type { PrismaClient } from '../../generated/prisma/client.js';

/** A move as a comparable text. */
function moveKey(m: Move): string {
  return m.type === 'move' ? `${m.from}>${m.to}x${m.count}` : m.type;
}

/** Share 0…1 of `moves` equal to `line` at the same position (0 for no move). */
export function lineShare(moves: readonly Move[], line: readonly Move[]): number {
  if (moves.length === 0) return 0;
  let same = 0;
  moves.forEach((m, i) => {
    const l = line[i];
    if (l !== undefined && moveKey(l) === moveKey(m)) same++;
  });
  return same / moves.length;
}

/**
 * Computes and stores the signals of every result of daily `dailyId` that has none yet. Returns how many
 * rows it updated.
 */
export async function recordSignals(prisma: PrismaClient, dailyId: number): Promise<number> {
  const rows = await prisma.dailyResult.findMany({
    where: { dailyId, lineShare: null },
    select: {
      playerId: true,
      daily: { select: { line: true } },
      gameId: true,
      game: { select: { id: true, createdAt: true, version: true, moveLog: true } },
    },
  });
  if (rows.length === 0) return 0;
  // Every game's log in one read (readLogs).
  const logs = await readLogs(
    prisma,
    rows.map((r) => r.game),
  );
  for (const row of rows) {
    const line = MoveSchema.array().parse(row.daily.line);
    const log = logs.get(row.gameId) ?? [];
    const moves = log.filter((e) => e.kind === 'move').map((e) => MoveSchema.parse(e.move));
    const first = log.find((e) => e.kind === 'move');
    await prisma.dailyResult.update({
      where: { dailyId_playerId: { dailyId, playerId: row.playerId } },
      data: {
        firstMoveMs: first === undefined ? null : Math.max(0, first.at - row.game.createdAt.getTime()),
        lineShare: lineShare(moves, line),
      },
    });
  }
  return rows.length;
}
