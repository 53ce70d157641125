/**
 * Personal access tokens (issue 59; docs/api.md "Tokens and scopes"): a player makes named tokens for
 * scripts, bots and CI jobs, each with only the scopes it needs and an optional expiry. The token is shown
 * once; the database keeps its SHA-256 (`AccessToken.tokenHash`), as for sign-in tokens. Only the sign-in
 * token (scope `account`) makes, lists and revokes them (routes declare it; plugin `auth` enforces it).
 */
import { randomBytes } from 'node:crypto';
import {
  type AccessToken,
  type CreateAccessTokenBody,
  type CreatedAccessToken,
  type Scope,
  SCOPES,
  ScopeSchema,
} from '@klondike/protocol';
import { z } from 'zod';
import { ApiError } from '../../infra/errors.js';
import type { AccessTokenRepository, AccessTokenRow } from './access-token-repository.js';
import { type AccessGrant, type AuthedPlayer, hashToken, newToken } from './players.js';
import type { PlayerIdentity } from './repository.js';

/** Most personal access tokens one player holds at once (409 `conflict` beyond). */
export const MAX_ACCESS_TOKENS = 50;

/** The furthest expiry a token may be given: a year and a day after it is made, ms. */
export const MAX_ACCESS_TOKEN_LIFE_MS = 366 * 24 * 3_600_000;

/** The prefix of every personal access token: tells it from a sign-in token at a glance (and to scanners). */
export const ACCESS_TOKEN_PREFIX = 'kpat_';

/** How often one token's last use is written, at most, per node, ms. */
export const LAST_USE_INTERVAL_MS = 60_000;

const StoredScopes = z.array(z.unknown());

/** The scopes of a stored row, keeping only names protocol still knows (a scope dropped later grants nothing). */
export function storedScopes(json: unknown): Scope[] {
  const parsed = StoredScopes.safeParse(json);
  if (!parsed.success) return [];
  return parsed.data.flatMap((s) => {
    const scope = ScopeSchema.safeParse(s);
    return scope.success ? [scope.data] : [];
  });
}

function listed(row: AccessTokenRow): AccessToken {
  return {
    id: row.id,
    name: row.name,
    scopes: storedScopes(row.scopes),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Makes a personal access token of `playerId` (at server time `now`, ms). Returns its row and the token,
 * shown this once. Scopes are stored in protocol's SCOPES order, without repeats. Errors: `bad-request`
 * for an expiry not in the future or more than a year ahead; `conflict` when the player already holds
 * MAX_ACCESS_TOKENS.
 */
export async function createAccessToken(
  repo: AccessTokenRepository,
  playerId: string,
  body: CreateAccessTokenBody,
  now: number,
): Promise<CreatedAccessToken> {
  let expiresAt: Date | null = null;
  if (body.expiresAt !== undefined) {
    expiresAt = new Date(body.expiresAt);
    const at = expiresAt.getTime();
    if (at <= now) throw new ApiError('bad-request', '`expiresAt` must be in the future');
    if (at > now + MAX_ACCESS_TOKEN_LIFE_MS)
      throw new ApiError('bad-request', '`expiresAt` may be at most a year ahead');
  }
  if ((await repo.count(playerId)) >= MAX_ACCESS_TOKENS)
    throw new ApiError('conflict', `at most ${MAX_ACCESS_TOKENS} personal access tokens: revoke one first`);
  const token = ACCESS_TOKEN_PREFIX + newToken();
  const scopes = SCOPES.filter((s) => body.scopes.includes(s));
  const row = {
    id: randomBytes(12).toString('base64url'),
    playerId,
    name: body.name,
    tokenHash: hashToken(token),
    scopes,
    createdAt: new Date(now),
    expiresAt,
  };
  await repo.insert(row);
  return { ...listed({ ...row, lastUsedAt: null }), token };
}

/** Player `playerId`'s personal access tokens, newest first (never the tokens themselves). */
export async function listAccessTokens(
  repo: AccessTokenRepository,
  playerId: string,
): Promise<AccessToken[]> {
  return (await repo.list(playerId)).map(listed);
}

/**
 * Deletes token `id` of `playerId` and returns its hash, for the revocation that reaches every node.
 * Errors: `not-found` when the player has no such token (another player's token is not found either).
 */
export async function deleteAccessToken(
  repo: AccessTokenRepository,
  playerId: string,
  id: string,
): Promise<string> {
  const hash = await repo.delete(playerId, id);
  if (hash === null) throw new ApiError('not-found', `no token ${id}`);
  return hash;
}

/**
 * The player of a personal access token, with its grant, or null when unknown or expired at `now`.
 * `token` is what the caller sent; only tokens with ACCESS_TOKEN_PREFIX are looked up.
 */
export async function playerByAccessToken(
  repo: AccessTokenRepository,
  token: string,
  now: number,
): Promise<AuthedPlayer | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await repo.byTokenHash(hashToken(token));
  if (row === null) return null;
  const access: AccessGrant = {
    tokenId: row.id,
    scopes: new Set(storedScopes(row.scopes)),
    expiresAt: row.expiresAt?.getTime() ?? null,
  };
  if (expired(access, now)) return null;
  const player: PlayerIdentity = row.player;
  return { id: player.id, name: player.name, bot: player.bot, access };
}

/** Whether a grant has expired at `now` (ms). */
export function expired(access: AccessGrant | undefined, now: number): boolean {
  return access?.expiresAt !== null && access?.expiresAt !== undefined && access.expiresAt <= now;
}

/**
 * Records the last use of personal access tokens cheaply: at most one write per token every
 * LAST_USE_INTERVAL_MS on this node, off the request's path (a failed write is logged and forgotten).
 */
export class LastUse {
  private readonly written = new Map<string, number>();

  /** `write` stores one use; `onError` hears its failures. */
  constructor(
    private readonly write: (tokenId: string, at: Date) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Token `tokenId` was used at `now` (ms). */
  seen(tokenId: string, now: number): void {
    const last = this.written.get(tokenId);
    if (last !== undefined && now - last < LAST_USE_INTERVAL_MS) return;
    this.written.delete(tokenId);
    this.written.set(tokenId, now);
    if (this.written.size > 10_000) {
      const oldest = this.written.keys().next();
      if (oldest.done !== true) this.written.delete(oldest.value);
    }
    this.write(tokenId, new Date(now)).catch(this.onError);
  }
}
