/**
 * This node's race sockets (races/service.ts, "Presence"): which socket is in which room and as whom (its
 * racer, or a spectator), and the delivery of the room's events to them as `race` and `race-progress`
 * frames. A room is listened to on the `RaceEvents` channel while this node has a socket in it; a room
 * older than one already sent is dropped.
 */
import type { Race, ServerFrame } from '@klondike/protocol';
import type { Subscriber } from '../../core/rooms/game-rooms.js';
import type { RaceEvent, RaceEvents } from './events.js';
import { SPECTATORS, personalise } from './snapshot.js';

/** What the sockets need: the room channel and the server clock (ms since the epoch). */
export interface RaceSocketsOptions {
  readonly events: RaceEvents;
  readonly now: () => number;
}

/** The race sockets of this node, by room. */
export class RaceSockets {
  /** Local sockets of each room: subscriber → its racer id, or null for a spectator. */
  private readonly local = new Map<string, Map<Subscriber, string | null>>();
  /** Stop-listening functions of the rooms this node has sockets in. */
  private readonly listening = new Map<string, () => void>();
  /** Rooms each socket is in. */
  private readonly roomsOf = new Map<Subscriber, Set<string>>();
  /** Latest room version sent to this node's sockets, per room. */
  private readonly sent = new Map<string, number>();

  constructor(private readonly opts: RaceSocketsOptions) {}

  /** Whom `sub` is filed as in room `code`: its racer's id, null for a spectator, undefined when not there. */
  roleIn(code: string, sub: Subscriber): string | null | undefined {
    const members = this.local.get(code);
    return members?.has(sub) ? (members.get(sub) ?? null) : undefined;
  }

  /** Files `sub` in room `code` as `who` (a racer's id, or null for a spectator); listens to the room. */
  add(code: string, sub: Subscriber, who: string | null): void {
    let members = this.local.get(code);
    if (!members) {
      members = new Map();
      this.local.set(code, members);
      this.listening.set(
        code,
        this.opts.events.subscribe(code, (e) => this.fanOut(code, e)),
      );
    }
    members.set(sub, who);
    let mine = this.roomsOf.get(sub);
    if (!mine) {
      mine = new Set();
      this.roomsOf.set(sub, mine);
    }
    mine.add(code);
  }

  /**
   * Takes `sub` out of room `code` (the room is no longer listened to once it has no socket here). Returns
   * whom it was filed as, or undefined when it was not in the room.
   */
  remove(code: string, sub: Subscriber): string | null | undefined {
    const members = this.local.get(code);
    if (!members || !members.has(sub)) return undefined;
    const who = members.get(sub) ?? null;
    members.delete(sub);
    this.roomsOf.get(sub)?.delete(code);
    if (this.roomsOf.get(sub)?.size === 0) this.roomsOf.delete(sub);
    if (members.size === 0) {
      this.local.delete(code);
      this.listening.get(code)?.();
      this.listening.delete(code);
      this.sent.delete(code);
    }
    return who;
  }

  /** The rooms `sub` is in. */
  roomsOfSocket(sub: Subscriber): string[] {
    return [...(this.roomsOf.get(sub) ?? [])];
  }

  /** Whether this node has a socket in room `code`. */
  has(code: string): boolean {
    return this.local.has(code);
  }

  /** This node's sockets in room `code` of `viewer` (a racer's id, or SPECTATORS). */
  count(code: string, viewer: string): number {
    let sockets = 0;
    for (const who of this.local.get(code)?.values() ?? []) if ((who ?? SPECTATORS) === viewer) sockets++;
    return sockets;
  }

  /** Sends one socket the room as its viewer sees it. */
  send(sub: Subscriber, race: Race): void {
    sub.send(JSON.stringify({ type: 'race', race } satisfies ServerFrame));
  }

  /** Stops listening to every room (server closing). */
  stop(): void {
    for (const off of this.listening.values()) off();
    this.listening.clear();
  }

  /** Delivers a room event to this node's sockets of the room (a room older than one already sent: dropped). */
  private fanOut(code: string, event: RaceEvent): void {
    const members = this.local.get(code);
    if (!members) return;
    if (event.type === 'progress') {
      const text = JSON.stringify({
        type: 'race-progress',
        code,
        playerId: event.playerId,
        progress: event.progress,
      } satisfies ServerFrame);
      for (const sub of members.keys()) sub.send(text);
      return;
    }
    const last = this.sent.get(code);
    if (last !== undefined && event.room.version < last) return;
    this.sent.set(code, event.room.version);
    for (const [sub, who] of members) {
      sub.send(
        JSON.stringify({
          type: 'race',
          race: personalise(event.room, who, this.opts.now()),
        } satisfies ServerFrame),
      );
    }
  }
}
