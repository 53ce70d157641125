/**
 * The socket frames of this folder's channel, as the AsyncAPI document (`/docs/asyncapi.json`) describes them:
 * each frame's summary and, for a client frame, its operation and the frames that answer it.
 */
import type { FrameDocs } from '../feature-module.js';

/** The AsyncAPI documentation of a game's frames: subscribing to its states and playing it (edge/api-docs/asyncapi.ts reads it from the module). */
export const GAME_FRAMES: FrameDocs = {
  client: {
    subscribe: {
      operationId: 'subscribeGame',
      scope: 'read',
      summary: "Subscribe to a game's states",
      description:
        'Answered with a `state` frame (cause `subscribe`) at the current version: also the resync after a ' +
        'reconnect or a gap. Then every change of the game reaches every subscriber as a `state` frame. At ' +
        'most `WS_MAX_SUBSCRIPTIONS` (16) games at once per connection (`rate-limited` beyond).',
      replies: ['state'],
    },
    unsubscribe: {
      operationId: 'unsubscribeGame',
      scope: 'read',
      summary: "Stop receiving a game's states",
      replies: [],
    },
    move: {
      operationId: 'playMove',
      scope: 'game:play',
      summary: 'Make a move at the version last seen',
      description:
        'Needs a subscription (`not-subscribed` otherwise). Ends in a `state` frame to every subscriber (the ' +
        "sender's copy carries its `requestId`), or in an `error` frame to the sender alone: `stale-version` " +
        'and `illegal-move` carry the current `version`, `illegal-move` also the refusing rule in `reason`.',
      replies: ['state'],
    },
    undo: {
      operationId: 'undoMove',
      scope: 'game:play',
      summary: 'Undo the last move (at the current version)',
      replies: ['state'],
    },
    resign: {
      operationId: 'resignGame',
      scope: 'game:play',
      summary: 'Resign the game (at the current version)',
      replies: ['state'],
    },
  },
  server: {
    state: {
      summary: 'A game as its player sees it, at a version',
      description:
        'The whole view, so a skipped frame is closed by the next, newer one; `cause` says what made it, ' +
        '`move` the move (cause `move`), `requestId` echoes the request it answers (the sender’s copy only).',
      push: { operationId: 'sendState', summary: "A subscribed game's new state (any subscriber's action)" },
    },
  },
};
