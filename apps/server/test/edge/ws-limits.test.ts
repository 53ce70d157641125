/**
 * The socket's limits and lifecycle (hardening): a subscription still in flight when a socket closes is
 * undone and frames still queued are dropped (nothing pinned to a dead socket), subscriptions and auth attempts per socket are capped, frames are
 * paced by a token bucket, and a flooding socket is cut.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { gameChannel, type GameChannelRooms } from '../../src/core/games/channel.js';
import { arenaChannel } from '../../src/features/arenas/channel.js';
import { dailyChannel, type DailyChannelService } from '../../src/features/daily/channel.js';
import { pairingChannel } from '../../src/features/pairing/channel.js';
import { raceChannel } from '../../src/features/races/channel.js';
import { channelTable } from '../../src/edge/channel-table.js';
import { Connection, FLOOD_CLOSE_CODE } from '../../src/edge/socket.js';
import { pgliteDatabase, testApp, WsClient, wsUrl } from '../support/helpers.js';

const memory = pgliteDatabase();

async function withApp(config: Parameters<typeof testApp>[1], body: (app: FastifyInstance) => Promise<void>) {
  const app = await testApp(memory, config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    await body(app);
  } finally {
    await app.close();
  }
}

async function newGame(app: FastifyInstance): Promise<string> {
  return (await app.inject({ method: 'POST', url: '/api/games', payload: {} })).json<{ id: string }>().id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('socket lifecycle and limits', () => {
  it('a subscribe, watch or race-subscribe still in flight when the socket closes leaves nothing behind', async () => {
    // The connection over a socket stand-in and stand-in services whose subscribe calls wait for the test:
    // the socket closes while they are in flight, as it does when a client goes away mid-request.
    const gates: (() => void)[] = [];
    const gate = () => new Promise<void>((resolve) => gates.push(resolve));
    const games = new Set<unknown>();
    const watchers = new Set<unknown>();
    const racers = new Set<unknown>();
    const rooms = {
      async subscribe(_id: string, sub: unknown) {
        await gate();
        games.add(sub);
      },
      unsubscribe: (_id: string, sub: unknown) => games.delete(sub),
      isSubscribed: (_id: string, sub: unknown) => games.has(sub),
    };
    const daily = {
      async watch(_d: string, _p: string, sub: unknown) {
        await gate();
        watchers.add(sub);
        return 0;
      },
      watchers: { removeAll: (sub: unknown) => watchers.delete(sub) },
    };
    const races = {
      async subscribe(_code: string, sub: unknown) {
        await gate();
        racers.add(sub);
      },
      unsubscribe: (_code: string, sub: unknown) => racers.delete(sub),
      leaveAll: (sub: unknown) => racers.delete(sub),
    };
    const socket = { readyState: 1, OPEN: 1, bufferedAmount: 0, send() {}, close() {}, terminate() {} };
    const channels = channelTable([
      gameChannel(rooms as unknown as GameChannelRooms, { maxSubscriptions: 16 }),
      dailyChannel(daily as unknown as DailyChannelService, {
        follow: async () => {},
        unsubscribe: () => {},
      }),
      raceChannel(races, { lookups: 0 }),
      pairingChannel({ listen: () => () => {} }),
      arenaChannel({ subscribe: async () => {}, unsubscribe: () => {}, leaveAll: () => {} }),
    ]);
    const conn = new Connection(socket as unknown as WebSocket, {
      channels,
      playerOfToken: () => Promise.resolve(null),
      tokens: { register: () => () => {}, count: 0 },
      log: { warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger,
      framesPerSecond: 0,
      maxAuthAttempts: 5,
    });
    const frames = [
      { type: 'subscribe', gameId: 'g1' },
      { type: 'watch-leaderboard', date: '2026-11-22', preset: 'classic-draw1' },
      { type: 'race-subscribe', code: 'ABCDEFGHJK' },
    ];
    for (const f of frames) conn.onMessage(Buffer.from(JSON.stringify(f)));
    // The first frame reaches its gate; the socket closes while it waits there; then every gate opens (the
    // frames queued behind it must not subscribe anything either).
    while (gates.length === 0) await sleep(1);
    conn.close();
    for (let t = 0; t < 50; t++) {
      while (gates.length > 0) (gates.shift() as () => void)();
      await sleep(2);
    }
    await sleep(20);
    expect(games.size + watchers.size + racers.size).toBe(0);
  });

  it('a socket subscribes to at most WS_MAX_SUBSCRIPTIONS games at once', async () => {
    await withApp({ config: { wsMaxSubscriptions: 3 } }, async (app) => {
      const ids = [await newGame(app), await newGame(app), await newGame(app), await newGame(app)];
      const ws = await WsClient.connect(wsUrl(app));
      for (const id of ids.slice(0, 3))
        await ws.request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state' && f.gameId === id);
      const refused = await ws.request({ type: 'subscribe', gameId: ids[3] }, (f) => f.type === 'error');
      expect(refused).toMatchObject({ type: 'error', code: 'rate-limited' });
      // Subscribing again to a game it already has is not a new subscription.
      const again = await ws.request(
        { type: 'subscribe', gameId: ids[0] },
        (f) => f.type === 'state' || f.type === 'error',
      );
      expect(again.type).toBe('state');
      ws.send({ type: 'unsubscribe', gameId: ids[0] });
      const ok = await ws.request(
        { type: 'subscribe', gameId: ids[3] },
        (f) => f.type === 'state' || f.type === 'error',
      );
      expect(ok).toMatchObject({ type: 'state', gameId: ids[3] });
      ws.close();
    });
  });

  it('a socket gets WS_MAX_AUTH_ATTEMPTS auth frames, then rate-limited without a look-up', async () => {
    await withApp({ config: { wsMaxAuthAttempts: 2 } }, async (app) => {
      const ws = await WsClient.connect(wsUrl(app));
      const codes: string[] = [];
      for (let i = 0; i < 4; i++) {
        const f = await ws.request({ type: 'auth', token: `made-up-${i}` }, (x) => x.type === 'error');
        if (f.type === 'error') codes.push(f.code);
      }
      expect(codes).toEqual(['unknown-token', 'unknown-token', 'rate-limited', 'rate-limited']);
      ws.close();
    });
  });

  it('frames are paced by a token bucket: a burst of a second’s worth, one error for a refused run, then refill', async () => {
    await withApp({ config: { wsFramesPerSecond: 10 } }, async (app) => {
      const ws = await WsClient.connect(wsUrl(app));
      for (let i = 0; i < 13; i++) ws.send({ type: 'ping' });
      await ws.waitFor(() => ws.frames.length >= 11);
      await sleep(200); // nothing more comes: the refused run gets one error frame
      const kinds = ws.frames.map((f) => (f.type === 'error' ? f.code : f.type));
      expect(kinds.filter((k) => k === 'pong')).toHaveLength(10);
      expect(kinds.filter((k) => k === 'rate-limited')).toHaveLength(1);
      await sleep(350); // ~3 credits back
      const next = await ws.request({ type: 'ping' }, () => true);
      expect(next.type).toBe('pong');
      ws.close();
    });
  });

  it('a flooding socket is cut (1008) within a second; a polite one on the same server is not', async () => {
    await withApp({ config: { wsFramesPerSecond: 50 } }, async (app) => {
      const polite = await WsClient.connect(wsUrl(app));
      const flood = await WsClient.connect(wsUrl(app));
      const started = Date.now();
      for (let i = 0; i < 2000 && flood.closeCode === undefined; i++) flood.send({ type: 'ping' });
      const code = await flood.closed(1000);
      expect(code).toBe(FLOOD_CLOSE_CODE);
      expect(Date.now() - started).toBeLessThan(1000);
      const pong = await polite.request({ type: 'ping' }, () => true);
      expect(pong.type).toBe('pong');
      polite.close();
    });
  });
});
