/**
 * The players' rows (issue 54 "one persistence rule"): players (`Player`), their tokens (`PlayerToken`, one
 * row per signed-in device, by SHA-256) and transfer codes (`TransferCode`), their settings, and the game a
 * player resumes. What a token, a code or a name is, and what is refused, is decided in players/players.ts
 * and players/current-game.ts; the statistics' rows are players/stats-repository.ts.
 */
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { batchedLookup } from '../../infra/db/batched-lookup.js';
import type { DriverQuery } from '../../infra/db/database.js';

/** A player as a token identifies them. */
export interface PlayerIdentity {
  readonly id: string;
  readonly name: string;
  readonly bot: boolean;
}

/** A new player's row and their first token. */
export interface NewPlayerRow {
  readonly id: string;
  readonly name: string;
  /** The case-insensitive uniqueness key of the name (players.ts `nameKey`). */
  readonly nameKey: string;
  /** The confusable skeleton of the name (players.ts `nameSkeleton`), unique too. */
  readonly nameSkeleton: string;
  readonly bot: boolean;
  /** SHA-256 of the first token (players.ts `hashToken`). */
  readonly tokenHash: string;
  readonly createdAt: Date;
}

/** The fields of a player's most recent unfinished game that GET /api/me/games/current shows. */
export interface CurrentGameRow {
  readonly id: string;
  readonly preset: string | null;
  readonly version: number;
  readonly moves: number;
  readonly updatedAt: Date;
  readonly ranked: boolean;
  readonly daily: { readonly date: string; readonly preset: string } | null;
}

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';
}

const IDENTITY = { id: true, name: true, bot: true } as const;

/** The players of the token hashes `$1` (a text array), each row with the hash it was asked by. */
const PLAYERS_OF_TOKEN_HASHES_SQL = `
  SELECT t."tokenHash", p.id, p.name, p.bot
  FROM "PlayerToken" t JOIN "Player" p ON p.id = t."playerId"
  WHERE t."tokenHash" = ANY($1::text[])`;

/** The players' rows in one database. Every method throws database errors. */
export class PlayerRepository {
  /**
   * The players of token hashes, the hashes asked for while one look-up is on its way sharing the next
   * (infra/db/batched-lookup.ts): at midnight thousands of requests arrive with tokens this node has not
   * cached, and they share a few statements instead of two round trips each.
   */
  private readonly playerOfTokenHash: (tokenHash: string) => Promise<PlayerIdentity | null>;

  /**
   * `prisma`: the open database's client (plugin `db`); `query`: its driver (Database.query), for the token
   * look-ups a midnight sends by the thousand.
   */
  constructor(
    private readonly prisma: PrismaClient,
    query: DriverQuery,
  ) {
    this.playerOfTokenHash = batchedLookup(async (hashes) => {
      const rows = await query<{ tokenHash: string; id: string; name: string; bot: boolean }>(
        'players-of-token-hashes',
        PLAYERS_OF_TOKEN_HASHES_SQL,
        [[...hashes]],
      );
      return new Map(rows.map((r) => [r.tokenHash, { id: r.id, name: r.name, bot: r.bot }]));
    });
  }

  /** Stores a new player with their first token. Returns false (nothing stored) when the name key or skeleton is taken. */
  async insert(p: NewPlayerRow): Promise<boolean> {
    try {
      await this.prisma.player.create({
        data: {
          id: p.id,
          name: p.name,
          nameKey: p.nameKey,
          nameSkeleton: p.nameSkeleton,
          createdAt: p.createdAt,
          bot: p.bot,
          tokens: { create: { tokenHash: p.tokenHash, createdAt: p.createdAt } },
        },
      });
      return true;
    } catch (e) {
      if (isUniqueViolation(e)) return false;
      throw e;
    }
  }

  /** The player whose token has SHA-256 `tokenHash`, or null. */
  byTokenHash(tokenHash: string): Promise<PlayerIdentity | null> {
    return this.playerOfTokenHash(tokenHash);
  }

  /** Which of the token hashes `hashes` are stored (their tokens still work). */
  async liveTokenHashes(hashes: readonly string[]): Promise<Set<string>> {
    const rows = await this.prisma.playerToken.findMany({
      where: { tokenHash: { in: [...hashes] } },
      select: { tokenHash: true },
    });
    return new Set(rows.map((r) => r.tokenHash));
  }

  /** Whether player `id` exists. */
  async exists(id: string): Promise<boolean> {
    return (await this.prisma.player.findUnique({ where: { id }, select: { id: true } })) !== null;
  }

