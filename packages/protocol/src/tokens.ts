/**
 * Personal access tokens and their scopes (issue 59; docs/api.md "Tokens and scopes"). A player's sign-in
 * token (POST /api/players, a transfer link, a rotation) keeps full rights; a personal access token made with
 * `POST /api/tokens` carries only the scopes it was given, and every REST operation and every client frame
 * declares the one scope it needs (403 `missing-scope` without it).
 */
import { z } from 'zod';
import { SCOPES, type Scope } from './constants.js';
import { NextCursorSchema, pageQuery } from './pagination.js';
import type { GameKind } from './game.js';

export { SCOPES } from './constants.js';

/** One grantable scope. */
export const ScopeSchema = z.enum(SCOPES);
export type { Scope } from './constants.js';

/**
 * The scope of the account itself: tokens (make, list, revoke), rotation, sign-out everywhere, sign-in links,
 * moderation and the operator's routes. Only a sign-in token holds it; no personal token can be given it.
 */
export const ACCOUNT_SCOPE = 'account';

/** What an operation or a frame may declare: a grantable scope or the account's own. */
export type RequiredScope = Scope | typeof ACCOUNT_SCOPE;

/** Every scope an operation may declare, grantable first. */
export const REQUIRED_SCOPES: readonly RequiredScope[] = [...SCOPES, ACCOUNT_SCOPE];

/** A personal access token's id: 16 URL-safe characters. */
export const AccessTokenIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/** POST /api/tokens: a name (1–40 characters), at least one scope, and an optional expiry in the future. */
export const CreateAccessTokenBodySchema = z
  .object({
    name: z.string().trim().min(1).max(40),
    scopes: z.array(ScopeSchema).min(1).max(SCOPES.length),
    /** When the token stops working (ISO 8601, in the future, at most a year ahead); none: until revoked. */
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .meta({ id: 'CreateAccessTokenBody' });
export type CreateAccessTokenBody = z.infer<typeof CreateAccessTokenBodySchema>;

/** A personal access token as listed: never the token itself. Dates are ISO 8601. */
export const AccessTokenSchema = z
  .object({
    id: AccessTokenIdSchema,
    name: z.string(),
    scopes: z.array(ScopeSchema),
    createdAt: z.string(),
    /** null: until revoked. */
    expiresAt: z.string().nullable(),
    /** The last request made with it, to the minute; null: never used. */
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'AccessToken' });
export type AccessToken = z.infer<typeof AccessTokenSchema>;

/** The answer to POST /api/tokens: the token's row and the token itself, shown this once. */
export const CreatedAccessTokenSchema = AccessTokenSchema.extend({ token: z.string() }).meta({
  id: 'CreatedAccessToken',
});
export type CreatedAccessToken = z.infer<typeof CreatedAccessTokenSchema>;

/** GET /api/tokens: the caller's personal access tokens, newest first. */
export const AccessTokenListSchema = z
  .object({ tokens: z.array(AccessTokenSchema), nextCursor: NextCursorSchema })
  .meta({ id: 'AccessTokenList' });
export type AccessTokenList = z.infer<typeof AccessTokenListSchema>;

/**
 * The scope an action (move, undo, resign) in a game of each kind needs besides `game:play`: a ranked daily
 * attempt `daily:play`, a race (or arena) game `race:play`. A new kind of game declares its scope here.
 */
export const GAME_KIND_SCOPES = {
  casual: 'game:play',
  'daily-practice': 'game:play',
  'daily-ranked': 'daily:play',
  race: 'race:play',
} as const satisfies Record<GameKind, Scope>;

/** GET /api/tokens query: a page, newest first. */
export const AccessTokenListQuerySchema = z.object(pageQuery(50, 50));

/** DELETE /api/tokens/:id: the token revoked. */
export const RevokedAccessTokenSchema = z
  .object({ id: AccessTokenIdSchema, revoked: z.literal(true) })
  .meta({ id: 'RevokedAccessToken' });
