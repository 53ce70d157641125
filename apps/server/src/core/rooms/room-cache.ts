/**
 * The games a node holds in memory (rooms/game-rooms.ts): its rooms in the order of last use, at most
 * `maxLiveGames` of them when enough are idle, and the loads in progress (one per game at a time). An idle
 * room (no subscriber, no write queued) may be dropped at any time: its next use replays it from the store.
 */
import type { Room } from './room.js';

/** The rooms in memory, least recently used first. */
export class RoomCache {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room>>();

  /** `maxLiveGames`: how many rooms are kept before idle ones are dropped (GameRoomsOptions.maxLiveGames). */
  constructor(private readonly maxLiveGames: number) {}

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

  /** The load of game `id` in progress, or a new one by `load` (kept until it settles). */
  loadOnce(id: string, load: () => Promise<Room>): Promise<Room> {
    let loading = this.loading.get(id);
    if (!loading) {
      loading = load().finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
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

  /** Drops every room. */
  clear(): void {
    this.rooms.clear();
  }
}
