/**
 * The think-time profile of one finished game (docs/fair-play.md "Signals"), from its log's server
 * timestamps. Pure.
 *
 * A gap is the time in ms between two consecutive logged moves of the game (undo and resign entries are not
 * moves; a gap spans them). The first move has no gap: the time before it is spent reading a new deal, a
 * different activity (the daily's own `firstMoveMs` tells it). Moves made once the position could be
 * auto-completed (every card face up, stock and waste empty: rules R15) are left out: the web client
 * sends auto-completion moves one after another at machine speed, for every player.
 */

/** Gaps under this many ms count as fast (`fastShare`). */
export const FAST_GAP_MS = 150;

/** One logged move as the think-time profile needs it. */
export interface TimedMove {
  /** Server time of the move, ms since the epoch. */
  readonly at: number;
  /** The move was made from an auto-completable position (left out). */
  readonly auto?: boolean;
}

/** The think-time profile of a game. */
export interface ThinkTime {
  /** Moves counted (auto-completion moves not counted). */
  readonly moves: number;
  /** Median gap in whole ms (the mean of the two middle gaps for an even count, rounded); null below two moves. */
  readonly medianGapMs: number | null;
  /** Share 0…1 of the gaps under FAST_GAP_MS (0 without a gap). */
  readonly fastShare: number;
  /** Coefficient of variation of the gaps (standard deviation / mean; 0 when the mean is 0); null below three moves. */
  readonly gapVariation: number | null;
}

/** The median of `sorted` (ascending, at least one value). */
function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The gaps (ms, never negative) between consecutive counted moves of `moves` (in log order). */
export function gapsOf(moves: readonly TimedMove[]): number[] {
  const counted = moves.filter((m) => m.auto !== true);
  const gaps: number[] = [];
  for (let i = 1; i < counted.length; i++)
    gaps.push(Math.max(0, (counted[i] as TimedMove).at - (counted[i - 1] as TimedMove).at));
  return gaps;
}

/** The think-time profile of a game's moves (in log order). */
export function thinkTime(moves: readonly TimedMove[]): ThinkTime {
  const gaps = gapsOf(moves);
  const counted = gaps.length + (moves.some((m) => m.auto !== true) ? 1 : 0);
  if (gaps.length === 0) return { moves: counted, medianGapMs: null, fastShare: 0, gapVariation: null };
  const sorted = [...gaps].sort((a, b) => a - b);
  const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
  const variance = gaps.reduce((s, g) => s + (g - mean) ** 2, 0) / gaps.length;
  return {
    moves: counted,
    medianGapMs: Math.round(median(sorted)),
    fastShare: gaps.filter((g) => g < FAST_GAP_MS).length / gaps.length,
    gapVariation: gaps.length < 2 ? null : mean === 0 ? 0 : Math.sqrt(variance) / mean,
  };
}
