/**
 * One node alone, at start-up (races/service.ts, "One node alone"): a restart does not restore races, so
 * every race a previous run left in lobby, countdown or running ends as `interrupted`. Running races are
 * ranked from their games as stored and their open games resigned; lobby and countdown rooms end without
 * results.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import { type RankEntry, progressOf, rankRacers, ratedRacer } from './ranking.js';
import type { Tx } from './repository.js';
import { type TransitionContext, rateIn } from './transitions.js';

/** What ending the stale races takes. */
export interface InterruptOptions {
  readonly prisma: PrismaClient;
  readonly rooms: GameRooms;
  readonly log: FastifyBaseLogger;
  readonly rules: TransitionContext;
  /** A race has ended: it leaves the node's index. */
  readonly ended: (code: string) => void;
  /** The server resigns a racer's game (failures logged there). */
  readonly resign: (gameId: string, owner: string) => Promise<void>;
}

/** Ends as `interrupted` every unfinished race; returns how many it ended. */
export async function interruptStale(o: InterruptOptions): Promise<number> {
  const rows = await o.prisma.race.findMany({
    where: { status: { in: ['lobby', 'countdown', 'running'] } },
    include: { racers: { include: { game: { select: { updatedAt: true, endedAt: true } } } } },
  });
  let ended = 0;
  for (const row of rows) {
    const now = o.rules.now();
    const startsAt = row.startsAt?.getTime() ?? now;
    const entries: RankEntry[] = [];
    for (const r of row.racers) {
      if (r.gameId === null || r.game === null) continue;
      try {
        const game = await o.rooms.get(r.gameId, r.playerId);
        const end = r.game.endedAt ?? r.game.updatedAt;
        entries.push({
          playerId: r.playerId,
          seat: r.seat,
          progress: progressOf(game.view, end.getTime() - startsAt),
        });
      } catch (err) {
        o.log.error({ err, code: row.code }, 'interrupted race: game unreadable');
      }
    }
    const rated = new Set(
      entries
        .filter((e) =>
          ratedRacer(row.racers.find((r) => r.playerId === e.playerId)?.connectedAt ?? null, e.progress),
        )
        .map((e) => e.playerId),
    );
    const claimed = await o.prisma.$transaction((tx) => interruptIn(tx, row, entries, rated, now, o.rules));
    if (!claimed) continue;
    ended++;
    o.ended(row.code);
    for (const e of entries) {
      const r = row.racers.find((x) => x.playerId === e.playerId);
      if (r?.gameId && (e.progress.status === 'playing' || e.progress.status === 'blocked'))
        await o.resign(r.gameId, e.playerId);
    }
  }
  return ended;
}

/**
 * One node alone, at start-up: ends a previous run's unfinished race as `interrupted`, its racers placed by
 * `entries` (their games as stored, read at server time `now`, ms), in one transaction of its own; only the
 * racers in `rated` (not void, ranking.ts `ratedRacer`) are rated. Returns false when the race had ended
 * meanwhile (nothing changed).
 */
async function interruptIn(
  tx: Tx,
  row: { code: string; rated: boolean; preset: string | null },
  entries: readonly RankEntry[],
  rated: ReadonlySet<string>,
  now: number,
  c: TransitionContext,
): Promise<boolean> {
  const places = rankRacers(entries);
  const claimed = await tx.race.updateMany({
    where: { code: row.code, status: { in: ['lobby', 'countdown', 'running'] } },
    data: {
      status: 'finished',
      endedAt: new Date(now),
      endReason: 'interrupted',
      endsAt: null,
      version: { increment: 1 },
    },
  });
  if (claimed.count !== 1) return false;
  await tx.racePresence.deleteMany({ where: { raceCode: row.code } });
  for (const e of entries)
    await tx.raceRacer.update({
      where: { raceCode_playerId: { raceCode: row.code, playerId: e.playerId } },
      data: { placement: places.get(e.playerId) ?? null, progress: { ...e.progress }, forfeitAt: null },
    });
  await rateIn(
    tx,
    row,
    now,
    entries.flatMap((e) => {
      const placement = places.get(e.playerId);
      return placement === undefined || !rated.has(e.playerId) ? [] : [{ playerId: e.playerId, placement }];
    }),
    c,
  );
  return true;
}
