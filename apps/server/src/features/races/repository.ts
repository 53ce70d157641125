/**
 * The races' rows (`Race`, `RaceRacer`, `RacePresence`, `ServerNode`): the only file of races/ that speaks
 * to the database. It reads a room in the shape the service reads it, runs a room's transaction (its `Race`
 * row locked, the pure decision of transitions.ts applied, the version bumped), inserts a new room, stores
 * progress, and answers the reads of the index, the sweeper, presence, eligibility and start-up.
 */
import { type Deal, type GameOptions, type PresetName, formatDeal } from '@klondike/rules';
import { ApiError } from '../../infra/errors.js';
import type { DealEmbargo } from '../fairness/embargo.js';
import { newRaceSalt } from '../fairness/race-commitment.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { RatingPool } from '@klondike/protocol';
import type { RaceProgress } from './events.js';
import type { RaceChange, RaceDecision, RacerFields } from './change.js';

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
const isUniqueViolation = (e: unknown): boolean =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';

/** The room's rows, its `Race` row locked first (unless `lock` is false). Errors: `not-found`. */
async function lockedRow(tx: Tx, code: string, lock = true): Promise<RaceRow> {
  if (lock) {
    const locked = await tx.$queryRaw<{ code: string }[]>`
        SELECT "code" FROM "Race" WHERE "code" = ${code} FOR UPDATE`;
    if (locked.length === 0) throw new ApiError('not-found', `no race ${code}`);
  }
  const row = await tx.race.findUnique({ where: { code }, include: raceRowInclude });
  if (!row) throw new ApiError('not-found', `no race ${code}`);
  return row;
}

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
 * Where a new room is stored from: the deal's embargo hash, the clock, this node's id and the source of
 * fresh invite codes (ranking.ts `newRaceCode`).
 */
export interface InsertContext {
  readonly embargo: DealEmbargo;
  /** The server clock, ms since the epoch. */
  readonly now: () => number;
  readonly nodeId: string;
  readonly newCode: () => string;
}

/**
 * Rates a finished race's racers inside the transaction that ends it (ratings/service.ts `rateRaceIn`).
 * Returns each rated racer's rating before and after.
 */
export interface RaceRater {
  rateRaceIn(
    tx: Tx,
    pool: RatingPool,
    date: string,
    raceCode: string,
    placements: readonly { playerId: string; placement: number }[],
  ): Promise<{ playerId: string; before: number; after: number }[]>;
}

/** A room's index facts: its status, start and racers' games. */
export interface RaceIndexRow {
  readonly code: string;
  readonly status: RaceRow['status'];
  readonly startsAt: Date | null;
  readonly racers: readonly { playerId: string; gameId: string | null }[];
}

/** The timer facts of a room in countdown or running (races/sweeper.ts). */
export interface RaceTimerRow {
  readonly code: string;
  readonly status: RaceRow['status'];
  readonly startsAt: Date | null;
  readonly endsAt: Date | null;
  /** Racers with a forfeit pending (`forfeitAt` set, not forfeited). */
  readonly racers: readonly { playerId: string; forfeitAt: Date | null }[];
}

/** An unfinished room of a previous run, with its racers' games' last write (races/interrupted.ts). */
export interface StaleRaceRow {
  readonly code: string;
  readonly rated: boolean;
  readonly preset: string | null;
  readonly startsAt: Date | null;
  readonly racers: readonly {
    playerId: string;
    seat: number;
    gameId: string | null;
    connectedAt: Date | null;
    game: { updatedAt: Date; endedAt: Date | null } | null;
  }[];
}

const INDEX_SELECT = {
  code: true,
  status: true,
  startsAt: true,
  racers: { select: { playerId: true, gameId: true } },
} as const satisfies Prisma.RaceSelect;

/** Racer `f` as the columns of its row. */
function racerData(f: RacerFields): Prisma.RaceRacerUpdateInput {
  const { progress, ...rest } = f;
  return {
    ...rest,
    ...(progress === undefined ? {} : { progress: progress === null ? Prisma.DbNull : { ...progress } }),
  };
}

