/**
 * The socket frames of this folder's channel, as the AsyncAPI document (`/docs/asyncapi.json`) describes them:
 * each frame's summary and, for a client frame, its operation and the frames that answer it.
 */
import type { FrameDocs } from '../../core/feature-module.js';

/** The AsyncAPI documentation of the arenas' frames: an arena's live standings (edge/api-docs/asyncapi.ts reads it from the module). */
export const ARENA_FRAMES: FrameDocs = {
  client: {
    'arena-subscribe': {
      operationId: 'subscribeArena',
      scope: 'read',
      summary: "Follow an arena's standings live",
      description:
        'Answered with an `arena` frame, then one on every change of its standings or status. After `auth`, ' +
        '`me` is the connection’s player and their pairings also arrive as `paired` frames.',
      replies: ['arena'],
    },
    'arena-unsubscribe': {
      operationId: 'unsubscribeArena',
      scope: 'read',
      summary: 'Stop following an arena',
      replies: [],
    },
  },
  server: {
    arena: {
      summary: 'The whole arena as the receiver sees it',
      push: { operationId: 'sendArena', summary: "A followed arena's standings or status changed" },
    },
  },
};
