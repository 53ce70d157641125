/**
 * The policy of race games (rooms/policies.ts): while its race is on, a racer's game is readable by that
 * racer only and its deal by nobody; every committed action of it becomes the racer's progress (and may end
 * the race). Once the race has finished the game reads like any other.
 */
import { ApiError } from '../../infra/errors.js';
import type { GamePolicy } from '../../core/rooms/policies.js';
import type { RaceService } from './service.js';

/** The `race` policy of `races`; `ended` is told when an action ends a racer's game. */
export function racePolicy(races: RaceService, ended: () => void = () => {}): GamePolicy {
  return {
    checkRead(game, actor, what) {
      return races.guard(game.id, game.raceCode, actor, what);
    },
    checkReplay(game) {
      if (game.raceFinished !== true)
        throw new ApiError('forbidden', 'the replay of a race game is public once the race has finished');
    },
    // Told after the action's write has left its game's queue: the race may end, and resign other games.
    afterCommit(action) {
      races.onAction(action);
      if (action.view.status !== 'playing') ended();
    },
  };
}
