/**
 * One node alone, at start-up (races/service.ts, "One node alone"): a restart does not restore races, so
 * every race a previous run left in lobby, countdown or running ends as `interrupted`. Running races are
 * ranked from their games as stored and their open games resigned; lobby and countdown rooms end without
 * results.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import { type RankEntry, progressOf, ratedRacer } from './ranking.js';
import type { RaceRepository } from './repository.js';
import { type RaceRules, interruptedChange } from './transitions.js';

/** What ending the stale races takes. */
export interface InterruptOptions {
  readonly repository: RaceRepository;
  readonly rooms: GameRooms;
  readonly log: FastifyBaseLogger;
  /** The server clock, ms since the epoch. */
  readonly now: () => number;
  readonly rules: RaceRules;
  /** A race has ended: it leaves the node's index. */
  readonly ended: (code: string) => void;
  /** The server resigns a racer's game (failures logged there). */
  readonly resign: (gameId: string, owner: string) => Promise<void>;
}

/** Ends as `interrupted` every unfinished race; returns how many it ended. */
export async function interruptStale(o: InterruptOptions): Promise<number> {
  const rows = await o.repository.staleRooms();
  let ended = 0;
  for (const row of rows) {
    const now = o.now();
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
    const claimed = await o.repository.interrupt(
      row.code,
      interruptedChange(row, entries, rated, now, o.rules),
    );
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
