/**
 * REST calls of personal access tokens (docs/api.md "Tokens and scopes"): list, make (the token shown once)
 * and revoke, through the typed client. Every answer is checked with the protocol's schemas
 * (packages/protocol/src/tokens.ts); a refusal rejects with ApiError (errors.ts): `bad-request` (400: a bad
 * name, scope or expiry), `conflict` (409: too many tokens), `missing-scope` (403: asked with a personal
 * token), `not-found` (404: already revoked).
 */
import type { CreateAccessTokenBody } from '@klondike/protocol';
import type { z } from 'zod';
import { callRoute } from './api';
import type { Protocol } from './schemas';

/** A personal access token as listed (never the token itself). */
export type AccessToken = z.infer<Protocol['AccessTokenSchema']>;
/** A token just made: its row and the token, shown once. */
export type CreatedAccessToken = z.infer<Protocol['CreatedAccessTokenSchema']>;

/** GET /api/tokens: the signed-in player's tokens, newest first (at most 50: one page). */
export async function listAccessTokens(): Promise<AccessToken[]> {
  const page = await callRoute(
    (api) => api.GET('/api/tokens', { params: { query: { limit: 50 } } }),
    (p) => p.AccessTokenListSchema,
  );
  return page.tokens;
}

/** POST /api/tokens: a new token with `body.scopes`; its `token` is shown this once. */
export function createAccessToken(body: CreateAccessTokenBody): Promise<CreatedAccessToken> {
  return callRoute(
    (api) => api.POST('/api/tokens', { body }),
    (p) => p.CreatedAccessTokenSchema,
  );
}

/** DELETE /api/tokens/:id: revokes token `id` at once, on every server. */
export async function revokeAccessToken(id: string): Promise<void> {
  await callRoute(
    (api) => api.DELETE('/api/tokens/{id}', { params: { path: { id } } }),
    (p) => p.RevokedAccessTokenSchema,
  );
}
