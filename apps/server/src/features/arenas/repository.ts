/**
 * The arenas' rows (`Arena`, `ArenaPlayer`, `ArenaRace`) and what the arenas read of races and ratings: the
 * only file of arenas/ that speaks to the database. The tick is one transaction under the advisory lock
 * `arenas` (one node at a time, the others skip), in which the decisions of tick.ts are taken between the
 * reads and the writes (arenas/service.ts, the module comment).
 */
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { racePool } from '../ratings/service.js';
import {
  type ArenaPlayerState,
  type ArenaPlayerWrite,
  type BerserkGame,
  type FinishedArenaRace,
  arenaSettles,
  expireClaims,
  pairsAhead,
  pairsToClaim,
  scoreRaces,
  waitingPlayers,
} from './tick.js';

const ARENA_INCLUDE = {
  players: { include: { player: { select: { name: true, markedAt: true, closedAt: true } } } },
} as const satisfies Prisma.ArenaInclude;
/** An arena's row with its players' rows and names. */
export type ArenaRow = Prisma.ArenaGetPayload<{ include: typeof ARENA_INCLUDE }>;
/** An arena's row with its count of players (the list). */
export type ArenaListRow = Prisma.ArenaGetPayload<{ include: { _count: { select: { players: true } } } }>;

/** A new arena's row. */
export interface NewArena {
  readonly id: string;
  readonly name: string;
  readonly preset: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly rated: boolean;
  readonly inviteCode: string | null;
  readonly bots: boolean;
  readonly raceTimeLimitMs: number;
  readonly createdBy: string;
  readonly createdAt: Date;
}

/** A schedule slot's arena (arenas/schedule.ts). */
export interface ScheduledArena {
  readonly id: string;
  readonly name: string;
  readonly preset: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly raceTimeLimitMs: number;
  readonly scheduleKey: string;
  readonly createdAt: Date;
}

/** What the arena's race is made from: its id, preset, rating and race time limit. */
export interface ArenaRaceSettings {
  readonly id: string;
  readonly preset: string;
  readonly rated: boolean;
  readonly raceTimeLimitMs: number;
}

/**
 * What one tick did: the arenas changed, the pairs claimed, the next unfinished arena's start (ms), and the
 * certified deals the running arenas' pairings may need soon, by preset (tick.ts `pairsAhead`).
 */
export interface TickResult {
  readonly changed: Set<string>;
  readonly claims: { arena: ArenaRaceSettings; pair: [string, string] }[];
  readonly nextStart: number | null;
  readonly dealsWanted: Map<string, number>;
  /** The end (`Race.endedAt`, ms) of each race this tick scored. */
  readonly scoredEndedAt: number[];
}

