/**
 * REST call of imported games (docs/api.md "Imported games"): POST /api/games/import uploads a game played
 * offline (the /offline page) as the signed-in player's imported, unverified game, through the typed client.
 * The answer is checked with the protocol's schema (packages/protocol/src/imports.ts); a refusal rejects with
 * ApiError (errors.ts): `illegal-move` (422: the rules refused an action), `unauthorized` (401: no player),
 * `bad-request` (400), `body-too-large` (413), `rate-limited` (429).
 */
import type { ImportGameBody, ImportGameResponse } from '@klondike/protocol';
import { callRoute } from './api';

/** POST /api/games/import: stores the offline game once (the same `clientId` again answers the same game). */
export function importOfflineGame(body: ImportGameBody): Promise<ImportGameResponse> {
  return callRoute(
    (api) => api.POST('/api/games/import', { body }),
    (p) => p.ImportGameResponseSchema,
  );
}
