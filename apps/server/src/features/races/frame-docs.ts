/**
 * The socket frames of this folder's channel, as the AsyncAPI document (`/docs/asyncapi.json`) describes them:
 * each frame's summary and, for a client frame, its operation and the frames that answer it.
 */
import type { FrameDocs } from '../../core/feature-module.js';

/** The AsyncAPI documentation of the races' frames: a race room's live channel (edge/api-docs/asyncapi.ts reads it from the module). */
export const RACE_FRAMES: FrameDocs = {
  client: {
    'race-subscribe': {
      operationId: 'subscribeRace',
      scope: 'read',
      summary: "Join a race room's live channel",
      description:
        'As its racer when the connection has sent `auth` as one, else as a spectator. Answered with a `race` ' +
        'frame; then `race` frames on every room change and `race-progress` frames after every racer’s move. ' +
        'A connection gets `RACE_RATE_MAX` unknown codes, then `rate-limited`.',
      replies: ['race'],
    },
    'race-unsubscribe': {
      operationId: 'unsubscribeRace',
      scope: 'read',
      summary: "Leave a race room's live channel",
      replies: [],
    },
  },
  server: {
    race: {
      summary: 'The whole race room as the receiver sees it',
      push: { operationId: 'sendRace', summary: 'A race room changed (join, ready, countdown, start, end)' },
    },
    'race-progress': {
      summary: "One racer's progress (counts only, never a card)",
      push: { operationId: 'sendRaceProgress', summary: 'A racer moved' },
    },
  },
};
