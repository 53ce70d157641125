/**
 * What an arena says through the live region for a player who cannot see it (ArenaPage): being paired, the
 * player's own standing when it changes, and the time left as it crosses 10, 5 and 1 minutes. Pure: compares
 * the arena before and after a change. Texts are the `a11y` message section (docs/accessibility.md).
 */
import type { Arena } from '@klondike/protocol';
import { tr } from '../i18n';
import { formatTime } from './format';
import { ordinal } from './race';

/** The minutes left at which the time is said. */
const MARKS_MS = [10, 5, 1].map((m) => m * 60_000);

/**
 * The sentences to say for the arena going from `before` (null: first seen) to `after`, for player `me`, with
 * `leftBefore`/`leftAfter` the ms left to the end.
 */
export function arenaNews(
  before: Arena | null,
  after: Arena,
  me: string | null,
  leftBefore: number,
  leftAfter: number,
): string[] {
  const out: string[] = [];
  if (after.me?.pairedRace && after.me.pairedRace !== before?.me?.pairedRace)
    out.push(tr('a11y.arena.paired'));
  const mine = after.standings.find((s) => s.playerId === me);
  const was = before?.standings.find((s) => s.playerId === me);
  if (mine && (!was || was.rank !== mine.rank || was.points !== mine.points))
    out.push(
      tr('a11y.arena.standing', { rank: ordinal(mine.rank), n: after.standings.length, points: mine.points }),
    );
  if (after.status === 'running' && MARKS_MS.some((m) => leftBefore > m && leftAfter <= m))
    out.push(tr('a11y.arena.timeLeft', { time: formatTime(leftAfter) }));
  return out;
}
