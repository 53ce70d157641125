/**
 * Race room events: the ONE channel every change of a race room goes through (RaceService publishes after
 * each committed change, the sockets subscribed to the room on every node hear it). Two implementations:
 * in-process (one node) and through the event bus (several nodes: topic `race:<code>` per room, sent only
 * to the other nodes with a socket in the room; channels `races` for the room index every node keeps and
 * `races:due` to wake the cluster's race sweeper); events are plain JSON data.
 *
 * Events are server-internal: a `room` event carries every racer's game id, which the fan-out hands only to
 * that racer (`yourGameId`). They never carry a card.
 */
import type { Race, RaceProgressSchema } from '@klondike/protocol';
import type { EventBus } from '../../infra/bus/event-bus.js';
import type { z } from 'zod';

/** A racer's progress (counts only). */
export type RaceProgress = z.infer<typeof RaceProgressSchema>;

/** A race room as everyone sees it, plus the racers' game ids (the fan-out personalises it per viewer). */
export interface RaceSnapshot extends Omit<Race, 'you' | 'yourGameId' | 'serverNow'> {
  /** playerId → game id, once the race has started. Internal: each viewer gets only their own. */
  readonly gameIds: Readonly<Record<string, string>>;
  /** Race.version of the committed change this snapshot shows (a node drops older ones). Internal. */
  readonly version: number;
}

/**
 * Where a room stands, as every node keeps it (the `race` game policy and the move hook need it at once,
 * without a query): announced after each change of status.
 */
export interface RaceIndexEntry {
  readonly code: string;
  readonly status: Race['status'];
  /** Race start (ms since the epoch), once the countdown has begun. */
  readonly startsAt: number | null;
  /** playerId → game id, once the race runs. */
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
  /** Tells every node (this one included) where a room stands. */
  announce(entry: RaceIndexEntry): void;
  /** Hears every `announce` (one listener per node: the race service). Returns the stop function. */
  onAnnounce(listener: (entry: RaceIndexEntry) => void): () => void;
  /** Wakes the race sweeper wherever it runs: a timer fact (`startsAt`, `endsAt`, `forfeitAt`) changed. */
  due(): void;
  /** Hears every `due` (this node's and the others'). Returns the stop function. */
  onDue(listener: () => void): () => void;
}

/** Listeners of one kind of broadcast (announce, due), called synchronously; a throwing one is skipped. */
class Broadcast<T> {
  private readonly listeners = new Set<(value: T) => void>();
  /** Calls every listener with `value`. */
  emit(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch {
        // a listener's failure is its own
      }
    }
  }
  /** Adds a listener; returns the function that removes it. */
  on(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The single-node implementation: synchronous delivery to the listeners of this process. */
export class InProcessRaceEvents implements RaceEvents {
  private readonly listeners = new Map<string, Set<RaceEventListener>>();
  private readonly index = new Broadcast<RaceIndexEntry>();
  private readonly wake = new Broadcast<undefined>();

  /** See `RaceEvents.announce`. */
  announce(entry: RaceIndexEntry): void {
    this.index.emit(entry);
  }

  /** See `RaceEvents.onAnnounce`. */
  onAnnounce(listener: (entry: RaceIndexEntry) => void): () => void {
    return this.index.on(listener);
  }

  /** See `RaceEvents.due`. */
  due(): void {
    this.wake.emit(undefined);
  }

  /** See `RaceEvents.onDue`. */
  onDue(listener: () => void): () => void {
    return this.wake.on(() => listener());
  }

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
 * Several nodes: events go to this node's listeners at once and, through the bus (topic `race:<code>`), to
 * the listeners of the other nodes that have some. A node watches a room's topic while it has local
 * listeners; no event leaves the node for a room no other node watches.
 */
export class BusRaceEvents implements RaceEvents {
  private readonly local = new InProcessRaceEvents();
  private readonly remote = new Map<string, { count: number; unlisten: () => void }>();

  constructor(private readonly bus: EventBus) {}

  /** See `RaceEvents.publish`. */
  publish(code: string, event: RaceEvent): void {
    this.local.publish(code, event);
    this.bus.send(`race:${code}`, event);
  }

  /** See `RaceEvents.announce`. */
  announce(entry: RaceIndexEntry): void {
    this.local.announce(entry);
    this.bus.publish('races', entry);
  }

  /** See `RaceEvents.onAnnounce`: this node's announcements and, through the bus, every other node's. */
  onAnnounce(listener: (entry: RaceIndexEntry) => void): () => void {
    const stopLocal = this.local.onAnnounce(listener);
    const stopRemote = this.bus.subscribe('races', (m) => listener(m as RaceIndexEntry));
    return () => {
      stopLocal();
      stopRemote();
    };
  }

  /** See `RaceEvents.due`. */
  due(): void {
    this.local.due();
    this.bus.publish('races:due', 1);
  }

  /** See `RaceEvents.onDue`. */
  onDue(listener: () => void): () => void {
    const stopLocal = this.local.onDue(listener);
    const stopRemote = this.bus.subscribe('races:due', () => listener());
    return () => {
      stopLocal();
      stopRemote();
    };
  }

  /** See `RaceEvents.subscribe`. */
  subscribe(code: string, listener: RaceEventListener): () => void {
    const stop = this.local.subscribe(code, listener);
    let entry = this.remote.get(code);
    if (!entry) {
      // Events of the other nodes are plain data they published with `publish` above.
      const unlisten = this.bus.watch(`race:${code}`, (m) => this.local.publish(code, m as RaceEvent));
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
