/**
 * The rows of a race room (`Race`, `RaceRacer`, `RacePresence`) as the race service reads them: the shape it
 * reads them in, and the room read with its `Race` row locked (every room transaction starts so).
 */
import { ApiError } from '../errors.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
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
