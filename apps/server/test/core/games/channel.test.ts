/**
 * The core games' socket channel without Fastify: a connection holds at most `maxSubscriptions` games (a
 * game it already holds is no new one; unsubscribing frees a slot), plays only games it subscribed to
 * (`not-subscribed`), plays as its player with the frame's version and request id, and leaves every game
 * when the socket closes, even one whose subscribe was still in flight.
 */
import type { GameAction } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import type { ChannelSession, ClientFrameOf } from '../../../src/core/feature-module.js';
import { gameChannel, type GameChannelRooms, type GameFrameType } from '../../../src/core/games/channel.js';
import type { ActOptions, Subscriber } from '../../../src/core/rooms/game-rooms.js';
import { ApiError } from '../../../src/infra/errors.js';
import { FakeConnection } from '../../support/fake-connection.js';

/** Game rooms reduced to who is subscribed where, and the actions asked for. */
class FakeRooms {
  readonly subscribers = new Map<string, Set<Subscriber>>();
  readonly acts: { id: string; action: GameAction; options: ActOptions }[] = [];
  /** Subscribe calls wait for this when set (a subscribe in flight). */
  gate: Promise<void> | undefined;

  async subscribe(id: string, subscriber: Subscriber): Promise<void> {
    if (this.gate) await this.gate;
    if (id.startsWith('missing')) throw new ApiError('not-found', `no game ${id}`);
    let subs = this.subscribers.get(id);
    if (subs === undefined) this.subscribers.set(id, (subs = new Set()));
    subs.add(subscriber);
  }
  unsubscribe(id: string, subscriber: Subscriber): void {
    this.subscribers.get(id)?.delete(subscriber);
  }
  isSubscribed(id: string, subscriber: Subscriber): boolean {
    return this.subscribers.get(id)?.has(subscriber) ?? false;
  }
  act(id: string, action: GameAction, options: ActOptions = {}): Promise<unknown> {
    this.acts.push({ id, action, options });
    return Promise.resolve({});
  }
  /** Games `subscriber` is subscribed to. */
  held(subscriber: Subscriber): string[] {
    return [...this.subscribers].filter(([, s]) => s.has(subscriber)).map(([id]) => id);
  }
}

function open(maxSubscriptions: number, playerId: string | null = null) {
  const rooms = new FakeRooms();
  const conn = new FakeConnection(playerId);
  const channel = gameChannel(rooms as unknown as GameChannelRooms, { maxSubscriptions });
  const session: ChannelSession<GameFrameType> = channel.open(conn);
  const send = (frame: ClientFrameOf<GameFrameType>) => session.handle(frame);
  return { rooms, conn, session, send };
}

async function codeOf(p: Promise<void>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return e instanceof ApiError ? e.code : String(e);
  }
}

describe('the games channel', () => {
  it('declares the five game frames', () => {
    expect(
      gameChannel(new FakeRooms() as unknown as GameChannelRooms, { maxSubscriptions: 1 }).frames,
    ).toEqual(['subscribe', 'unsubscribe', 'move', 'undo', 'resign']);
  });

  it('caps the games a connection holds; the same game again is no new one; unsubscribe frees a slot', async () => {
    const { rooms, conn, send } = open(2);
    await send({ type: 'subscribe', gameId: 'g1' });
    await send({ type: 'subscribe', gameId: 'g2' });
    await expect(send({ type: 'subscribe', gameId: 'g3' })).rejects.toMatchObject({
      code: 'rate-limited',
      message: 'at most 2 games per connection: unsubscribe from one first',
    });
    expect(rooms.held(conn)).toEqual(['g1', 'g2']);
    expect(await codeOf(send({ type: 'subscribe', gameId: 'g1', version: 3 }))).toBeUndefined();
    await send({ type: 'unsubscribe', gameId: 'g1' });
    expect(await codeOf(send({ type: 'subscribe', gameId: 'g3' }))).toBeUndefined();
    expect(rooms.held(conn)).toEqual(['g2', 'g3']);
  });

  it('a subscribe the rooms refuse takes no slot', async () => {
    const { send } = open(1);
    expect(await codeOf(send({ type: 'subscribe', gameId: 'missing-1' }))).toBe('not-found');
    expect(await codeOf(send({ type: 'subscribe', gameId: 'g1' }))).toBeUndefined();
  });

  it('move, undo and resign need a subscription: not-subscribed, and nothing reaches the rooms', async () => {
    const { rooms, send } = open(4);
    const frames: ClientFrameOf<'move' | 'undo' | 'resign'>[] = [
      { type: 'move', gameId: 'g1', move: { type: 'draw' }, version: 0 },
      { type: 'undo', gameId: 'g1', version: 1 },
      { type: 'resign', gameId: 'g1', version: 1 },
    ];
    for (const frame of frames)
      await expect(send(frame)).rejects.toMatchObject({
        code: 'not-subscribed',
        message: 'subscribe to game g1 before playing it',
      });
    expect(rooms.acts).toEqual([]);
  });

  it('plays a subscribed game as the connection’s player, with the frame’s version and request id', async () => {
    const { rooms, conn, send } = open(4, 'player-1');
    await send({ type: 'subscribe', gameId: 'g1' });
    await send({ type: 'move', gameId: 'g1', move: { type: 'draw' }, version: 0, requestId: 'r1' });
    await send({ type: 'undo', gameId: 'g1', version: 1 });
    expect(rooms.acts).toEqual([
      {
        id: 'g1',
        action: { type: 'move', move: { type: 'draw' } },
        options: { expectedVersion: 0, origin: { subscriber: conn, requestId: 'r1' }, actor: 'player-1' },
      },
      {
        id: 'g1',
        action: { type: 'undo' },
        options: { expectedVersion: 1, origin: { subscriber: conn }, actor: 'player-1' },
      },
    ]);
  });

  it('close leaves every game; a subscribe in flight at the close is undone', async () => {
    const { rooms, conn, session, send } = open(4);
    await send({ type: 'subscribe', gameId: 'g1' });
    await send({ type: 'subscribe', gameId: 'g2' });
    let open_: () => void = () => {};
    rooms.gate = new Promise((resolve) => (open_ = resolve));
    const late = send({ type: 'subscribe', gameId: 'g3' });
    conn.closed = true;
    session.close();
    expect(rooms.held(conn)).toEqual([]);
    open_();
    await late;
    expect(rooms.held(conn)).toEqual([]);
  });
});