  /**
   * Stores transfer code `codeHash` of `playerId`, valid until `expiresAt`, and deletes the player's codes
   * expired at `now`, in one transaction.
   */
  async storeTransferCode(playerId: string, codeHash: string, expiresAt: Date, now: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.transferCode.deleteMany({ where: { playerId, expiresAt: { lte: now } } }),
      this.prisma.transferCode.create({ data: { codeHash, playerId, expiresAt } }),
    ]);
  }

  /**
   * Exchanges transfer code `codeHash` for the token `tokenHash` of its player, in one transaction: the code
   * is deleted (so it works once); the token is stored only if the code existed, was deleted here and had not
   * expired at `now` (ms). Returns the player, or null for an unknown, used or expired code.
   */
  redeemTransferCode(codeHash: string, tokenHash: string, now: number): Promise<PlayerIdentity | null> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.transferCode.findUnique({
        where: { codeHash },
        select: { playerId: true, expiresAt: true },
      });
      if (row === null) return null;
      const gone = await tx.transferCode.deleteMany({ where: { codeHash } });
      if (gone.count !== 1 || row.expiresAt.getTime() <= now) return null;
      await tx.playerToken.create({ data: { tokenHash, playerId: row.playerId, createdAt: new Date(now) } });
      return tx.player.findUnique({ where: { id: row.playerId }, select: IDENTITY });
    });
  }

  /**
   * Replaces the token `oldHash` with `newHash` for the same player, in one transaction. Returns false when
   * `oldHash` is not (or no longer) stored.
   */
  rotateToken(oldHash: string, newHash: string, now: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.playerToken.findUnique({
        where: { tokenHash: oldHash },
        select: { playerId: true },
      });
      if (row === null) return false;
      const gone = await tx.playerToken.deleteMany({ where: { tokenHash: oldHash } });
      if (gone.count !== 1) return false;
      await tx.playerToken.create({ data: { tokenHash: newHash, playerId: row.playerId, createdAt: now } });
      return true;
    });
  }

  /** Deletes every token and every transfer code of `playerId`. Returns how many tokens were deleted. */
  async deleteTokens(playerId: string): Promise<number> {
    const [tokens] = await this.prisma.$transaction([
      this.prisma.playerToken.deleteMany({ where: { playerId } }),
      this.prisma.transferCode.deleteMany({ where: { playerId } }),
      this.prisma.accessToken.deleteMany({ where: { playerId } }),
    ]);
    return tokens.count;
  }

  /** Up to `limit` players named before name skeletons (`nameSkeleton` NULL): id and name, by id. */
  withoutSkeleton(limit: number): Promise<{ id: string; name: string }[]> {
    return this.prisma.player.findMany({
      where: { nameSkeleton: null },
      select: { id: true, name: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /**
   * Gives player `id` the name skeleton `nameSkeleton` if it still has none. Returns false when another
   * player has that skeleton already (nothing changed).
   */
  async setSkeleton(id: string, nameSkeleton: string): Promise<boolean> {
    try {
      await this.prisma.player.updateMany({ where: { id, nameSkeleton: null }, data: { nameSkeleton } });
      return true;
    } catch (e) {
      if (isUniqueViolation(e)) return false;
      throw e;
    }
  }

  /**
   * Renames player `id`. Returns the player, `taken` when another has the name key or the skeleton, `missing`
   * without player `id`.
   */
  async rename(
    id: string,
    name: string,
    nameKey: string,
    nameSkeleton: string,
  ): Promise<PlayerIdentity | 'taken' | 'missing'> {
    try {
      return await this.prisma.player.update({
        where: { id },
        data: { name, nameKey, nameSkeleton },
        select: IDENTITY,
      });
    } catch (e) {
      if (isUniqueViolation(e)) return 'taken';
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2025') return 'missing';
      throw e;
    }
  }

  /**
   * Merges `patch` into player `id`'s stored settings in one statement (`settings || patch`). Returns the
   * stored settings (JSON), or undefined without player `id`.
   */
  async mergeSettings(id: string, patch: object): Promise<unknown> {
    const rows = await this.prisma.$queryRaw<{ settings: unknown }[]>`
      UPDATE "Player" SET "settings" = "settings" || ${JSON.stringify(patch)}::jsonb
      WHERE "id" = ${id} RETURNING "settings"`;
    return rows[0]?.settings;
  }

  /**
   * The player's game they acted on last (`updatedAt`, then id) among those still `playing`, of any kind but
   * `race`, a ranked attempt only if its daily's date is `today` or later (a UTC date); or null.
   */
  currentGame(playerId: string, today: string): Promise<CurrentGameRow | null> {
    return this.prisma.game.findFirst({
      where: {
        playerId,
        status: 'playing',
        raceCode: null,
        raceEntry: null,
        OR: [{ ranked: false }, { daily: { date: { gte: today } } }],
      },
      orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
      select: {
        id: true,
        preset: true,
        version: true,
        moves: true,
        updatedAt: true,
        ranked: true,
        daily: { select: { date: true, preset: true } },
      },
    });
  }
}
