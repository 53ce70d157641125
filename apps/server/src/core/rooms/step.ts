/**
 * One action's step of a game (game-room.ts `act`), computed before its commit and applied only
 * after it: the next state and status, the clock, the view the subscribers get, the move log's entry and
 * the row the game's kind stores when the action ends it. Pure: it reads the room and changes nothing.
 */
import { type GameAction, type GameState, gameStatus, playerView, statusAfterMove } from '@klondike/rules';
import type { MoveCommit } from '../../infra/db/move-log.js';
import type { GamePolicy, ResultRow, WireView } from './policies.js';
import { type Room, elapsedMs, wireView } from './room.js';

/** What an action makes of the room's game. */
export interface Step {
  /** The state after the action. */
  readonly state: GameState;
  /** Its view at the action's time. */
  readonly view: WireView;
  /** The move log's entry: the new version, status, score, moves and clock. */
  readonly commit: MoveCommit;
  /** The row of the game's kind (a ranked attempt's leaderboard row) when the action ends it, else null. */
  readonly result: ResultRow | null;
}

/**
 * The step of `action`, which the rules turned `room.state` into `state`, at server time `now` (ms);
 * `policy` is the policy of the game's kind (its result row).
 */
export function stepOf(
  room: Room,
  action: GameAction,
  state: GameState,
  now: number,
  policy: GamePolicy,
): Step {
  const startedAt = room.startedAt ?? now;
  // R13's search runs at most once per new position, and not at all after a move that cannot change
  // its answer (a draw or redeal while redeals are unlimited, a tableau shuffle: statusAfterMove).
  // `room.status` is always gameStatus(room.state).
  const status =
    action.type === 'move' ? statusAfterMove(room.state, room.status, action.move, state) : gameStatus(state);
  // The clock stops at `endedAt`: now for a game that ends with this action.
  const endedAt = status === 'playing' ? null : (room.endedAt ?? now);
  const view = wireView(playerView(state, elapsedMs(startedAt, endedAt, now), status));
  const version = room.version + 1;
  const result: ResultRow | null =
    endedAt !== null && status !== 'playing'
      ? (policy.resultRow?.(room, {
          status,
          score: view.score,
          timeMs: elapsedMs(startedAt, endedAt, now),
          moves: view.moves,
          endedAt,
        }) ?? null)
      : null;
  const commit: MoveCommit = {
    gameId: room.id,
    version,
    status,
    score: view.score,
    moves: view.moves,
    startedAt,
    endedAt,
    at: now,
    kind: action.type,
    move: action.type === 'move' ? action.move : null,
  };
  return { state, view, commit, result };
}
