/**
 * The rows of a race room (`Race`, `RaceRacer`, `RacePresence`) as the race service reads them: the shape it
 * reads them in, the room read with its `Race` row locked (every room transaction starts so), and a new
 * room's insert.
 */
import { type Deal, type GameOptions, type PresetName, formatDeal } from '@klondike/rules';
import { ApiError } from '../../infra/errors.js';
import type { DealEmbargo } from '../fairness/embargo.js';
import { newRaceSalt } from '../fairness/race-commitment.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { RaceProgress } from './events.js';

/** What a room's row is read with: its racers (with their names) and its presence rows. */
export const raceRowInclude = {
  racers: { include: { player: { select: { name: true, bot: true } } }, orderBy: { seat: 'asc' } },
  presence: true,
} as const satisfies Prisma.RaceInclude;
/** A room's rows. */
export type RaceRow = Prisma.RaceGetPayload<{ include: typeof raceRowInclude }>;
/** One racer's row of a room. */
export type RacerRow = RaceRow['racers'][number];
/** A transaction of the database. */
export type Tx = Prisma.TransactionClient;

/** Whether `e` is a unique-key violation (a taken invite code). */
export const isUniqueViolation = (e: unknown): boolean =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';

/** The room's rows, its `Race` row locked first (unless `lock` is false). Errors: `not-found`. */
export async function lockedRow(tx: Tx, code: string, lock = true): Promise<RaceRow> {
  if (lock) {
    const locked = await tx.$queryRaw<{ code: string }[]>`
        SELECT "code" FROM "Race" WHERE "code" = ${code} FOR UPDATE`;
    if (locked.length === 0) throw new ApiError('not-found', `no race ${code}`);
  }
  const row = await tx.race.findUnique({ where: { code }, include: raceRowInclude });
  if (!row) throw new ApiError('not-found', `no race ${code}`);
  return row;
}

/** The stored room. Errors: `not-found`. */
export async function raceRow(prisma: PrismaClient, code: string): Promise<RaceRow> {
  const row = await prisma.race.findUnique({ where: { code }, include: raceRowInclude });
  if (!row) throw new ApiError('not-found', `no race ${code}`);
  return row;
}

/**
 * Stores the progress of the racer playing game `gameId` at game version `version`, while the race runs,
 * the racer has not forfeited and no later version's progress is stored. Returns whether it was stored.
 */
export async function storeProgress(
  prisma: PrismaClient,
  gameId: string,
  version: number,
  progress: RaceProgress,
): Promise<boolean> {
  const stored = await prisma.$executeRaw`
    UPDATE "RaceRacer" AS rr
       SET "progress" = ${JSON.stringify(progress)}::jsonb, "progressVersion" = ${version}
      FROM "Race" AS r
     WHERE rr."gameId" = ${gameId} AND rr."raceCode" = r."code" AND r."status" = 'running'
       AND NOT rr."forfeited" AND (rr."progressVersion" IS NULL OR rr."progressVersion" < ${version})`;
  return stored > 0;
}

/** What one room transaction did, for what follows its commit. */
export interface Change<T> {
  readonly result: T;
  /** Rows changed: the version is bumped and the room published. */
  readonly changed: boolean;
  /** Racers' games the server resigns after the commit, before anyone hears of it. */
  readonly resign?: readonly { gameId: string; owner: string }[];
  /** Progress events published before the room. */
  readonly progress?: readonly { playerId: string; progress: RaceProgress }[];
  /** A timer fact changed: wake the sweeper. */
  readonly due?: boolean;
}

/** A transaction that changed nothing. */
export const unchanged = <T>(result: T): Change<T> => ({ result, changed: false });

/** A new room's rows: its settings, deal, host and racers (seated in this order). */
export interface NewRace {
  readonly preset: PresetName | null;
  readonly options: GameOptions;
  readonly dealKind: 'random' | 'certified' | 'number';
  readonly rated: boolean;
  readonly deal: Deal;
  readonly dealKey: string | null;
  readonly dealNumber: number | null;
  readonly maxPlayers: number;
  readonly timeLimitMs: number | null;
  readonly hostId: string;
  readonly racers: readonly string[];
  /** The arena the race was paired in (docs/arenas.md), if any. */
  readonly arenaId?: string | null;
}

/**
 * Where a new room is stored from: the database, the deal's embargo hash, the clock, this node's id and the
 * source of fresh invite codes (ranking.ts `newRaceCode`).
 */
export interface InsertContext {
  readonly prisma: PrismaClient;
  readonly embargo: DealEmbargo;
  /** The server clock, ms since the epoch. */
  readonly now: () => number;
  readonly nodeId: string;
  readonly newCode: () => string;
}

/**
 * Stores a new room and its racers in the lobby (a fresh code; retried on the rare collision), with a fresh
 * salt for its deal's commitment (fairness/race-commitment.ts). With
 * `rematchOf`, the old room's `rematchCode` is set (and its version bumped) in the same transaction;
 * returns null when another request set it first. Returns the new room's code.
 */
export async function insertRace(c: InsertContext, r: NewRace, rematchOf?: string): Promise<string | null> {
  const knownDeal = r.dealKind === 'number';
  const dealHash = await c.embargo.hash(r.deal);
  const now = c.now();
  for (let attempt = 0; ; attempt++) {
    const code = c.newCode();
    try {
      const taken = await c.prisma.$transaction(async (tx) => {
        if (rematchOf !== undefined) {
          const set = await tx.race.updateMany({
            where: { code: rematchOf, rematchCode: null },
            data: { rematchCode: code, version: { increment: 1 } },
          });
          if (set.count !== 1) return true;
        }
        await tx.race.create({
          data: {
            code,
            status: 'lobby',
            preset: r.preset,
            options: { ...r.options },
            dealKind: r.dealKind,
            rated: r.rated,
            knownDeal,
            dealNumber: r.dealNumber === null ? null : BigInt(r.dealNumber),
            dealKey: r.dealKey,
            dealSalt: newRaceSalt(),
            dealHash,
            deal: formatDeal(r.deal),
            maxPlayers: r.maxPlayers,
            timeLimitMs: r.timeLimitMs,
            hostId: r.hostId,
            arenaId: r.arenaId ?? null,
            createdAt: new Date(now),
            nodeId: c.nodeId,
            racers: {
              create: r.racers.map((playerId, seat) => ({ playerId, seat, joinedAt: new Date(now) })),
            },
          },
        });
        return false;
      });
      return taken ? null : code;
    } catch (e) {
      if (isUniqueViolation(e) && attempt < 5) continue;
      throw e;
    }
  }
}
