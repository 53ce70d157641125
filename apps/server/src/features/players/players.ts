/**
 * Players: a display name and a secret bearer token. The token is shown once, at creation; the database
 * keeps only its SHA-256 (`PlayerToken.tokenHash`, one row per signed-in device). Names are unique ignoring case (`Player.nameKey`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { SettingsPatchSchema, type SettingsPatch } from '@klondike/protocol';
import { ApiError } from '../../infra/errors.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';

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

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';
}

/**
 * Creates a player (a bot account with `bot`) with a validated name. Returns the id, the name, the bot flag
 * and the token (the only time the token is ever returned). Errors: `conflict` when the name is taken
 * (ignoring case).
 */
export async function createPlayer(
  prisma: PrismaClient,
  name: string,
  now: number,
  bot = false,
): Promise<{ id: string; name: string; bot: boolean; token: string }> {
  const token = newToken();
  const id = newPlayerId();
  try {
    await prisma.player.create({
      data: {
        id,
        name,
        nameKey: nameKey(name),
        createdAt: new Date(now),
        bot,
        tokens: { create: { tokenHash: hashToken(token), createdAt: new Date(now) } },
      },
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiError('conflict', `the name "${name}" is taken`);
    throw e;
  }
  return { id, name, bot, token };
}

/** The player a token belongs to, or null for an unknown token. */
export async function playerByToken(prisma: PrismaClient, token: string): Promise<AuthedPlayer | null> {
  if (token.length === 0 || token.length > 200) return null;
  const row = await prisma.playerToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { player: { select: { id: true, name: true, bot: true } } },
  });
  return row?.player ?? null;
}

/** How long a transfer code signs another device in, ms (10 minutes). */
export const TRANSFER_CODE_TTL_MS = 10 * 60_000;

/**
 * A new single-use transfer code for `playerId`, valid TRANSFER_CODE_TTL_MS from `now`: 32 characters of
 * hex (128 random bits); only its SHA-256 is stored. Older unused codes of the player stay valid until
 * they expire; expired ones are deleted here.
 */
export async function createTransferCode(
  prisma: PrismaClient,
  playerId: string,
  now: number,
): Promise<{ code: string; expiresAt: Date }> {
  const code = randomBytes(16).toString('hex').toUpperCase();
  const expiresAt = new Date(now + TRANSFER_CODE_TTL_MS);
  await prisma.$transaction([
    prisma.transferCode.deleteMany({ where: { playerId, expiresAt: { lte: new Date(now) } } }),
    prisma.transferCode.create({ data: { codeHash: hashToken(code), playerId, expiresAt } }),
  ]);
  return { code, expiresAt };
}

/**
 * Exchanges a transfer code for a new token of its player (a new device): the code is deleted in the same
 * statement, so it works once. Errors: `unauthorized` for an unknown, used or expired code.
 */
export async function redeemTransferCode(
  prisma: PrismaClient,
  code: string,
  now: number,
): Promise<{ id: string; name: string; bot: boolean; token: string }> {
  const codeHash = hashToken(code.trim().toUpperCase());
  const token = newToken();
  const player = await prisma.$transaction(async (tx) => {
    const row = await tx.transferCode.findUnique({
      where: { codeHash },
      select: { playerId: true, expiresAt: true },
    });
    if (row === null) return null;
    const gone = await tx.transferCode.deleteMany({ where: { codeHash } });
    if (gone.count !== 1 || row.expiresAt.getTime() <= now) return null;
    await tx.playerToken.create({
      data: { tokenHash: hashToken(token), playerId: row.playerId, createdAt: new Date(now) },
    });
    return tx.player.findUnique({
      where: { id: row.playerId },
      select: { id: true, name: true, bot: true },
    });
  });
  if (player === null) throw new ApiError('unauthorized', 'this sign-in code is unknown, used or expired');
  return { ...player, token };
}

/**
 * Replaces the token `token` with a new one (rotation): the old token stops working at once. Returns the
 * new token. Errors: `unauthorized` when `token` is not (or no longer) a token.
 */
export async function rotateToken(prisma: PrismaClient, token: string, now: number): Promise<string> {
  const fresh = newToken();
  const ok = await prisma.$transaction(async (tx) => {
    const row = await tx.playerToken.findUnique({
      where: { tokenHash: hashToken(token) },
      select: { playerId: true },
    });
    if (row === null) return false;
    const gone = await tx.playerToken.deleteMany({ where: { tokenHash: hashToken(token) } });
    if (gone.count !== 1) return false;
    await tx.playerToken.create({
      data: { tokenHash: hashToken(fresh), playerId: row.playerId, createdAt: new Date(now) },
    });
    return true;
  });
  if (!ok) throw new ApiError('unknown-token', 'unknown player token');
  return fresh;
}

/**
 * Signs a player out everywhere: deletes every token and every transfer code of `playerId`. Returns how many
 * tokens (devices) were signed out.
 */
export async function signOutEverywhere(prisma: PrismaClient, playerId: string): Promise<number> {
  const [tokens] = await prisma.$transaction([
    prisma.playerToken.deleteMany({ where: { playerId } }),
    prisma.transferCode.deleteMany({ where: { playerId } }),
  ]);
  return tokens.count;
}

/** Renames a player. Errors: `conflict` when another player has the name (ignoring case); `not-found`. */
export async function renamePlayer(prisma: PrismaClient, id: string, name: string): Promise<AuthedPlayer> {
  try {
    const row = await prisma.player.update({
      where: { id },
      data: { name, nameKey: nameKey(name) },
      select: { id: true, name: true, bot: true },
    });
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiError('conflict', `the name "${name}" is taken`);
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2025')
      throw new ApiError('not-found', `no player ${id}`);
    throw e;
  }
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
  return out as SettingsPatch;
}

/**
 * PATCH /api/me `settings`: merges `patch` (already validated) into the player's stored settings in one
 * statement (`settings || patch`), so two devices changing different settings at once both keep their change.
 * Returns the settings now stored. Errors: `not-found` when the player no longer exists.
 */
export async function updateSettings(
  prisma: PrismaClient,
  id: string,
  patch: SettingsPatch,
): Promise<SettingsPatch> {
  const rows = await prisma.$queryRaw<{ settings: unknown }[]>`
    UPDATE "Player" SET "settings" = "settings" || ${JSON.stringify(patch)}::jsonb
    WHERE "id" = ${id} RETURNING "settings"`;
  const row = rows[0];
  if (!row) throw new ApiError('not-found', `no player ${id}`);
  return storedSettings(row.settings);
}
