/**
 * The rows of personal access tokens (`AccessToken`, issue 59): by SHA-256, with their scopes, expiry and
 * last use. What a token is and who may make one is decided in players/access-tokens.ts.
 */
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { PlayerIdentity } from './repository.js';

/** A personal access token's row as listed (never its hash). */
export interface AccessTokenRow {
  readonly id: string;
  readonly name: string;
  /** As stored: a JSON array of scope names (read back through protocol's ScopeSchema). */
  readonly scopes: unknown;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly lastUsedAt: Date | null;
}

/** A new personal access token's row. */
export interface NewAccessTokenRow {
  readonly id: string;
  readonly playerId: string;
  readonly name: string;
  readonly tokenHash: string;
  readonly scopes: readonly string[];
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

const LISTED = {
  id: true,
  name: true,
  scopes: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
} as const;

/** The personal access tokens' rows in one database. Every method throws database errors. */
export class AccessTokenRepository {
  /** `prisma`: the open database's client (plugin `db`). */
  constructor(private readonly prisma: PrismaClient) {}

  /** Stores a new token. */
  async insert(row: NewAccessTokenRow): Promise<void> {
    await this.prisma.accessToken.create({ data: { ...row, scopes: [...row.scopes] } });
  }

  /** How many tokens player `playerId` holds. */
  count(playerId: string): Promise<number> {
    return this.prisma.accessToken.count({ where: { playerId } });
  }

  /** Player `playerId`'s tokens, newest first. */
  list(playerId: string): Promise<AccessTokenRow[]> {
    return this.prisma.accessToken.findMany({
      where: { playerId },
      select: LISTED,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  /**
   * Deletes token `id` of player `playerId`. Returns its hash (to revoke it everywhere), or null when the
   * player has no such token.
   */
  async delete(playerId: string, id: string): Promise<string | null> {
    const row = await this.prisma.accessToken.findFirst({
      where: { id, playerId },
      select: { tokenHash: true },
    });
    if (row === null) return null;
    const gone = await this.prisma.accessToken.deleteMany({ where: { id, playerId } });
    return gone.count === 1 ? row.tokenHash : null;
  }

  /** The token of hash `tokenHash`: its player, id, scopes and expiry, or null. */
  async byTokenHash(
    tokenHash: string,
  ): Promise<{ id: string; scopes: unknown; expiresAt: Date | null; player: PlayerIdentity } | null> {
    return this.prisma.accessToken.findUnique({
      where: { tokenHash },
      select: {
        id: true,
        scopes: true,
        expiresAt: true,
        player: { select: { id: true, name: true, bot: true } },
      },
    });
  }

  /** Which of the hashes `hashes` are stored tokens not expired at `now`. */
  async liveHashes(hashes: readonly string[], now: Date): Promise<Set<string>> {
    const rows = await this.prisma.accessToken.findMany({
      where: { tokenHash: { in: [...hashes] }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      select: { tokenHash: true },
    });
    return new Set(rows.map((r) => r.tokenHash));
  }

  /** Records a use of token `id` at `at`. */
  async touch(id: string, at: Date): Promise<void> {
    await this.prisma.accessToken.updateMany({ where: { id }, data: { lastUsedAt: at } });
  }

  /** Deletes every token of `playerId` (sign-out everywhere); returns how many. */
  async deleteAll(playerId: string): Promise<number> {
    return (await this.prisma.accessToken.deleteMany({ where: { playerId } })).count;
  }
}
