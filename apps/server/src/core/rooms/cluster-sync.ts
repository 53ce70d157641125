/**
 * Cluster sync: how the rooms of one node stay fresh when other nodes write the same games
 * (docs/architecture.md "Scale-out").
 *
 * Each live game is owned by one node at a time; the optimistic version check in the database refuses a
 * write from a node whose copy is behind, and the room is then re-read (`refresh`). A node whose sockets
 * follow a game watches its bus topic `game:<id>`, and every commit's `state` frame is sent on that topic to
 * the other nodes watching it, and to no one when none does (bus/event-bus.ts `send`); a watching node
 * forwards the frames other nodes committed to its sockets and marks its copy `stale`, to be re-read before
 * its next use (`room`, `catchUp`). The other nodes learn of a new watch over the bus, so a commit made
 * meanwhile may not reach it: once they have heard of it (`watch`'s `settled`) the node compares its
 * sockets' version with the stored one and catches up when behind (`settled`). A read (`current`) compares a copy already in memory with the stored version (one primary-key
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

/**
 * After a new watch has settled, how long a stored version newer than the sockets' is given to arrive as a
 * frame before the room catches up from the database, ms.
 */
export const SETTLE_GRACE_MS = 250;

/** The bus side of one node's rooms. */
export class ClusterSync implements Peers {
  private readonly bus: EventBus | undefined;
  private readonly stopHearingReconnects: () => void;

  /**
   * `bus`: to the other nodes (none, or one of kind `single`: one node alone); `directory`: the rooms here;
   * `store`: the stored versions; `rules`: the clock and policies of the frames sent on a catch-up;
   * `graceMs`: see `SETTLE_GRACE_MS`.
   */
  constructor(
    bus: EventBus | undefined,
    private readonly directory: RoomDirectory,
    private readonly store: GameStore,
    private readonly rules: RoomRules,
    private readonly graceMs = SETTLE_GRACE_MS,
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

  /**
   * Sends a commit of this node to the other nodes watching the game: its version and its `state` frame's
   * text, on topic `game:<id>` (nothing leaves the node when no other node watches it).
   */
  publish(room: Room, version: number, frame: string): void {
    this.bus?.send(`game:${room.id}`, { version, frame } satisfies RemoteCommit);
  }

  /** Starts or stops following the game's commits on other nodes as it gains or loses local subscribers. */
  listen(room: Room): void {
    if (!this.bus) return;
    if (room.subscribers.size > 0 && room.unlisten === null)
      room.unlisten = this.bus.watch(
        `game:${room.id}`,
        (m) => this.remoteCommit(room, m),
        () => this.settled(room),
      );
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
   * The other nodes have heard that this node watches the game: a commit they made before may have missed
   * it. When the stored version is newer than what the sockets here were told, and still is `graceMs`
   * later (a frame that was on its way has arrived by then), the room catches up (its sockets get the
   * current state). One primary-key look-up; errors are dropped (the next frame's version gap makes the
   * sockets resync).
   */
  private settled(room: Room): void {
    if (room.subscribers.size === 0) return;
    const behind = (stored: number | null): stored is number =>
      stored !== null && stored > Math.max(room.version, room.heard);
    this.store.version(room.id).then(
      (stored) => {
        if (!behind(stored)) return;
        setTimeout(() => {
          if (!behind(stored) || room.subscribers.size === 0) return;
          room.stale = true;
          this.catchUp(room).catch(() => {});
        }, this.graceMs).unref();
      },
      () => {},
    );
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
      // `heard` again: a frame may have arrived during the read.
      if (room.version <= Math.max(told, room.heard) || room.subscribers.size === 0) return;
      room.heard = room.version;
      fanOut(room, currentFrame(this.rules, room));
    });
  }
}
