/**
 * Race room events: the ONE channel every change of a race room goes through (RaceService publishes, the
 * sockets subscribed to the room on this node hear it). The in-process implementation below is what a single
 * node needs; for several nodes a Redis pub/sub implementation slots in behind the same interface (channel
 * `race:<code>`, events as JSON — they are plain data), so a room's sockets may live on any node.
 *
 * Events are server-internal: a `room` event carries every racer's game id, which the fan-out hands only to
 * that racer (`yourGameId`). They never carry a card.
 */
import type { Race, RaceProgressSchema } from '@klondike/protocol';
import type { EventBus } from '../bus/event-bus.js';
import type { z } from 'zod';

/** A racer's progress (counts only). */
export type RaceProgress = z.infer<typeof RaceProgressSchema>;

/** A race room as everyone sees it, plus the racers' game ids (the fan-out personalises it per viewer). */
export interface RaceSnapshot extends Omit<Race, 'you' | 'yourGameId' | 'serverNow'> {
  /** playerId → game id, once the race has started. Internal: each viewer gets only their own. */
  readonly gameIds: Readonly<Record<string, string>>;
}

/** Something that happened in a race room. */
export type RaceEvent =
  | { readonly type: 'room'; readonly room: RaceSnapshot }
  | { readonly type: 'progress'; readonly playerId: string; readonly progress: RaceProgress };

/** Listener of one room's events. */
export type RaceEventListener = (event: RaceEvent) => void;

/** Publish/subscribe of race room events, by invite code. */
export interface RaceEvents {
  /** Delivers `event` to every listener of room `code` (on every node, for a distributed implementation). */
  publish(code: string, event: RaceEvent): void;
  /** Listens to room `code`; returns the function that stops listening. */
  subscribe(code: string, listener: RaceEventListener): () => void;
}

/** The single-node implementation: synchronous delivery to the listeners of this process. */
export class InProcessRaceEvents implements RaceEvents {
  private readonly listeners = new Map<string, Set<RaceEventListener>>();

  /** See `RaceEvents.publish`. A listener that throws does not stop the others. */
  publish(code: string, event: RaceEvent): void {
    const set = this.listeners.get(code);
    if (!set) return;
    for (const l of [...set]) {
      try {
        l(event);
      } catch {
        // a listener's failure is its own (sockets never throw)
      }
    }
  }

  /** See `RaceEvents.subscribe`. */
  subscribe(code: string, listener: RaceEventListener): () => void {
    let set = this.listeners.get(code);
    if (!set) {
      set = new Set();
      this.listeners.set(code, set);
    }
    set.add(listener);
    return () => {
      const s = this.listeners.get(code);
      if (!s) return;
      s.delete(listener);
      if (s.size === 0) this.listeners.delete(code);
    };
  }
}

/**
 * Several nodes: events go to this node's listeners at once and, through the bus (channel `race:<code>`),
 * to the listeners of every other node. A node listens on the bus for a room while it has local listeners.
 */
export class BusRaceEvents implements RaceEvents {
  private readonly local = new InProcessRaceEvents();
  private readonly remote = new Map<string, { count: number; unlisten: () => void }>();

  constructor(private readonly bus: EventBus) {}

  /** See `RaceEvents.publish`. */
  publish(code: string, event: RaceEvent): void {
    this.local.publish(code, event);
    this.bus.publish(`race:${code}`, event);
  }

  /** See `RaceEvents.subscribe`. */
  subscribe(code: string, listener: RaceEventListener): () => void {
    const stop = this.local.subscribe(code, listener);
    let entry = this.remote.get(code);
    if (!entry) {
      // Events of the other nodes are plain data they published with `publish` above.
      const unlisten = this.bus.subscribe(`race:${code}`, (m) => this.local.publish(code, m as RaceEvent));
      entry = { count: 0, unlisten };
      this.remote.set(code, entry);
    }
    entry.count++;
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      stop();
      const e = this.remote.get(code);
      if (!e || --e.count > 0) return;
      e.unlisten();
      this.remote.delete(code);
    };
  }
}
