/**
 * Cluster sync: how the rooms of one node stay fresh when other nodes write the same games
 * (docs/architecture.md "Scale-out").
 *
 * Each live game is owned by one node at a time; the optimistic version check in the database refuses a
 * write from a node whose copy is behind, and the room is then re-read (`refresh`). Every commit's `state`
 * frame is published on the bus (`game:<id>`); a node whose sockets follow a game forwards the frames other
 * nodes committed to them and marks its copy `stale`, to be re-read before its next use (`room`,
 * `catchUp`). A read (`current`) compares a copy already in memory with the stored version (one primary-key
 * look-up) and re-reads it when behind, so it answers a version at least as new as every commit
 * acknowledged before it began, whichever node made it, with or without the bus. When the bus returns after
 * an outage every copy is marked stale, and the games followed here are re-read at once and their sockets
 * sent the current state.
 *
 * With one node (no bus, or the bus of one) every copy is the truth: `clustered` is false, nothing is
 * published or heard, and `room`/`current` are the directory's look-up.
 */
import type { EventBus } from '../../infra/bus/event-bus.js';
import { type Peers, type RoomRules, currentFrame, exclusive, fanOut } from './game-room.js';
import { type RemoteCommit, type Room, isRemoteCommit, reload } from './room.js';
import type { RoomDirectory } from './room-directory.js';
import type { GameStore } from './store.js';

/** The bus side of one node's rooms. */
export class ClusterSync implements Peers {
  private readonly bus: EventBus | undefined;
  private readonly stopHearingReconnects: () => void;

  /**
   * `bus`: to the other nodes (none, or one of kind `single`: one node alone); `directory`: the rooms here;
   * `store`: the stored versions; `rules`: the clock and policies of the frames sent on a catch-up.
   */
  constructor(
    bus: EventBus | undefined,
    private readonly directory: RoomDirectory,
    private readonly store: GameStore,
    private readonly rules: RoomRules,
  ) {
    this.bus = bus?.kind === 'single' ? undefined : bus;
    this.stopHearingReconnects = this.bus?.onReconnect(() => this.busReturned()) ?? (() => {});
  }

  /** Whether other nodes may write the games here. */
  get clustered(): boolean {
    return this.bus !== undefined;
  }

  /** The room of a game for a write: the directory's, caught up first when another node wrote it. */
  room(id: string): Room | Promise<Room> {
    const found = this.directory.lookup(id);
    if (found instanceof Promise || !found.stale) return found;
    return this.catchUp(found).then(() => found);
  }

  /**
   * The room for a read, at least as new as every commit acknowledged before the call on any node. One
   * node alone: its copy is the truth. Several: a copy that was already in memory (or being loaded by an
   * earlier call) is compared with the stored version, asked for at the same time, and re-read when behind.
   * Errors: `not-found`; database failures as they are (a 503 while the database is away).
   */
  async current(id: string): Promise<Room> {
    if (!this.bus || !this.directory.known(id)) return this.room(id);
    const [room, stored] = await Promise.all([this.room(id), this.store.version(id)]);
    if (stored !== null && stored > room.version) {
      room.stale = true;
      await this.catchUp(room);
    }
    return room;
  }

  /** See `Peers.freshen`. */
  async freshen(room: Room, expectedVersion: number | undefined): Promise<void> {
    if (
      expectedVersion === undefined
        ? ((await this.store.version(room.id)) ?? room.version) > room.version
        : expectedVersion > room.version
    )
      reload(room, await this.directory.read(room.id));
  }

  /** Publishes a commit of this node: its version and its `state` frame's text, on `game:<id>`. */
  publish(room: Room, version: number, frame: string): void {
    this.bus?.publish(`game:${room.id}`, { version, frame } satisfies RemoteCommit);
  }

  /** Starts or stops following the game's commits on other nodes as it gains or loses local subscribers. */
  listen(room: Room): void {
    if (!this.bus) return;
    if (room.subscribers.size > 0 && room.unlisten === null)
      room.unlisten = this.bus.subscribe(`game:${room.id}`, (m) => this.remoteCommit(room, m));
    else if (room.subscribers.size === 0 && room.unlisten !== null) {
      room.unlisten();
      room.unlisten = null;
    }
  }

  /** See `Peers.refresh`. */
  async refresh(room: Room): Promise<number> {
    reload(room, await this.directory.read(room.id));
    fanOut(room, currentFrame(this.rules, room));
    return room.version;
  }

  /** Stops following every game and the bus's returns (on shutdown, after the last write). */
  stop(): void {
    for (const r of this.directory.values()) r.unlisten?.();
    this.stopHearingReconnects();
  }

  /**
   * A commit of this game by another node: its frame goes to the sockets here (in the order that node
   * committed them), and the room is re-read from the database before its next use.
   */
  private remoteCommit(room: Room, message: unknown): void {
    if (!isRemoteCommit(message) || message.version <= Math.max(room.version, room.heard)) return;
    room.stale = true;
    room.heard = message.version;
    for (const s of room.subscribers) s.send(message.frame);
  }

  /**
   * The bus is back after an outage: any copy here may have missed commits of other nodes. Every room is
   * re-read before its next use, and the games followed here at once (their sockets get the current state).
   */
  private busReturned(): void {
    for (const room of this.directory.values()) {
      room.stale = true;
      // The database away too: the room stays stale and is re-read on its next use.
      if (room.subscribers.size > 0) this.catchUp(room).catch(() => {});
    }
  }

  /**
   * Re-reads a room another node wrote (stale), in its write queue. Its sockets are sent the state read only
   * when it is newer than every frame they already heard from the other node (the bus was away, or the read
   * overtook a frame still on its way).
   */
  private async catchUp(room: Room): Promise<void> {
    await exclusive(room, async () => {
      if (!room.stale) return;
      const told = Math.max(room.version, room.heard);
      reload(room, await this.directory.read(room.id));
      if (room.version <= told || room.subscribers.size === 0) return;
      room.heard = room.version;
      fanOut(room, currentFrame(this.rules, room));
    });
  }
}
