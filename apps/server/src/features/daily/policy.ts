/**
 * The policies of daily games (docs/features.md "Ranked rules"), given to the game log (rooms/policies.ts):
 * - both kinds: while the day is open a daily game is readable by its player only (its face-up cards would
 *   tell others the deal), and its deal is revealed once the day has closed, whatever the game's status;
 * - `daily-ranked` also: the attempt ends at won, resigned or blocked, and the commit of that action
 *   inserts its leaderboard row; once ended, or once its day has closed (its clock stops at midnight), it
 *   takes no more actions.
 */
import { ApiError } from '../../infra/errors.js';
import type { DailyRef, GameFacts, GamePolicy } from '../../core/rooms/policies.js';

function dailyOf(game: GameFacts): DailyRef {
  if (game.daily === null) throw new Error(`game ${game.id}: a ${game.kind} game without its daily`);
  return game.daily;
}

/** Read rule of both daily kinds: an owned game of an open day is its player's alone. */
const dailyRead: Pick<GamePolicy, 'checkRead' | 'reveal' | 'checkReplay'> = {
  checkRead(game, actor, what, now) {
    if (what !== 'read' || game.owner === null || now >= dailyOf(game).closesAt) return;
    if (actor === null)
      throw new ApiError('unauthorized', "this is a player's daily game: send that player's token");
    if (actor !== game.owner)
      throw new ApiError('forbidden', "another player's daily game cannot be seen while its day is open");
  },
  reveal(game, now) {
    if (now < dailyOf(game).closesAt)
      throw new ApiError('forbidden', 'the deal of a daily is revealed only once its day has closed');
  },
  checkReplay(game, now) {
    if (game.daily === null || now < game.daily.closesAt)
      throw new ApiError('forbidden', 'the replay of a daily game is public once its day has closed');
  },
};

/** `daily-practice`: a daily's deal played unranked (undo and hints as the preset has them). */
export const dailyPracticePolicy: GamePolicy = { ...dailyRead };

/**
 * `daily-ranked`: one attempt per player and daily. `onResult` hears of every leaderboard row a commit
 * inserted (the live leaderboards).
 */
export function dailyRankedPolicy(onResult: (daily: DailyRef) => void): GamePolicy {
  return {
    ...dailyRead,
    checkWrite(game, now, version) {
      if (game.finished) throw new ApiError('conflict', 'this ranked attempt has ended', { version });
      if (now >= dailyOf(game).closesAt)
        throw new ApiError('conflict', 'the day has closed: this ranked attempt takes no more moves', {
          version,
        });
    },
    over(game, now) {
      return game.finished || game.endedAt !== null || now >= dailyOf(game).closesAt;
    },
    clockEnd(game, now) {
      const { closesAt } = dailyOf(game);
      return now >= closesAt ? closesAt : null;
    },
    resultRow(_game, ending) {
      return {
        status: ending.status,
        score: ending.score,
        timeMs: ending.timeMs,
        moves: ending.moves,
        finishedAt: ending.endedAt,
      };
    },
    afterResult(game) {
      onResult(dailyOf(game));
    },
  };
}
