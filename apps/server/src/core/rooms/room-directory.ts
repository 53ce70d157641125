/**
 * The room directory: the games a node holds in memory. It finds a game's room (`lookup`: the one in memory,
 * or one read from the store and replayed, one load per game at a time), keeps its rooms in the order of
 * last use, at most `maxLiveGames` of them when enough are idle, forgets an idle one (`evict`: no subscriber,
 * no write queued; its next use replays it from the store) and waits for every queued write on shutdown
 * (`drain`). It knows nothing of other nodes: a room another node wrote is marked `stale` by the cluster
 * sync (cluster-sync.ts), which catches it up.
 */
import { ApiError } from '../../infra/errors.js';
import { type Room, type Stored, liveRoom, replayed } from './room.js';
import type { GameStore } from './store.js';

/** The rooms in memory, least recently used first, and the loads in progress. */
export class RoomDirectory {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room>>();

  /**
   * `store` holds the games; `maxLiveGames`: how many rooms are kept before idle ones are dropped
   * (GameRoomsOptions.maxLiveGames).
   */
  constructor(
    private readonly store: GameStore,
    private readonly maxLiveGames: number,
  ) {}

  /** Rooms in memory. */
  get size(): number {
    return this.rooms.size;
  }

  /** The room of game `id` when in memory (its place in the order unchanged). */
  get(id: string): Room | undefined {
    return this.rooms.get(id);
  }

  /** Whether game `id` is in memory or being loaded. */
  known(id: string): boolean {
    return this.rooms.has(id) || this.loading.has(id);
  }

  /** Every room in memory. */
  values(): IterableIterator<Room> {
    return this.rooms.values();
  }

  /**
   * The room of game `id`: the room itself when it is in memory (no promise to wait for on every move; it
   * may be stale), else a promise of it loaded from the store (one load per game at a time).
   * Errors (the promise): `not-found`; database failures as they are.
   */
  lookup(id: string): Room | Promise<Room> {
    const cached = this.rooms.get(id);
    if (cached) {
      // Most recently used last. A room with subscribers is never evicted, so its place in that order
      // matters only once its last subscriber leaves, which touches it then (`touch`).
      if (cached.subscribers.size === 0) this.touch(cached);
      return cached;
    }
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  /** Reads game `id` and its log from the store, and replays it from the deal. Errors: `not-found`. */
  async read(id: string): Promise<Stored> {
    const row = await this.store.load(id);
    if (!row) throw new ApiError('not-found', `no game ${id}`);
    return replayed(row);
  }

  /** Moves a room to the most recently used end of the order. */
  touch(room: Room): void {
    this.rooms.delete(room.id);
    this.rooms.set(room.id, room);
  }

  /** Keeps a room (most recently used), dropping the least recently used idle others beyond the bound. */
  add(room: Room): void {
    this.rooms.set(room.id, room);
    if (this.rooms.size <= this.maxLiveGames) return;
    for (const [id, r] of this.rooms) {
      if (this.rooms.size <= this.maxLiveGames) break;
      if (r.subscribers.size === 0 && r.pending === 0 && r !== room) this.rooms.delete(id);
    }
  }

  /** Drops the room of game `id` if it is idle (no subscribers, no queued write); returns whether it was. */
  evict(id: string): boolean {
    const room = this.rooms.get(id);
    if (!room || room.subscribers.size > 0 || room.pending > 0) return false;
    return this.rooms.delete(id);
  }

  /** Resolves once every write queued in a room now has settled (on shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.rooms.values()].map((r) => r.tail));
  }

  /** Drops every room. */
  clear(): void {
    this.rooms.clear();
  }

  private async load(id: string): Promise<Room> {
    const room = liveRoom(await this.read(id));
    // A concurrent create/load may have raced us; keep the first.
    const existing = this.rooms.get(id);
    if (existing) return existing;
    this.add(room);
    return room;
  }
}
