/**
 * The window between a node starting to watch a game and the other nodes hearing of it (docs/architecture.md
 * "Scale-out", core/rooms/cluster-sync.ts `settled`). Two nodes' rooms, wired as GameRooms wires them, on
 * one in-memory store, joined by a bus of this file whose interest announcements arrive only when the test
 * says so (Redis cannot be made to hold one back): a commit on A made before A heard that B watches is not
 * sent to B; once B's watch has settled, B finds the stored version ahead of its socket and sends it the
 * current state, once; later commits reach it over the bus, with no duplicate.
 */
import { ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import { PRESETS, dealFromNumber } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { ClusterSync } from '../../../src/core/rooms/cluster-sync.js';
import { type RoomContext, act, join } from '../../../src/core/rooms/game-room.js';
import { MoveLog } from '../../../src/core/rooms/group-commit.js';
import { MemoryGameStore } from '../../../src/core/rooms/memory-store.js';
import type { GamePolicy } from '../../../src/core/rooms/policies.js';
import { type NewGameSpec, type Subscriber, newRoom } from '../../../src/core/rooms/room.js';
import { RoomDirectory } from '../../../src/core/rooms/room-directory.js';
import type { BusListener, EventBus } from '../../../src/infra/bus/event-bus.js';

const DRAW = { type: 'move', move: { type: 'draw' } } as const;
const GRACE_MS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The nodes of one test: a topic's message goes to the other nodes whose interest has been heard. */
class Cluster {
  readonly buses: HeldBus[] = [];
  bus(): HeldBus {
    const b = new HeldBus(this, String(this.buses.length));
    this.buses.push(b);
    return b;
  }
}

/** A bus whose new watches are announced (heard by the others, `settled` called) only on `announce()`. */
class HeldBus implements EventBus {
  readonly kind = 'redis';
  readonly connected = true;
  private readonly watching = new Map<
    string,
    { listener: BusListener; heard: boolean; settled?: () => void }
  >();
  constructor(
    private readonly cluster: Cluster,
    readonly nodeId: string,
  ) {}
  publish(): void {}
  subscribe(): () => void {
    return () => {};
  }
  send(topic: string, message: unknown): void {
    for (const other of this.cluster.buses) {
      const w = other === this ? undefined : other.watching.get(topic);
      if (w?.heard) w.listener(message);
    }
  }
  watch(topic: string, listener: BusListener, settled?: () => void): () => void {
    this.watching.set(topic, { listener, heard: false, settled });
    return () => this.watching.delete(topic);
  }
  /** The others hear of every watch so far, and then their `settled` callbacks run. */
  announce(): void {
    for (const w of this.watching.values()) {
      w.heard = true;
      w.settled?.();
    }
  }
  onReconnect(): () => void {
    return () => {};
  }
  async close(): Promise<void> {}
}

function node(store: MemoryGameStore, bus: EventBus) {
  const directory = new RoomDirectory(store, 100);
  const rules = { now: () => 1_000_000, policy: (): GamePolicy => ({}) };
  const sync = new ClusterSync(bus, directory, store, rules, GRACE_MS);
  const ctx: RoomContext = { ...rules, store, log: new MoveLog(store, {}), peers: sync };
  return { sync, ctx };
}

/** A subscriber that keeps the versions of the `state` frames it was sent. */
function socket(): Subscriber & { versions: number[] } {
  const versions: number[] = [];
  return {
    versions,
    send: (text) => {
      const f: ServerFrame = ServerFrameSchema.parse(JSON.parse(text));
      if (f.type === 'state') versions.push(f.version);
    },
  };
}

describe('a new watch before the other nodes heard of it', () => {
  it("a commit made in the window reaches the watcher's socket once its watch has settled, and only once", async () => {
    const store = new MemoryGameStore();
    const deal = dealFromNumber(5);
    if (!deal.ok) throw new Error('deal 5');
    const spec: NewGameSpec = {
      kind: 'casual',
      deal: deal.value,
      dealKey: null,
      options: PRESETS['classic-draw1'],
      preset: 'classic-draw1',
      owner: null,
      daily: null,
      raceCode: null,
      clockFromCreation: false,
    };
    const { room: made, record } = newRoom(spec, 5, 1_000_000);
    await store.insert(record);
    const cluster = new Cluster();
    const a = node(store, cluster.bus());
    const busB = cluster.bus();
    const b = node(store, busB);

    // B's socket subscribes (the snapshot is version 0); A has not heard that B watches.
    const onB = socket();
    await join(b.ctx, await b.sync.current(made.id), onB);
    expect(onB.versions).toEqual([0]);
    await act(a.ctx, made.id, DRAW, { expectedVersion: 0 });
    await sleep(GRACE_MS * 3);
    expect(onB.versions).toEqual([0]); // sent to nobody: A did not know

    // B's watch settles: B sees version 1 stored, waits the grace, and catches its socket up.
    busB.announce();
    await sleep(GRACE_MS * 3);
    expect(onB.versions).toEqual([0, 1]);

    // From now on A's commits reach B over the bus, each once.
    await act(a.ctx, made.id, DRAW, { expectedVersion: 1 });
    await act(a.ctx, made.id, DRAW, { expectedVersion: 2 });
    await sleep(GRACE_MS * 3);
    expect(onB.versions).toEqual([0, 1, 2, 3]);
  });

  it('a watch that settles with nothing missed sends nothing more', async () => {
    const store = new MemoryGameStore();
    const deal = dealFromNumber(6);
    if (!deal.ok) throw new Error('deal 6');
    const { room: made, record } = newRoom(
      {
        kind: 'casual',
        deal: deal.value,
        dealKey: null,
        options: PRESETS['classic-draw1'],
        preset: 'classic-draw1',
        owner: null,
        daily: null,
        raceCode: null,
        clockFromCreation: false,
      },
      6,
      1_000_000,
    );
    await store.insert(record);
    const cluster = new Cluster();
    const a = node(store, cluster.bus());
    const busB = cluster.bus();
    const b = node(store, busB);
    await act(a.ctx, made.id, DRAW, { expectedVersion: 0 });
    const onB = socket();
    await join(b.ctx, await b.sync.current(made.id), onB);
    busB.announce();
    await sleep(GRACE_MS * 3);
    expect(onB.versions).toEqual([1]);
  });
});
