/**
 * The socket transport's start-up check of its channels: every client frame type except `auth` and `ping`
 * has exactly one channel. A duplicate, a channel claiming a transport frame or an unclaimed type fails the
 * check with an error naming them, and fails the registration of the `/api/ws` route, so the app does not
 * start (the app's own list passes wherever a test builds the app).
 */
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ClientFrameType, SocketChannel } from '../../src/core/feature-module.js';
import { CLIENT_FRAME_TYPES, channelTable } from '../../src/edge/channel-table.js';
import { wsRoutes } from '../../src/edge/socket.js';
import { Metrics } from '../../src/infra/metrics/registry.js';

/** A channel declaring `frames` whose sessions do nothing. */
function channel(name: string, frames: readonly ClientFrameType[]): SocketChannel {
  return { name, frames, open: () => ({ handle: async () => {}, close: () => {} }) };
}

/** One channel per client frame type but `auth` and `ping`, except `leaveOut`. */
function everyFrame(...leaveOut: ClientFrameType[]): SocketChannel[] {
  const types = CLIENT_FRAME_TYPES.filter((t) => t !== 'auth' && t !== 'ping' && !leaveOut.includes(t));
  return types.map((t) => channel(`c-${t}`, [t]));
}

describe('the table of socket channels', () => {
  it('maps each frame type to the channel that declared it', () => {
    const games = channel('games', ['subscribe', 'unsubscribe', 'move', 'undo', 'resign']);
    const table = channelTable([games, ...everyFrame('subscribe', 'unsubscribe', 'move', 'undo', 'resign')]);
    expect(table.byFrame.get('move')).toBe(games);
    expect(table.byFrame.get('race-subscribe')?.name).toBe('c-race-subscribe');
    expect(table.byFrame.has('auth')).toBe(false);
    expect(table.byFrame.size).toBe(CLIENT_FRAME_TYPES.length - 2);
  });

  it('knows every frame type of the protocol, auth and ping among them', () => {
    expect(CLIENT_FRAME_TYPES).toContain('auth');
    expect(CLIENT_FRAME_TYPES).toContain('ping');
    expect(CLIENT_FRAME_TYPES).toContain('watch-leaderboard');
    expect(new Set(CLIENT_FRAME_TYPES).size).toBe(CLIENT_FRAME_TYPES.length);
  });

  it('refuses two channels declaring the same frame type, naming both', () => {
    expect(() => channelTable([...everyFrame(), channel('rival', ['arena-subscribe'])])).toThrow(
      'frame type "arena-subscribe" is declared by channels "c-arena-subscribe" and "rival"',
    );
  });

  it('refuses a frame type no channel declares, naming it', () => {
    expect(() => channelTable(everyFrame('watch-leaderboard', 'race-unsubscribe'))).toThrow(
      'no channel declares frame type "race-unsubscribe", "watch-leaderboard"',
    );
  });

  it('refuses a channel declaring auth or ping, which the transport answers itself', () => {
    expect(() => channelTable([...everyFrame(), channel('greedy', ['ping'])])).toThrow(
      'channel "greedy" declares "ping", which the transport answers itself',
    );
  });

  it('a pairing-like channel with no frame is fine', () => {
    expect(() => channelTable([...everyFrame(), channel('listener', [])])).not.toThrow();
  });
});

describe('the /api/ws route at start-up', () => {
  async function start(channels: readonly SocketChannel[]): Promise<void> {
    const app = Fastify({ logger: false });
    try {
      // The route registers its connection gauges; a disabled registry (no METRICS_PORT) takes them.
      app.decorate('metrics', new Metrics(false));
      await app.register(websocket);
      await app.register(wsRoutes, { channels: () => channels });
      await app.ready();
    } finally {
      await app.close();
    }
  }

  it('does not start with two channels declaring the same frame type', async () => {
    await expect(start([...everyFrame(), channel('rival', ['move'])])).rejects.toThrow(
      /socket channels: frame type "move" is declared by channels "c-move" and "rival"/,
    );
  });

  it('does not start with a frame type no channel declares', async () => {
    await expect(start(everyFrame('arena-unsubscribe'))).rejects.toThrow(
      /socket channels: no channel declares frame type "arena-unsubscribe"/,
    );
  });

  it('starts with one channel per frame type', async () => {
    await expect(start(everyFrame())).resolves.toBeUndefined();
  });
});
