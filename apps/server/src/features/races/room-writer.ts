/**
 * The writes of race rooms (races/service.ts, the module comment's first paragraph): each event is one
 * transaction under the room's row lock (repository.ts `mutate`) in which the pure decision
 * (transitions.ts `decide`) is taken and its change written, `Race.version` bumped when it changed
 * something; after the commit the writer tells its `finished` hook of a room the change finished, then runs
 * the decision's effects: the games to resign, the progress events and the room published, a change of
 * status announced and the sweeper woken. It also keeps every
 * write in flight, so that closing waits for them.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../infra/errors.js';
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import type { RaceEvents } from './events.js';
import type { RaceRepository, RaceRow } from './repository.js';
import { indexEntryOf } from './room-index.js';
import { snapshotOf } from './snapshot.js';
import { type RaceEvent, type RaceRules, decide } from './transitions.js';

/** What the writer needs. */
export interface RoomWriterOptions {
  readonly repository: RaceRepository;
  readonly rooms: GameRooms;
  /** The server clock, ms since the epoch (read under the row lock, for each decision). */
  readonly now: () => number;
  /** What the decisions read besides the room. */
  readonly rules: RaceRules;
  readonly events: RaceEvents;
  readonly log: FastifyBaseLogger;
  /** The server's countdown, ms (part of the room published). */
  readonly countdownMs: number;
  /** Hears a room this node's change has just finished, right after the commit, before the effects. */
  readonly finished?: (row: RaceRow) => void;
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
   * Applies `event` to room `code`: under its row lock (SELECT … FOR UPDATE) in one transaction the event is
   * decided (transitions.ts `decide`, at the server time read there) and its change written, the version
   * bumped; then after the commit tells the `finished` hook when the change finished the room, resigns the
   * games it names, publishes its progress events and the room,
   * announces a change of status and wakes the sweeper for a changed timer fact. Returns whether the room
   * changed, and the room.
   * Errors: `not-found`; `conflict` while the server is closing; the decision's refusal (nothing changes).
   */
  async apply(code: string, event: RaceEvent): Promise<{ changed: boolean; row: RaceRow }> {
    if (this.closing) throw new ApiError('conflict', 'the server is shutting down');
    return this.track(
      (async () => {
        const { decision, before, row } = await this.opts.repository.mutate(code, (race) =>
          decide(race, event, this.opts.now(), this.opts.rules),
        );
        const { change, effects } = decision;
        if (row.status === 'finished' && before.status !== 'finished') this.opts.finished?.(row);
        for (const g of effects.resign ?? []) await this.resignGame(g.gameId, g.owner);
        if (change !== null) {
          for (const p of effects.progress ?? [])
            this.opts.events.publish(code, { type: 'progress', playerId: p.playerId, progress: p.progress });
          this.publishRoom(row);
          if (row.status !== before.status) this.opts.events.announce(indexEntryOf(row));
        }
        if (effects.due) this.opts.events.due();
        return { changed: change !== null, row };
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