/** The arenas' rows. */
export class ArenaRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Arenas not yet started and arenas under way at `now` (metrics: `klondike_arenas`). */
  async countsAt(now: Date): Promise<{ upcoming: number; running: number }> {
    const [upcoming, running] = await Promise.all([
      this.prisma.arena.count({ where: { startsAt: { gt: now } } }),
      this.prisma.arena.count({ where: { startsAt: { lte: now }, endsAt: { gt: now } } }),
    ]);
    return { upcoming, running };
  }

  /** Stores a new arena. */
  async create(a: NewArena): Promise<void> {
    await this.prisma.arena.create({ data: { ...a } });
  }

  /** Stores a schedule slot's arena unless its slot exists; returns whether it was made. */
  async createScheduled(a: ScheduledArena): Promise<boolean> {
    const r = await this.prisma.arena.createMany({ data: [{ ...a }], skipDuplicates: true });
    return r.count > 0;
  }

  /** Arena `id` with its players' rows and names, or null. */
  load(id: string): Promise<ArenaRow | null> {
    return this.prisma.arena.findUnique({ where: { id }, include: ARENA_INCLUDE });
  }

  /**
   * The arenas `viewer` may see at `now` (open ones, and invite-only ones they made or play in): those not
   * ended — the official (scheduled) ones first, by start, at most 100, then the players' ones, by start, at
   * most 100, so players' arenas never push an official one off the list — and the last `finishedListed`
   * ended ones (newest first).
   */
  async list(
    viewer: string | null,
    now: Date,
    finishedListed: number,
  ): Promise<{ open: ArenaListRow[]; finished: ArenaListRow[] }> {
    const visible = {
      OR: [
        { inviteCode: null },
        ...(viewer === null ? [] : [{ createdBy: viewer }, { players: { some: { playerId: viewer } } }]),
      ],
    };
    const [official, players, finished] = await Promise.all([
      this.prisma.arena.findMany({
        where: { endsAt: { gt: now }, finishedAt: null, scheduleKey: { not: null }, ...visible },
        orderBy: { startsAt: 'asc' },
        take: 100,
        include: { _count: { select: { players: true } } },
      }),
      this.prisma.arena.findMany({
        where: { endsAt: { gt: now }, finishedAt: null, scheduleKey: null, ...visible },
        orderBy: { startsAt: 'asc' },
        take: 100,
        include: { _count: { select: { players: true } } },
      }),
      this.prisma.arena.findMany({
        where: { OR: [{ endsAt: { lte: now } }, { finishedAt: { not: null } }], AND: visible },
        orderBy: { endsAt: 'desc' },
        take: finishedListed,
        include: { _count: { select: { players: true } } },
      }),
    ]);
    return { open: [...official, ...players], finished };
  }

  /** How many public (not invite-only), player-made arenas `createdBy` has upcoming or running at `now`. */
  openPublicCount(createdBy: string, now: Date): Promise<number> {
    return this.prisma.arena.count({
      where: { createdBy, inviteCode: null, scheduleKey: null, endsAt: { gt: now }, finishedAt: null },
    });
  }

  /**
   * `playerId` joins arena `id` at `now`, waiting from then (one arena at a time: they are paused in any
   * other). A player back from a pause, in no race, waits from `now` again.
   */
  async join(id: string, playerId: string, now: Date, backFromPause: boolean): Promise<void> {
    await this.prisma.arenaPlayer.updateMany({
      where: { playerId, arenaId: { not: id }, paused: false },
      data: { paused: true, waitingSince: null },
    });
    await this.prisma.arenaPlayer.upsert({
      where: { arenaId_playerId: { arenaId: id, playerId } },
      create: { arenaId: id, playerId, joinedAt: now, waitingSince: now },
      update: { paused: false, ...(backFromPause ? { waitingSince: now } : {}) },
    });
  }

  /** Pauses `playerId` in arena `id` (no new pairings). */
  async pause(id: string, playerId: string): Promise<void> {
    await this.prisma.arenaPlayer.updateMany({
      where: { arenaId: id, playerId },
      data: { paused: true, waitingSince: null },
    });
  }

  /** `playerId`'s race code in arena `id` ('' while being made), or null. */
  async raceOf(id: string, playerId: string): Promise<string | null> {
    const me = await this.prisma.arenaPlayer.findUnique({
      where: { arenaId_playerId: { arenaId: id, playerId } },
    });
    return me?.raceCode ?? null;
  }

  /**
   * One tick at server time `now` (ms), in one transaction under the lock `arenas`; null when another node
   * holds it. For each live arena (started, not finished): its finished races not yet scored are claimed
   * (`scoredAt`) and scored; while it runs, stale claims wait again and its waiting players are paired and
   * claimed (`raceCode` ''); past its end with every race scored and no race being made, it is finished.
   */
  tick(now: number): Promise<TickResult | null> {
    return this.prisma.$transaction(async (tx) => {
      const lock = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
        `SELECT pg_try_advisory_xact_lock(hashtext('arenas')) AS locked`,
      );
      if (lock[0]?.locked !== true) return null;
      const live = await tx.arena.findMany({
        where: { finishedAt: null, startsAt: { lte: new Date(now) } },
        include: { players: true, races: { where: { scoredAt: null } } },
      });
      const changed = new Set<string>();
      const claims: TickResult['claims'] = [];
      const dealsWanted = new Map<string, number>();
      const scoredEndedAt: number[] = [];
      const write = async (arenaId: string, writes: readonly ArenaPlayerWrite[]): Promise<void> => {
        for (const w of writes)
          await tx.arenaPlayer.update({
            where: { arenaId_playerId: { arenaId, playerId: w.playerId } },
            data: { ...w.set },
          });
      };
      for (const arena of live) {
        const running = arena.endsAt.getTime() > now;
        // 1. Score the finished races (once).
        const codes = arena.races.map((r) => r.raceCode);
        const finished = codes.length
          ? await tx.race.findMany({
              where: { code: { in: codes }, status: 'finished' },
              include: { racers: true },
            })
          : [];
        const claimed: FinishedArenaRace[] = [];
        for (const race of finished) {
          const claim = await tx.arenaRace.updateMany({
            where: { raceCode: race.code, scoredAt: null },
            data: { scoredAt: new Date(now) },
          });
          if (claim.count === 1) {
            claimed.push(race);
            if (race.endedAt !== null) scoredEndedAt.push(race.endedAt.getTime());
          }
        }
        const scored = scoreRaces(arena.players, claimed, running, now);
        await write(arena.id, scored.writes);
        if (claimed.length > 0) changed.add(arena.id);
        let players: ArenaPlayerState[] = scored.players;
        // 2. Pair the waiting players while the arena runs (stale claims wait again).
        if (running) {
          const expired = expireClaims(players, now);
          await write(arena.id, expired.writes);
          players = expired.players;
          const ready = waitingPlayers(players);
          const ratings = ready.length
            ? await tx.rating.findMany({
                where: { pool: racePool(arena.preset) ?? '', playerId: { in: ready.map((p) => p.playerId) } },
              })
            : [];
          const pairs = pairsToClaim(players, new Map(ratings.map((r) => [r.playerId, r.rating])), now);
          if (pairs.length > 0) {
            await tx.arenaPlayer.updateMany({
              where: { arenaId: arena.id, playerId: { in: pairs.flat() } },
              data: { raceCode: '', waitingSince: new Date(now) },
            });
            for (const pair of pairs) claims.push({ arena, pair });
            changed.add(arena.id);
          }
        }
        dealsWanted.set(arena.preset, (dealsWanted.get(arena.preset) ?? 0) + pairsAhead(players, running));
        // 3. The end: every race counted.
        if (arenaSettles(players, running, arena.races.length - finished.length, now)) {
          await tx.arena.update({ where: { id: arena.id }, data: { finishedAt: new Date(now) } });
          await tx.arenaPlayer.updateMany({
            where: { arenaId: arena.id },
            data: { waitingSince: null, raceCode: null },
          });
          changed.add(arena.id);
        }
      }
      const next = await tx.arena.findFirst({
        where: { finishedAt: null },
        orderBy: { startsAt: 'asc' },
        select: { startsAt: true },
      });
      return { changed, claims, nextStart: next?.startsAt.getTime() ?? null, dealsWanted, scoredEndedAt };
    });
  }

  /** A claimed pair of arena `arenaId` waits again from `now` (their race could not be made). */
  async waitAgain(arenaId: string, pair: readonly string[], now: Date): Promise<void> {
    await this.prisma.arenaPlayer.updateMany({
      where: { arenaId, playerId: { in: [...pair] }, raceCode: '' },
      data: { raceCode: null, waitingSince: now },
    });
  }

  /** A claimed pair of arena `arenaId` races in `code` (the race is the arena's, to be scored). */
  async raced(arenaId: string, pair: readonly string[], code: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.arenaRace.create({ data: { raceCode: code, arenaId } }),
      this.prisma.arenaPlayer.updateMany({
        where: { arenaId, playerId: { in: [...pair] }, raceCode: '' },
        data: { raceCode: code, waitingSince: null },
      }),
    ]);
  }

  /** The berserk racers' games of running arena races. */
  async berserkGames(): Promise<BerserkGame[]> {
    const racers = await this.prisma.raceRacer.findMany({
      where: { berserk: true, gameId: { not: null }, race: { status: 'running', arenaId: { not: null } } },
      include: {
        race: { select: { startsAt: true, timeLimitMs: true } },
        game: { select: { status: true } },
      },
    });
    return racers.map((r) => ({
      gameId: r.gameId,
      playerId: r.playerId,
      startsAt: r.race.startsAt,
      timeLimitMs: r.race.timeLimitMs,
      gameStatus: r.game?.status ?? null,
    }));
  }
}
