/**
 * One game's room (core/rooms/game-room.ts) on the in-memory store, wired by hand as GameRooms wires it
 * (directory, cluster sync of one node, commit queue): the linear `act` commits before the room changes and
 * fans out after; its kind's hooks run once the write has left the game's queue, so a hook may act on the
 * same game without re-entering a write; a refusal changes nothing and tells no hook; a full commit queue
 * refuses with `overloaded`; a lost version check catches the room up and answers the stored version; a
 * ranked ending whose row exists is refused with `conflict`.
 */
import { ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import { PRESETS, dealFromNumber } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { ClusterSync } from '../../../src/core/rooms/cluster-sync.js';
import { type RoomContext, act } from '../../../src/core/rooms/game-room.js';
import { MoveLog } from '../../../src/core/rooms/group-commit.js';
import { MemoryGameStore } from '../../../src/core/rooms/memory-store.js';
import type { GamePolicy } from '../../../src/core/rooms/policies.js';
import { type NewGameSpec, type Room, type Subscriber, newRoom } from '../../../src/core/rooms/room.js';
import { RoomDirectory } from '../../../src/core/rooms/room-directory.js';
import { ApiError } from '../../../src/infra/errors.js';

const DRAW = { type: 'move', move: { type: 'draw' } } as const;
/** Illegal at the start: the stock is not empty. */
const RECYCLE = { type: 'move', move: { type: 'recycle' } } as const;

/** A node of one on the in-memory store, every game of kind `policy`'s. */
function node(policy: GamePolicy = {}, commitQueue = 256) {
  const store = new MemoryGameStore();
  const directory = new RoomDirectory(store, 100);
  const clock = { now: 1_000_000 };
  const rules = { now: () => clock.now, policy: (): GamePolicy => policy };
  const sync = new ClusterSync(undefined, directory, store, rules);
  const ctx: RoomContext = { ...rules, store, log: new MoveLog(store, { commitQueue }), peers: sync };
  /** Stores a new game (kind `daily-ranked` when `ranked`) and keeps its room; returns the room. */
  const game = async (ranked = false): Promise<Room> => {
    const deal = dealFromNumber(5);
    if (!deal.ok) throw new Error('deal 5');
    const spec: NewGameSpec = {
      kind: ranked ? 'daily-ranked' : 'casual',
      deal: deal.value,
      dealKey: null,
      options: PRESETS['classic-draw1'],
      preset: 'classic-draw1',
      owner: null,
      daily: null,
      raceCode: null,
      clockFromCreation: false,
    };
    const { room, record } = newRoom(spec, 5, clock.now);
    await store.insert(record);
    directory.add(room);
    return room;
  };
  return { store, directory, ctx, clock, game };
}

/** A subscriber that keeps the frames it was sent, parsed. */
function listener(): Subscriber & { frames: ServerFrame[] } {
  const frames: ServerFrame[] = [];
  return { frames, send: (text) => frames.push(ServerFrameSchema.parse(JSON.parse(text))) };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

describe("one game's room", () => {
  it('commits, then changes the room and fans out; the hook runs after the queue and may act again', async () => {
    const seen: { version: number; pending: number }[] = [];
    const followUps: Promise<unknown>[] = [];
    const refs: { ctx?: RoomContext; room?: Room } = {};
    const policy: GamePolicy = {
      afterCommit(action) {
        seen.push({ version: action.version, pending: refs.room?.pending ?? -1 });
        // The first commit's hook writes the same game again: a new write, not a re-entry.
        if (action.version === 1 && refs.ctx)
          followUps.push(act(refs.ctx, action.gameId, { type: 'resign' }, { expectedVersion: 1 }));
      },
    };
    const { store, ctx, game } = node(policy);
    refs.ctx = ctx;
    const room = await game();
    refs.room = room;
    const watcher = listener();
    room.subscribers.add(watcher);

    const answer = await act(ctx, room.id, DRAW, { expectedVersion: 0 });
    expect(answer.version).toBe(1);
    expect(await store.version(room.id)).toBe(1);
    expect(watcher.frames.map((f) => (f.type === 'state' ? [f.version, f.cause] : f.type))).toEqual([
      [1, 'move'],
    ]);
    // The hook of version 1 ran with the queue empty, before the caller got its answer.
    expect(seen).toEqual([{ version: 1, pending: 0 }]);

    const [resigned] = (await Promise.all(followUps)) as { version: number }[];
    expect(resigned?.version).toBe(2);
    expect(room.status).toBe('resigned');
    expect(seen.map((s) => s.version)).toEqual([1, 2]);
    expect((await store.replay(room.id))?.log.map((e) => e.kind)).toEqual(['move', 'resign']);
  });

  it('a refusal changes nothing and tells no hook', async () => {
    let told = 0;
    const { store, ctx, game } = node({ afterCommit: () => void told++ });
    const room = await game();
    const illegal = await refusal(act(ctx, room.id, RECYCLE, { expectedVersion: 0 }));
    expect(illegal.code).toBe('illegal-move');
    expect(illegal.details.version).toBe(0);
    const stale = await refusal(act(ctx, room.id, DRAW, { expectedVersion: 3 }));
    expect(stale.code).toBe('stale-version');
    expect(room.version).toBe(0);
    expect(room.pending).toBe(0);
    expect(await store.version(room.id)).toBe(0);
    expect(told).toBe(0);
  });

  it('past the commit queue a write is refused with overloaded before anything changes', async () => {
    const { store, ctx, game } = node({}, 1);
    const a = await game();
    const b = await game();
    const first = act(ctx, a.id, DRAW, { expectedVersion: 0 });
    const shed = await refusal(act(ctx, b.id, DRAW, { expectedVersion: 0 }));
    expect(shed.code).toBe('overloaded');
    expect((await first).version).toBe(1);
    expect(await store.version(b.id)).toBe(0);
    // Settled writes leave the queue: the next one is admitted.
    expect((await act(ctx, b.id, DRAW, { expectedVersion: 0 })).version).toBe(1);
  });

  it('a lost version check re-reads the room, tells its subscribers and answers the stored version', async () => {
    const { store, ctx, clock, game } = node();
    const room = await game();
    const watcher = listener();
    room.subscribers.add(watcher);
    // Another writer logs version 1 behind this room's back.
    const other = await store.writeMoves([
      {
        gameId: room.id,
        version: 1,
        status: 'playing',
        score: 0,
        moves: 1,
        startedAt: clock.now,
        endedAt: null,
        at: clock.now,
        kind: 'move',
        move: { type: 'draw' },
      },
    ]);
    expect(other.has(room.id)).toBe(true);
    const stale = await refusal(act(ctx, room.id, DRAW, { expectedVersion: 0 }));
    expect(stale.code).toBe('stale-version');
    expect(stale.details.version).toBe(1);
    expect(room.version).toBe(1);
    expect(watcher.frames.at(-1)).toMatchObject({ type: 'state', version: 1, cause: 'subscribe' });
    expect((await act(ctx, room.id, DRAW, { expectedVersion: 1 })).version).toBe(2);
  });

  it('an ending whose leaderboard row exists is refused with conflict, and the game takes no more', async () => {
    let results = 0;
    const row = { status: 'resigned', score: 0, timeMs: 0, moves: 0, finishedAt: 0 } as const;
    const { store, ctx, game } = node({ resultRow: () => row, afterResult: () => void results++ });
    const room = await game(true);
    store.results.set(room.id, row);
    const conflict = await refusal(act(ctx, room.id, { type: 'resign' }, { expectedVersion: 0 }));
    expect(conflict.code).toBe('conflict');
    expect(room.finished).toBe(true);
    expect(room.status).toBe('playing');
    expect(await store.version(room.id)).toBe(0);
    expect(results).toBe(0);
  });
});
