/**
 * The writes of race rooms (races/service.ts, the module comment's first paragraph): each operation is one
 * transaction under the room's row lock that bumps `Race.version` when it changed something, followed after
 * the commit by the games to resign, the progress events and the room published, a change of status
 * announced and the sweeper woken. It also keeps every write in flight, so that closing waits for them.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../infra/errors.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import type { RaceEvents } from './events.js';
import { type Change, type RaceRow, type Tx, lockedRow } from './repository.js';
import { indexEntryOf } from './room-index.js';
import { snapshotOf } from './snapshot.js';

/** What the writer needs. */
export interface RoomWriterOptions {
  readonly prisma: PrismaClient;
  readonly rooms: GameRooms;
  readonly events: RaceEvents;
  readonly log: FastifyBaseLogger;
  /** The server's countdown, ms (part of the room published). */
  readonly countdownMs: number;
}

/** Runs the room transactions of this node. */
export class RoomWriter {
  /** Room transactions in flight (awaited on stop). */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;

  constructor(private readonly opts: RoomWriterOptions) {}

  /** Whether the server is closing (no write is taken any more). */
  get closed(): boolean {
    return this.closing;
  }

  /** Takes no more writes; returns the writes still in flight. */
  close(): Promise<unknown>[] {
    this.closing = true;
    return [...this.inFlight];
  }

  /**
   * Runs `fn` on the room under its row lock (SELECT … FOR UPDATE) in one transaction; when it changed
   * something, bumps the version, then after the commit resigns the games it names, publishes its progress
   * events and the room, announces a change of status and wakes the sweeper for a changed timer fact.
   * Errors: `not-found`; `conflict` while the server is closing; whatever `fn` throws (nothing is changed).
   */
  async mutate<T>(
    code: string,
    fn: (race: RaceRow, tx: Tx) => Promise<Change<T>>,
  ): Promise<{ result: T; row: RaceRow }> {
    if (this.closing) throw new ApiError('conflict', 'the server is shutting down');
    return this.track(
      (async () => {
        const out = await this.opts.prisma.$transaction(async (tx) => {
          const before = await lockedRow(tx, code);
          const change = await fn(before, tx);
          if (!change.changed) return { change, before, row: before };
          await tx.race.update({ where: { code }, data: { version: { increment: 1 } } });
          return { change, before, row: await lockedRow(tx, code, false) };
        });
        const { change, before, row } = out;
        for (const g of change.resign ?? []) await this.resignGame(g.gameId, g.owner);
        if (change.changed) {
          for (const p of change.progress ?? [])
            this.opts.events.publish(code, { type: 'progress', playerId: p.playerId, progress: p.progress });
          this.publishRoom(row);
          if (row.status !== before.status) this.opts.events.announce(indexEntryOf(row));
        }
        if (change.due) this.opts.events.due();
        return { result: change.result, row };
      })(),
    );
  }

  /** Keeps `p` in the set awaited on stop. */
  track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    const done = (): void => {
      this.inFlight.delete(p);
    };
    p.then(done, done);
    return p;
  }

  /** The server resigns a racer's game (race over or forfeited); failures are logged. */
  async resignGame(gameId: string, owner: string): Promise<void> {
    try {
      await this.opts.rooms.act(gameId, { type: 'resign' }, { actor: owner });
    } catch (err) {
      if (!(err instanceof ApiError)) this.opts.log.error({ err, gameId }, 'race game resign failed');
    }
  }

  /** Publishes the room to its listeners on every node. */
  publishRoom(row: RaceRow): void {
    this.opts.events.publish(row.code, { type: 'room', room: snapshotOf(row, this.opts.countdownMs) });
  }
}