/** The races' rows. All methods throw `ApiError('not-found')` for an unknown room where they read one. */
export class RaceRepository {
  /** `rater`: rates rated races when they end; none: no race is ever rated. */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly rater?: RaceRater,
  ) {}

  /** Whether rated races are rated when they end (a rater was given). */
  get rates(): boolean {
    return this.rater !== undefined;
  }

  /** The stored room. Errors: `not-found`. */
  async room(code: string): Promise<RaceRow> {
    const row = await this.prisma.race.findUnique({ where: { code }, include: raceRowInclude });
    if (!row) throw new ApiError('not-found', `no race ${code}`);
    return row;
  }

  /**
   * One room transaction: locks the `Race` row (SELECT … FOR UPDATE), reads the room, asks `decide` what
   * happens (transitions.ts), writes its change and bumps `Race.version` when there is one. Returns the
   * decision, the room before and the room after (the same row when nothing changed).
   * Errors: `not-found`; the decision's refusal (nothing is written).
   */
  async mutate(
    code: string,
    decide: (race: RaceRow) => RaceDecision,
  ): Promise<{ decision: Extract<RaceDecision, { ok: true }>; before: RaceRow; row: RaceRow }> {
    return this.prisma.$transaction(async (tx) => {
      const before = await lockedRow(tx, code);
      const decision = decide(before);
      if (!decision.ok) throw decision.error;
      if (decision.change === null) return { decision, before, row: before };
      await this.apply(tx, code, decision.change);
      await tx.race.update({ where: { code }, data: { version: { increment: 1 } } });
      return { decision, before, row: await lockedRow(tx, code, false) };
    });
  }

  /**
   * One node alone, at start-up: claims a previous run's race still unfinished (status → finished, version
   * bumped) and writes the rest of `change` (transitions.ts `interruptedChange`) in one transaction.
   * Returns false when the race had ended meanwhile (nothing changed).
   */
  async interrupt(code: string, change: RaceChange): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const claimed = await tx.race.updateMany({
        where: { code, status: { in: ['lobby', 'countdown', 'running'] } },
        data: { ...change.race, version: { increment: 1 } },
      });
      if (claimed.count !== 1) return false;
      await this.apply(tx, code, { ...change, race: undefined });
      return true;
    });
  }

  /** Writes `change` to room `code`'s rows (see `RaceChange`). */
  private async apply(tx: Tx, code: string, change: RaceChange): Promise<void> {
    if (change.seat)
      await tx.raceRacer.create({
        data: {
          raceCode: code,
          playerId: change.seat.playerId,
          seat: change.seat.seat,
          joinedAt: change.seat.joinedAt,
        },
      });
    for (const r of change.racers ?? [])
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: code, playerId: r.playerId } },
        data: racerData(r.set),
      });
    if (change.race) await tx.race.update({ where: { code }, data: { ...change.race } });
    if (change.allReady) await tx.raceRacer.updateMany({ where: { raceCode: code }, data: { ready: true } });
    if (change.presence) {
      const { nodeId, viewer, sockets } = change.presence;
      if (sockets > 0)
        await tx.racePresence.upsert({
          where: { raceCode_nodeId_viewer: { raceCode: code, nodeId, viewer } },
          create: { raceCode: code, nodeId, viewer, sockets },
          update: { sockets },
        });
      else await tx.racePresence.deleteMany({ where: { raceCode: code, nodeId, viewer } });
    }
    // A finished room has nobody present (its sockets still hear it, e.g. its rematch).
    if (change.clearPresence) await tx.racePresence.deleteMany({ where: { raceCode: code } });
    if (change.presenceOnlyOf)
      await tx.racePresence.deleteMany({
        where: { raceCode: code, nodeId: { notIn: [...change.presenceOnlyOf] } },
      });
    if (change.rate) await this.rate(tx, code, change.rate);
  }

  /**
   * A rated race's result moves its racers' race ratings, once: the race is claimed (`ratedAt`) in the
   * transaction that ends it (docs/ratings.md "Races"); fewer than two placements rate nobody.
   */
  private async rate(tx: Tx, code: string, claim: NonNullable<RaceChange['rate']>): Promise<void> {
    if (this.rater === undefined) return;
    const claimed = await tx.race.updateMany({ where: { code, ratedAt: null }, data: { ratedAt: claim.at } });
    if (claimed.count !== 1) return;
    const moved = await this.rater.rateRaceIn(tx, claim.pool, claim.day, code, claim.placements);
    for (const m of moved)
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: code, playerId: m.playerId } },
        data: { ratingBefore: m.before, ratingAfter: m.after },
      });
  }

  /**
   * Stores the progress of the racer playing game `gameId` at game version `version`, while the race runs,
   * the racer has not forfeited and no later version's progress is stored. Returns whether it was stored.
   */
  async storeProgress(gameId: string, version: number, progress: RaceProgress): Promise<boolean> {
    const stored = await this.prisma.$executeRaw`
      UPDATE "RaceRacer" AS rr
         SET "progress" = ${JSON.stringify(progress)}::jsonb, "progressVersion" = ${version}
        FROM "Race" AS r
       WHERE rr."gameId" = ${gameId} AND rr."raceCode" = r."code" AND r."status" = 'running'
         AND NOT rr."forfeited" AND (rr."progressVersion" IS NULL OR rr."progressVersion" < ${version})`;
    return stored > 0;
  }

  /**
   * Stores a new room and its racers in the lobby (a fresh code; retried on the rare collision), with a fresh
   * salt for its deal's commitment (fairness/race-commitment.ts). With `rematchOf`, the old room's
   * `rematchCode` is set (and its version bumped) in the same transaction; returns null when another request
   * set it first. Returns the new room's code.
   */
  async insert(c: InsertContext, r: NewRace, rematchOf?: string): Promise<string | null> {
    const knownDeal = r.dealKind === 'number';
    const dealHash = await c.embargo.hash(r.deal);
    const now = c.now();
    for (let attempt = 0; ; attempt++) {
      const code = c.newCode();
      try {
        const taken = await this.prisma.$transaction(async (tx) => {
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

  /** Codes of the lobbies created before `before` (the lobby sweep). */
  async lobbiesCreatedBefore(before: Date): Promise<string[]> {
    const rows = await this.prisma.race.findMany({
      where: { status: 'lobby', createdAt: { lt: before } },
      select: { code: true },
    });
    return rows.map((r) => r.code);
  }

  /** The timer facts of every room in countdown or running (races/sweeper.ts). */
  timerFacts(): Promise<RaceTimerRow[]> {
    return this.prisma.race.findMany({
      where: { status: { in: ['countdown', 'running'] } },
      select: {
        code: true,
        status: true,
        startsAt: true,
        endsAt: true,
        racers: {
          where: { forfeitAt: { not: null }, forfeited: false },
          select: { playerId: true, forfeitAt: true },
        },
      },
    });
  }

  /** Records node `nodeId`'s heartbeat at `seenAt` (several nodes). */
  async beat(nodeId: string, seenAt: Date): Promise<void> {
    await this.prisma.serverNode.upsert({
      where: { id: nodeId },
      create: { id: nodeId, seenAt },
      update: { seenAt },
    });
  }

  /** Node `nodeId`'s heartbeat row goes (it is closing). */
  async forgetNode(nodeId: string): Promise<void> {
    await this.prisma.serverNode.deleteMany({ where: { id: nodeId } });
  }

  /** Every node's last heartbeat. */
  heartbeats(): Promise<{ id: string; seenAt: Date }[]> {
    return this.prisma.serverNode.findMany({ select: { id: true, seenAt: true } });
  }

  /** The rooms holding presence rows of nodes other than `alive`. */
  async roomsWithPresenceOutside(alive: ReadonlySet<string>): Promise<Set<string>> {
    const stale = await this.prisma.racePresence.findMany({
      where: { nodeId: { notIn: [...alive] } },
      select: { raceCode: true },
    });
    return new Set(stale.map((s) => s.raceCode));
  }

  /** The index facts of every unfinished room. */
  unfinishedRooms(): Promise<RaceIndexRow[]> {
    return this.prisma.race.findMany({
      where: { status: { in: ['lobby', 'countdown', 'running'] } },
      select: INDEX_SELECT,
    });
  }

  /** Room `code`'s index facts, or null when there is no such room. */
  indexRow(code: string): Promise<RaceIndexRow | null> {
    return this.prisma.race.findUnique({ where: { code }, select: INDEX_SELECT });
  }

  /** The code of the race game `gameId` is played in, or null for a game of no race. */
  async raceOfGame(gameId: string): Promise<string | null> {
    const seat = await this.prisma.raceRacer.findUnique({ where: { gameId }, select: { raceCode: true } });
    return seat?.raceCode ?? null;
  }

  /** When room `code`'s race starts (ms), or null (no such room, or no start yet). */
  async startsAt(code: string): Promise<number | null> {
    const row = await this.prisma.race.findUnique({ where: { code }, select: { startsAt: true } });
    return row?.startsAt?.getTime() ?? null;
  }

  /** Every unfinished room, with its racers' games' last write (one node, at start-up). */
  staleRooms(): Promise<StaleRaceRow[]> {
    return this.prisma.race.findMany({
      where: { status: { in: ['lobby', 'countdown', 'running'] } },
      include: { racers: { include: { game: { select: { updatedAt: true, endedAt: true } } } } },
    });
  }

  /** Whether race `code` is rated and `playerId` already seated in it; null when there is no such race. */
  async seatOf(code: string, playerId: string): Promise<{ rated: boolean; seated: boolean } | null> {
    const race = await this.prisma.race.findUnique({
      where: { code },
      select: { rated: true, racers: { where: { playerId }, select: { playerId: true } } },
    });
    return race === null ? null : { rated: race.rated, seated: race.racers.length > 0 };
  }

  /** When player `playerId`'s account was made, or null for an unknown player. */
  async accountCreatedAt(playerId: string): Promise<Date | null> {
    const player = await this.prisma.player.findUnique({
      where: { id: playerId },
      select: { createdAt: true },
    });
    return player?.createdAt ?? null;
  }

  /** How many finished games (not playing, at least one move) `playerId` has, counting up to `upTo`. */
  finishedGames(playerId: string, upTo: number): Promise<number> {
    return this.prisma.game.count({
      where: { playerId, status: { not: 'playing' }, moves: { gt: 0 } },
      take: upTo,
    });
  }
}
