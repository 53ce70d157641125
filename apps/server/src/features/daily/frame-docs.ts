/**
 * The socket frames of this folder's channel, as the AsyncAPI document (`/docs/asyncapi.json`) describes them:
 * each frame's summary and, for a client frame, its operation and the frames that answer it.
 */
import type { FrameDocs } from '../../core/feature-module.js';

/** The AsyncAPI documentation of the daily's frames: a leaderboard watched while its day is open, a ranked attempt opened (edge/api-docs/asyncapi.ts reads it from the module). */
export const DAILY_FRAMES: FrameDocs = {
  client: {
    'watch-leaderboard': {
      operationId: 'watchLeaderboard',
      scope: 'read',
      summary: "Watch a daily's leaderboard while its day is open",
      description:
        'Answered with a `leaderboard` frame (the current row count), then one whenever a row is added.',
      replies: ['leaderboard'],
    },
    'daily-attempt': {
      operationId: 'startDailyAttemptOverSocket',
      scope: 'daily:play',
      summary: "Start the caller's one ranked attempt at today's daily",
      description:
        'As `POST /api/daily/{date}/{preset}/attempt`, without an HTTP request: answered with `daily-opened` ' +
        '(the game), and the connection follows the game from then on (its `state` frames), as after a ' +
        '`subscribe`. Needs `auth` first (`unauthorized`); a second attempt or a closed day → `conflict`.',
      replies: ['daily-opened'],
    },
  },
  server: {
    leaderboard: {
      summary: "A watched daily leaderboard's row count",
      push: { operationId: 'sendLeaderboard', summary: 'A watched daily leaderboard changed: refetch it' },
    },
    'daily-opened': {
      summary: 'The ranked attempt opened by `daily-attempt`: the game, which the connection now follows',
    },
  },
};
