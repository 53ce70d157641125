/**
 * The socket frames of this folder's channel, as the AsyncAPI document (`/docs/asyncapi.json`) describes them:
 * each frame's summary and, for a client frame, its operation and the frames that answer it.
 */
import type { FrameDocs } from '../../core/feature-module.js';

/** The AsyncAPI documentation of quick pairing's frame: the race made for a waiting player (edge/api-docs/asyncapi.ts reads it from the module). */
export const PAIRING_FRAMES: FrameDocs = {
  server: {
    paired: {
      summary: 'The caller was paired: the race made for them',
      description:
        'Sent to every socket that sent `auth` as a player who waited in a pairing pool (POST /api/pairing); ' +
        '`code` is the race room (its countdown has begun).',
      push: { operationId: 'sendPaired', summary: 'A quick pairing was made' },
    },
  },
};
