/**
 * Players: a display name and a secret bearer token. The token is shown once, at creation; the database
 * keeps only its SHA-256 (`PlayerToken.tokenHash`, one row per signed-in device). Names are unique ignoring case (`Player.nameKey`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { SettingsPatchSchema, type SettingsPatch } from '@klondike/protocol';
import { ApiError } from '../../infra/errors.js';
import type { PlayerRepository } from './repository.js';

/** The player a request or connection has identified as. */
export interface AuthedPlayer {
  readonly id: string;
  readonly name: string;
  /** A bot account: ranked on the bot boards only, races only other bots, its own per-token rate limit. */
  readonly bot: boolean;
}

/** A new player id: 16 URL-safe characters (96 random bits). */
export function newPlayerId(): string {
  return randomBytes(12).toString('base64url');
}

/** A new bearer token: 43 URL-safe characters (256 random bits). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a token, lowercase hex: what the database stores and looks tokens up by. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The case-insensitive uniqueness key of a (validated) name: NFC, lower case. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * Creates a player (a bot account with `bot`) with a validated name. Returns the id, the name, the bot flag
 * and the token (the only time the token is ever returned). Errors: `conflict` when the name is taken
 * (ignoring case).
 */
export async function createPlayer(
  repo: PlayerRepository,
  name: string,
  now: number,
  bot = false,
): Promise<{ id: string; name: string; bot: boolean; token: string }> {
  const token = newToken();
  const id = newPlayerId();
  const stored = await repo.insert({
    id,
    name,
    nameKey: nameKey(name),
    createdAt: new Date(now),
    bot,
    tokenHash: hashToken(token),
  });
  if (!stored) throw new ApiError('conflict', `the name "${name}" is taken`);
  return { id, name, bot, token };
}

/** The player a token belongs to, or null for an unknown token. */
export async function playerByToken(repo: PlayerRepository, token: string): Promise<AuthedPlayer | null> {
  if (token.length === 0 || token.length > 200) return null;
  return repo.byTokenHash(hashToken(token));
}

/** How long a transfer code signs another device in, ms (10 minutes). */
export const TRANSFER_CODE_TTL_MS = 10 * 60_000;

/**
 * A new single-use transfer code for `playerId`, valid TRANSFER_CODE_TTL_MS from `now`: 32 characters of
 * hex (128 random bits); only its SHA-256 is stored. Older unused codes of the player stay valid until
 * they expire; expired ones are deleted here.
 */
export async function createTransferCode(
  repo: PlayerRepository,
  playerId: string,
  now: number,
): Promise<{ code: string; expiresAt: Date }> {
  const code = randomBytes(16).toString('hex').toUpperCase();
  const expiresAt = new Date(now + TRANSFER_CODE_TTL_MS);
  await repo.storeTransferCode(playerId, hashToken(code), expiresAt, new Date(now));
  return { code, expiresAt };
}

/**
 * Exchanges a transfer code for a new token of its player (a new device): the code is deleted in the same
 * statement, so it works once. Errors: `unauthorized` for an unknown, used or expired code.
 */
export async function redeemTransferCode(
  repo: PlayerRepository,
  code: string,
  now: number,
): Promise<{ id: string; name: string; bot: boolean; token: string }> {
  const codeHash = hashToken(code.trim().toUpperCase());
  const token = newToken();
  const player = await repo.redeemTransferCode(codeHash, hashToken(token), now);
  if (player === null) throw new ApiError('unauthorized', 'this sign-in code is unknown, used or expired');
  return { ...player, token };
}

/**
 * Replaces the token `token` with a new one (rotation): the old token stops working at once. Returns the
 * new token. Errors: `unauthorized` when `token` is not (or no longer) a token.
 */
export async function rotateToken(repo: PlayerRepository, token: string, now: number): Promise<string> {
  const fresh = newToken();
  const ok = await repo.rotateToken(hashToken(token), hashToken(fresh), new Date(now));
  if (!ok) throw new ApiError('unknown-token', 'unknown player token');
  return fresh;
}

/**
 * Signs a player out everywhere: deletes every token and every transfer code of `playerId`. Returns how many
 * tokens (devices) were signed out.
 */
export function signOutEverywhere(repo: PlayerRepository, playerId: string): Promise<number> {
  return repo.deleteTokens(playerId);
}

/** Renames a player. Errors: `conflict` when another player has the name (ignoring case); `not-found`. */
export async function renamePlayer(repo: PlayerRepository, id: string, name: string): Promise<AuthedPlayer> {
  const row = await repo.rename(id, name, nameKey(name));
  if (row === 'taken') throw new ApiError('conflict', `the name "${name}" is taken`);
  if (row === 'missing') throw new ApiError('not-found', `no player ${id}`);
  return row;
}

/**
 * The bearer token of an `Authorization` header value: undefined when there is no header; throws
 * `unauthorized` for any other scheme or a malformed value.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer[ ]+([A-Za-z0-9._~+/=-]{1,200})\s*$/i.exec(header);
  if (!m) throw new ApiError('unauthorized', 'the Authorization header must be "Bearer <token>"');
  return m[1];
}

/**
 * The settings a player stored, as `SettingsPatchSchema` reads them: keys a later version no longer knows (or
 * values it no longer accepts) are dropped rather than failing the player's requests.
 */
export function storedSettings(json: unknown): SettingsPatch {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return {};
  const out: Record<string, unknown> = {};
  const shape = SettingsPatchSchema.shape;
  for (const [key, value] of Object.entries(json)) {
    if (!(key in shape)) continue;
    const parsed = shape[key as keyof typeof shape].safeParse(value);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out;
}

/**
 * PATCH /api/me `settings`: merges `patch` (already validated) into the player's stored settings in one
 * statement (`settings || patch`), so two devices changing different settings at once both keep their change.
 * Returns the settings now stored. Errors: `not-found` when the player no longer exists.
 */
export async function updateSettings(
  repo: PlayerRepository,
  id: string,
  patch: SettingsPatch,
): Promise<SettingsPatch> {
  const settings = await repo.mergeSettings(id, patch);
  if (settings === undefined) throw new ApiError('not-found', `no player ${id}`);
  return storedSettings(settings);
}
