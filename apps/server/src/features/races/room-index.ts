/**
 * This node's index of the cluster's unfinished race rooms (races/service.ts): each room's status, start
 * and game ids, as `announce`d after each change of status on any node and reloaded from the rows at
 * start-up and at every heartbeat. It answers which race a game is in, and guards a racer's game while its
 * race is on. A cache: the rows are the truth.
 */
import { ApiError } from '../../infra/errors.js';
import type { Actor } from '../../core/rooms/game-rooms.js';
import type { RaceIndexEntry } from './events.js';
import type { RaceIndexRow, RaceRepository } from './repository.js';

/** The index entry of a room, from its rows (its `Race` row and its racers' game ids). */
export function indexEntryOf(row: RaceIndexRow): RaceIndexEntry {
  const gameIds: Record<string, string> = {};
  for (const r of row.racers) if (r.gameId !== null) gameIds[r.playerId] = r.gameId;
  return { code: row.code, status: row.status, startsAt: row.startsAt?.getTime() ?? null, gameIds };
}

/** How many codes of finished rooms an index remembers (oldest forgotten first). */
export const ENDED_REMEMBERED = 10_000;

/** The unfinished rooms this node knows of. */
export class RaceIndex {
  /** code → where the room stands. */
  private readonly known = new Map<string, RaceIndexEntry>();
  /** game id → its race's code. */
  private readonly raceOfGame = new Map<string, string>();
  /** Codes of rooms known to have finished (or gone), oldest first: a finished race never runs again. */
  private readonly ended = new Set<string>();

  /** `onForget`: called with a room's code when it leaves the index (finished, or gone). */
  constructor(private readonly onForget: (code: string) => void) {}

  /** Records a room (or drops it once finished). */
  record(e: RaceIndexEntry): void {
    if (e.status === 'finished') {
      this.forget(e.code);
      return;
    }
    const old = this.known.get(e.code);
    if (old) for (const g of Object.values(old.gameIds)) this.raceOfGame.delete(g);
    this.ended.delete(e.code);
    this.known.set(e.code, e);
    for (const g of Object.values(e.gameIds)) this.raceOfGame.set(g, e.code);
  }

  /** Drops a room (it has finished, or is gone). */
  forget(code: string): void {
    const old = this.known.get(code);
    if (old) for (const g of Object.values(old.gameIds)) this.raceOfGame.delete(g);
    this.known.delete(code);
    this.remember(code);
    this.onForget(code);
  }

  /** Remembers room `code` as finished (bounded: the oldest code is forgotten past ENDED_REMEMBERED). */
  private remember(code: string): void {
    this.ended.delete(code);
    this.ended.add(code);
    if (this.ended.size > ENDED_REMEMBERED) {
      const oldest = this.ended.values().next().value;
      if (oldest !== undefined) this.ended.delete(oldest);
    }
  }

  /** Where room `code` stands, or undefined when it is not an unfinished room known here. */
  get(code: string): RaceIndexEntry | undefined {
    return this.known.get(code);
  }

  /**
   * The race game `gameId` is in and when that race started (ms), from the index, else from the rows (a
   * room this node has not heard of yet); null for a game of no race, or of a race not started.
   */
  async startOfGame(
    repository: RaceRepository,
    gameId: string,
  ): Promise<{ code: string; startsAt: number } | null> {
    const code = this.raceOfGame.get(gameId) ?? (await repository.raceOfGame(gameId));
    if (code === null) return null;
    const startsAt = this.known.get(code)?.startsAt ?? (await repository.startsAt(code));
    return startsAt === null ? null : { code, startsAt };
  }

  /** Rooms in the index. */
  get size(): number {
    return this.known.size;
  }

  /**
   * Reloads the unfinished rooms from the rows; a room known here but not among them is dropped once the
   * database says it has finished (or is gone), unless a newer announcement came in while the query ran.
   */
  async load(repository: RaceRepository): Promise<void> {
    const rows = await repository.unfinishedRooms();
    const seen = new Set<string>();
    for (const r of rows) {
      seen.add(r.code);
      this.record(indexEntryOf(r));
    }
    for (const code of [...this.known.keys()])
      if (!seen.has(code)) {
        const still = await repository.indexRow(code);
        if (!still || still.status === 'finished') this.forget(code);
      }
  }

  /**
   * While a race is on, a racer's game is readable by that racer only, and its deal by nobody. `raceCode`:
   * the game's race (GameFacts.raceCode). A room the index misses is neither assumed finished nor allowed:
   * unless remembered as finished, it is looked up in the rows (its announcement may be late or lost), so
   * the read is decided as on a node that knows the room. Errors: `forbidden`, `unauthorized` (no actor).
   */
  async guard(
    repository: RaceRepository,
    gameId: string,
    raceCode: string | null,
    actor: Actor,
    what: 'read' | 'reveal',
  ): Promise<void> {
    const code = raceCode ?? this.raceOfGame.get(gameId);
    if (code === undefined) return; // a game of no race
    const race =
      this.known.get(code) ?? (this.ended.has(code) ? undefined : await this.lookUp(repository, code));
    if (!race || race.status === 'finished') return;
    if (what === 'reveal')
      throw new ApiError('forbidden', 'the deal of a race stays secret until the race has finished');
    if (actor === null) throw new ApiError('unauthorized', "this is a racer's game: send that racer's token");
    const owner = Object.entries(race.gameIds).find(([, g]) => g === gameId)?.[0];
    if (owner !== actor) throw new ApiError('forbidden', "another racer's game cannot be seen");
  }

  /**
   * Room `code` from its rows, for a read the index missed: its entry while unfinished (not recorded: a
   * newer announcement may be on its way, and the index stays fed by announcements and reloads only), else
   * undefined, remembering it as finished.
   */
  private async lookUp(repository: RaceRepository, code: string): Promise<RaceIndexEntry | undefined> {
    const row = await repository.indexRow(code);
    if (row === null || row.status === 'finished') {
      this.remember(code);
      return undefined;
    }
    return indexEntryOf(row);
  }
}
