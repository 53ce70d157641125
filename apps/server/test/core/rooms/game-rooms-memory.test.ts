/**
 * The game log without a database: `GameRooms` built on the in-memory store (rooms/memory-store.ts) plays a
 * game, refuses a write on a stale version and changes nothing, resyncs a subscriber with the current
 * state, replays a game from its stored log after it was forgotten, and refuses a second creation claim.
 */
import { ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import { PRESETS, dealFromNumber } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/infra/errors.js';
import { GameRooms, type Subscriber } from '../../../src/core/rooms/game-rooms.js';
import { MemoryGameStore } from '../../../src/core/rooms/memory-store.js';
import { RowExists } from '../../../src/core/rooms/store.js';

const DRAW = { type: 'move', move: { type: 'draw' } } as const;

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

describe('GameRooms on the in-memory store', () => {
  it('plays, refuses a stale version, and resyncs a subscriber', async () => {
    let clock = 1_000_000;
    const store = new MemoryGameStore();
    const rooms = new GameRooms(store, { now: () => clock });
    const game = await rooms.create({ dealNumber: 7 });
    expect(game.version).toBe(0);
    expect(await store.version(game.id)).toBe(0);

    const watcher = listener();
    await rooms.subscribe(game.id, watcher);
    expect(watcher.frames).toHaveLength(1);
    expect(watcher.frames[0]).toMatchObject({ type: 'state', version: 0, cause: 'subscribe' });

    clock += 500;
    const first = await rooms.act(game.id, DRAW, { expectedVersion: 0 });
    expect(first.version).toBe(1);
    expect(first.view.elapsedMs).toBe(0); // the clock starts at the first action
    expect(await store.version(game.id)).toBe(1);
    expect(watcher.frames.at(-1)).toMatchObject({ type: 'state', version: 1, cause: 'move' });

    // A write on an old version is refused with the current version, and nothing changes.
    const stale = await refusal(rooms.act(game.id, DRAW, { expectedVersion: 0 }));
    expect(stale.code).toBe('stale-version');
    expect(stale.details.version).toBe(1);
    expect(await store.version(game.id)).toBe(1);
    expect(watcher.frames).toHaveLength(2);

    // A second socket (a reconnect) is sent the current state.
    const again = listener();
    await rooms.subscribe(game.id, again);
    expect(again.frames).toEqual([
      expect.objectContaining({ type: 'state', version: 1, cause: 'subscribe' }),
    ]);
    const seen = again.frames[0];
    const live = watcher.frames[1];
    if (seen?.type !== 'state' || live?.type !== 'state') throw new Error('state frames expected');
    expect(seen.view.waste).toEqual(live.view.waste);

    clock += 500;
    const second = await rooms.act(game.id, DRAW, { expectedVersion: 1 });
    expect(second.version).toBe(2);
    expect(second.view.elapsedMs).toBe(500);
  });

  it('replays a forgotten game from its stored log, and acts on the stored game without a version', async () => {
    const store = new MemoryGameStore();
    const rooms = new GameRooms(store);
    const game = await rooms.create({ dealNumber: 11 });
    await rooms.act(game.id, DRAW, { expectedVersion: 0 });
    await rooms.act(game.id, DRAW, { expectedVersion: 1 });
    const before = await rooms.get(game.id);
    expect(rooms.evict(game.id)).toBe(true);
    expect(rooms.size).toBe(0);

    const after = await rooms.get(game.id);
    expect(after.version).toBe(2);
    expect(after.view.waste).toEqual(before.view.waste);
    expect(after.view.stock).toEqual(before.view.stock);

    // A resignation without a version ends the game; its deal and replay are then public.
    const resigned = await rooms.act(game.id, { type: 'resign' });
    expect(resigned.view.status).toBe('resigned');
    expect((await rooms.deal(game.id)).dealNumber).toBe(11);
    const replay = await rooms.replay(game.id);
    expect(replay.steps.map((s) => s.type)).toEqual(['move', 'move', 'resign']);
  });

  it('takes an owned game’s actions from its player only, and refuses a second claim', async () => {
    const store = new MemoryGameStore((g) => (g.owner === null ? null : `${g.kind}:${g.owner}`));
    const rooms = new GameRooms(store);
    const deal = dealFromNumber(3);
    if (!deal.ok) throw new Error('deal 3');
    const spec = {
      kind: 'daily-practice',
      deal: deal.value,
      dealKey: null,
      options: PRESETS['classic-draw1'],
      preset: null,
      owner: 'p1',
      daily: null,
      raceCode: null,
      clockFromCreation: true,
    } as const;
    const game = await rooms.createGame(spec);
    expect((await refusal(rooms.act(game.id, DRAW, { expectedVersion: 0 }))).code).toBe('unauthorized');
    expect((await refusal(rooms.act(game.id, DRAW, { expectedVersion: 0, actor: 'p2' }))).code).toBe(
      'forbidden',
    );
    expect((await rooms.act(game.id, DRAW, { expectedVersion: 0, actor: 'p1' })).version).toBe(1);
    await expect(rooms.createGame(spec)).rejects.toBeInstanceOf(RowExists);
  });
});
