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
import type { FairnessRepository } from './repository.js';

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
export async function recordSignals(repo: FairnessRepository, dailyId: number): Promise<number> {
  const rows = await repo.unsignalled(dailyId);
  for (const row of rows) {
    const line = MoveSchema.array().parse(row.line);
    await repo.storeSignals(dailyId, row.playerId, signalsOf(row.log, line, row.createdAt.getTime()));
  }
  return rows.length;
}

/**
 * The signals of one attempt from its game's log (`log`, every entry), the daily's solver line and the
 * game's creation (`createdAt`, ms): ms to the first move (null without one) and the line share.
 */
export function signalsOf(
  log: readonly { kind: string; move?: unknown; at: number }[],
  line: readonly Move[],
  createdAt: number,
): { firstMoveMs: number | null; lineShare: number } {
  const moves = log.filter((e) => e.kind === 'move').map((e) => MoveSchema.parse(e.move));
  const first = log.find((e) => e.kind === 'move');
  return {
    firstMoveMs: first === undefined ? null : Math.max(0, first.at - createdAt),
    lineShare: lineShare(moves, line),
  };
}
