/**
 * Players: a display name and a secret bearer token. The token is shown once, at creation; the database
 * keeps only its SHA-256 (`Player.tokenHash`). Names are unique ignoring case (`Player.nameKey`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../errors.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';

/** The player a request or connection has identified as. */
export interface AuthedPlayer {
  readonly id: string;
  readonly name: string;
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
 * Creates a player with a validated name. Returns the id, the name and the token (the only time the token
 * is ever returned). Errors: `conflict` when the name is taken (ignoring case).
 */
export async function createPlayer(
  prisma: PrismaClient,
  name: string,
  now: number,
): Promise<{ id: string; name: string; token: string }> {
  const token = newToken();
  const id = newPlayerId();
  try {
    await prisma.player.create({
      data: { id, name, nameKey: nameKey(name), tokenHash: hashToken(token), createdAt: new Date(now) },
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiError('conflict', `the name "${name}" is taken`);
    throw e;
  }
  return { id, name, token };
}

/** The player a token belongs to, or null for an unknown token. */
export async function playerByToken(prisma: PrismaClient, token: string): Promise<AuthedPlayer | null> {
  if (token.length === 0 || token.length > 200) return null;
  const row = await prisma.player.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, name: true },
  });
  return row;
}

/** Renames a player. Errors: `conflict` when another player has the name (ignoring case); `not-found`. */
export async function renamePlayer(prisma: PrismaClient, id: string, name: string): Promise<AuthedPlayer> {
  try {
    const row = await prisma.player.update({
      where: { id },
      data: { name, nameKey: nameKey(name) },
      select: { id: true, name: true },
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
