/**
 * The socket frames of this folder's channel, as the AsyncAPI document (`/docs/asyncapi.json`) describes them:
 * each frame's summary and, for a client frame, its operation and the frames that answer it.
 */
import type { FrameDocs } from '../../core/feature-module.js';

/** The AsyncAPI documentation of the daily's frames: a leaderboard watched while its day is open (edge/api-docs/asyncapi.ts reads it from the module). */
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
  },
  server: {
    leaderboard: {
      summary: "A watched daily leaderboard's row count",
      push: { operationId: 'sendLeaderboard', summary: 'A watched daily leaderboard changed: refetch it' },
    },
  },
};
