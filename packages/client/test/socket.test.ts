/**
 * The socket helper against the real server: play over the socket with forced reconnects mid-game (no move
 * lost, none applied twice: the server's move log is exactly the moves asked for), a frame gap closed by the
 * newer frame, and typed errors for stale and illegal moves.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GameHandle, KlondikeClient, KlondikeError, KlondikeSocket, type Move } from '../src/index.js';
import { type TestServer, controllableWebSocket, startServer } from './server.js';

/** Draw, or recycle when the stock is empty: always legal in classic-draw1 (unlimited redeals). */
function nextDrawOrRecycle(game: GameHandle): Move {
  return game.view.stock.count > 0 ? { type: 'draw' } : { type: 'recycle' };
}

/** Polls `check` every 10 ms for up to 15 s (a loaded machine can take seconds to apply a move). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('KlondikeSocket against the real server', () => {
  let server: TestServer;
  let rest: KlondikeClient;
  const sockets: KlondikeSocket[] = [];
  beforeAll(async () => {
    server = await startServer();
    rest = new KlondikeClient({ baseUrl: server.url });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server.close();
  });

  async function connect(WebSocketImpl: unknown = WebSocket): Promise<KlondikeSocket> {
    const s = await KlondikeSocket.connect({
      url: rest.socketUrl(),
      WebSocket: WebSocketImpl as never,
      minDelayMs: 20,
    });
    sockets.push(s);
    return s;
  }

  it('forced reconnects mid-game: every move applied exactly once, in order', async () => {
    const created = await rest.createGame({ preset: 'classic-draw1', dealNumber: 4242 });
    const control = controllableWebSocket();
    const socket = await connect(control.WebSocket);
    let reconnects = 0;
    socket.on('reconnect', () => reconnects++);
    const game = await socket.subscribe(created.id);
    expect(game.version).toBe(0);

    // An observer on another connection: it sees every move, and a gap is closed by the newer frame.
    const observerControl = controllableWebSocket();
    const observer = await (await connect(observerControl.WebSocket)).subscribe(created.id);
    const observerVersions: number[] = [];
    observer.onState((s) => observerVersions.push(s.version));

    const asked: Move[] = [];
    let deafFrom = 0;
    for (let i = 0; i < 40; i++) {
      const move = nextDrawOrRecycle(game);
      asked.push(move);
      if (i % 10 === 3) {
        // The connection drops right after the move is handed over: it is (re)sent after the reconnect.
        const p = game.move(move);
        socket.dropConnection();
        expect((await p).version).toBe(i + 1);
      } else if (i % 10 === 7) {
        // The move reaches the server but its answer is lost, then the connection drops: after the reconnect
        // the helper sees the version moved on and must not send the move again.
        control.setDeaf(true);
        const p = game.move(move);
        await until(async () => (await rest.getGame(created.id)).version === i + 1, 'the move to be applied');
        socket.dropConnection();
        control.setDeaf(false);
        expect((await p).version).toBe(i + 1);
      } else if (i === 20) {
        // The observer misses the frames of versions 21…26: the next one (version jumping by seven) resyncs it.
        // Its frame of version 20 travels on its own connection and may still be on the way on a loaded machine:
        // it must arrive before the observer goes deaf, or it would be dropped and counted as a seventh.
        await until(
          () => observer.version === 20,
          `the observer to reach version 20 (at ${observer.version})`,
        );
        observerControl.setDeaf(true);
        deafFrom = observerControl.frames();
        await game.move(move);
      } else if (i === 25) {
        await game.move(move);
        // Wait until the observer's frames of versions 21…26 have arrived (and been dropped).
        await until(() => observerControl.frames() === deafFrom + 6, 'the dropped frames');
        observerControl.setDeaf(false);
        expect(observer.version).toBe(20);
      } else {
        expect((await game.move(move)).version).toBe(i + 1);
      }
      expect(game.version).toBe(i + 1);
    }
    expect(observerVersions.filter((v) => v > 20)[0]).toBe(27);
    expect(reconnects).toBe(8);
    expect(control.sockets.length).toBe(9);
    await until(() => observer.version === 40, `the observer to catch up (at ${observer.version})`);
    expect(observer.view).toEqual(game.view);

    const resigned = await game.resign();
    expect(resigned.view.status).toBe('resigned');
    // The server's log is exactly the moves asked for: none lost, none applied twice.
    const replay = await rest.api.GET('/api/games/{id}/replay', { params: { path: { id: created.id } } });
    const steps = replay.data?.steps ?? [];
    expect(steps.filter((s) => s.type === 'move').map((s) => s.move)).toEqual(asked);
    expect(steps.at(-1)?.type).toBe('resign');
    expect((await rest.getGame(created.id)).version).toBe(41);
  });

  it('typed errors for stale and illegal moves; the handle resyncs after a stale one', async () => {
    const created = await rest.createGame({ dealNumber: 7 });
    const socket = await connect();
    const game = await socket.subscribe(created.id);
    await game.move({ type: 'draw' });
    await game.move({ type: 'draw' });

    const stale = await game.move({ type: 'draw' }, { version: 0 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(stale).toBeInstanceOf(KlondikeError);
    expect(stale).toMatchObject({ code: 'stale-version', version: 2, gameId: created.id });

    const illegal = await game.move({ type: 'move', from: 'fS', to: 't3', count: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(illegal).toBeInstanceOf(KlondikeError);
    expect(illegal).toMatchObject({
      code: 'illegal-move',
      reason: expect.any(String) as unknown,
      gameId: created.id,
    });

    // Neither refusal changed anything; the next move goes through at the version held.
    expect(game.version).toBe(2);
    expect((await game.move({ type: 'draw' })).version).toBe(3);

    const missing = await socket.subscribe('no-such-game').then(
      () => null,
      (e: unknown) => e,
    );
    expect(missing).toMatchObject({ code: 'not-found' });
  });

  it('a move made elsewhere reaches the handle; a stale local move is refused, then the next one works', async () => {
    const created = await rest.createGame({ dealNumber: 8 });
    const socket = await connect();
    const game = await socket.subscribe(created.id);
    const seen: number[] = [];
    game.onState((s) => seen.push(s.version));
    await rest.playMove(created.id, { type: 'draw' }, 0);
    await until(() => game.version === 1, 'the REST move to arrive');
    expect(seen).toEqual([1]);
    expect((await game.move({ type: 'draw' })).version).toBe(2);
  });

  it('Node 20 without a global WebSocket: a clear typed error unless one is passed', async () => {
    const g = globalThis as { WebSocket?: unknown };
    const saved = g.WebSocket;
    g.WebSocket = undefined;
    try {
      const e = await KlondikeSocket.connect({ url: rest.socketUrl() }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'network', message: expect.stringContaining('ws') as unknown });
    } finally {
      g.WebSocket = saved;
    }
  });
});
