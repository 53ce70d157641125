/**
 * Nothing acknowledged is lost: the server runs as a child process, acknowledges moves over REST, is killed
 * with SIGKILL (also while more requests are in flight), and restarted on the same data; every game is at
 * (at least) its last acknowledged version with the same view, and play continues. PGlite (DATA_DIR) and
 * Postgres (DATABASE_URL, when TEST_DATABASE_URL is set).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GameResponseSchema,
  LegalMovesResponseSchema,
  ServerFrameSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import { afterAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  describeEachDatabase,
  dropSchema,
  prng,
  testSchemaName,
  withSchema,
  TEST_DATABASE_URL,
} from '../support/helpers.js';
import { type ServerProcess, killProcess, startServerProcess } from '../support/processes.js';

type Server = ServerProcess;

/** The server as one process, with the daily job light (no archive, short solves, one solver thread). */
function start(env: Record<string, string>): Promise<Server> {
  return startServerProcess(
    {
      RATE_LIMIT_MAX: '0',
      DAILY_ARCHIVE_DAYS: '0',
      DAILY_SOLVE_MS: '300',
      SOLVER_THREADS: '1',
      DATABASE_URL: '',
      ...env,
    },
    undefined,
    45_000,
  );
}

const kill = killProcess;

async function json<T>(r: Promise<Response>, parse: (v: unknown) => T): Promise<{ status: number; body: T }> {
  const res = await r;
  const status = res.status;
  return { status, body: parse(await res.json()) };
}

describeEachDatabase('crash: SIGKILL and restart', (db) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('every acknowledged POST /api/games/:id/moves survives SIGKILL; GET /api/games/:id after restart shows the same version and view', async () => {
    let env: Record<string, string>;
    if (db.kind === 'pglite') {
      const dir = mkdtempSync(join(tmpdir(), 'klondike-crash-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      env = { DATA_DIR: dir };
    } else {
      const url = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
      cleanups.push(() => dropSchema(url));
      env = { DATABASE_URL: url };
    }
    const rand = prng(20240611);
    let server = await start(env);
    cleanups.push(() => kill(server));
    const post = (path: string, body: unknown) =>
      fetch(`${server.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // Acknowledged moves: three games, twelve moves each, every one answered 200 before the next.
    const acked = new Map<string, { version: number; view: unknown }>();
    for (const dealNumber of [101, 202, 303]) {
      const created = await json(post('/api/games', { dealNumber, options: { timed: false } }), (v) =>
        GameResponseSchema.parse(v),
      );
      expect(created.status).toBe(201);
      const id = created.body.id;
      let version = 0;
      let view: unknown = created.body.view;
      for (let i = 0; i < 12; i++) {
        const legal = await json(fetch(`${server.base}/api/games/${id}/legal-moves`), (v) =>
          LegalMovesResponseSchema.parse(v),
        );
        const move = legal.body.moves[Math.floor(rand() * legal.body.moves.length)];
        if (!move) break;
        const r = await json(post(`/api/games/${id}/moves`, { move, version }), (v) =>
          StateResponseSchema.parse(v),
        );
        expect(r.status).toBe(200);
        version = r.body.version;
        view = r.body.view;
      }
      acked.set(id, { version, view });
    }
    // A burst in flight when the process dies: these may or may not have committed, never half.
    const inFlight = [...acked].map(([id, a]) =>
      post(`/api/games/${id}/moves`, { move: { type: 'draw' }, version: a.version }).then(
        async (r) => ({ id, status: r.status, body: await r.json() }),
        () => null,
      ),
    );
    await kill(server);
    for (const r of await Promise.all(inFlight)) {
      if (r?.status === 200) {
        const s = StateResponseSchema.parse(r.body);
        acked.set(r.id, { version: s.version, view: s.view });
      }
    }

    server = await start(env);
    for (const [id, a] of acked) {
      const g = await json(fetch(`${server.base}/api/games/${id}`), (v) => GameResponseSchema.parse(v));
      expect(g.status).toBe(200);
      expect(g.body.version).toBeGreaterThanOrEqual(a.version);
      expect(g.body.version).toBeLessThanOrEqual(a.version + 1);
      if (g.body.version === a.version)
        expect({ ...g.body.view, elapsedMs: 0 }).toEqual({ ...(a.view as object), elapsedMs: 0 });
      // Play continues from there.
      const next = await post(`/api/games/${id}/resign`, { version: g.body.version });
      expect(next.status).toBe(200);
    }
    // And a clean shutdown (SIGTERM) also keeps everything.
    const exited = new Promise<number | null>((res) => server.child.once('exit', (code) => res(code)));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    server = await start(env);
    for (const [id] of acked) {
      const g = await json(fetch(`${server.base}/api/games/${id}`), (v) => GameResponseSchema.parse(v));
      expect(g.body.view.status).toBe('resigned');
    }
    await kill(server);
  }, 120_000);

  it('SIGKILL during a burst of concurrent moves from 50 sockets (group commit): no acknowledged move is lost, none is half-stored', async () => {
    let env: Record<string, string>;
    if (db.kind === 'pglite') {
      const dir = mkdtempSync(join(tmpdir(), 'klondike-crash-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      env = { DATA_DIR: dir, WS_FRAMES_PER_SECOND: '0' };
    } else {
      const url = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
      cleanups.push(() => dropSchema(url));
      env = { DATABASE_URL: url, WS_FRAMES_PER_SECOND: '0' };
    }
    let server = await start(env);
    cleanups.push(() => kill(server));
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await fetch(`${server.base}/api/games`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dealNumber: 7000 + i, options: { timed: false } }),
      });
      ids.push(GameResponseSchema.parse(await r.json()).id);
    }
    // Each socket plays its own game in a closed loop (draw, or recycle once the stock is empty): the next
    // move goes out as soon as the previous one is acknowledged by its state frame.
    const acked = new Map<string, number>(ids.map((id) => [id, 0]));
    const sockets = await Promise.all(
      ids.map(
        (id) =>
          new Promise<WebSocket>((res, rej) => {
            const ws = new WebSocket(`${server.base.replace('http', 'ws')}/api/ws`);
            let n = 0;
            ws.on('error', () => undefined);
            ws.on('message', (data: WebSocket.RawData) => {
              const frame = ServerFrameSchema.parse(JSON.parse((data as Buffer).toString('utf8')));
              if (frame.type === 'error') return rej(new Error(`${id}: error frame ${frame.code}`));
              if (frame.type !== 'state') return;
              if (frame.requestId !== undefined) acked.set(id, frame.version);
              if (frame.cause === 'subscribe') res(ws);
              const move = frame.view.stock.count > 0 ? { type: 'draw' } : { type: 'recycle' };
              ws.send(
                JSON.stringify({
                  type: 'move',
                  gameId: id,
                  version: frame.version,
                  move,
                  requestId: `m${++n}`,
                }),
              );
            });
            ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe', gameId: id })));
          }),
      ),
    );
    // Let the burst run, then kill the server in the middle of it.
    const start0 = [...acked.values()].reduce((a, b) => a + b, 0);
    await new Promise((r) => setTimeout(r, 1500));
    await kill(server);
    const total = [...acked.values()].reduce((a, b) => a + b, 0);
    for (const ws of sockets) ws.terminate();
    expect(total - start0).toBeGreaterThan(100); // a real burst was under way

    server = await start(env);
    for (const [id, version] of acked) {
      const g = await json(fetch(`${server.base}/api/games/${id}`), (v) => GameResponseSchema.parse(v));
      expect(g.status).toBe(200);
      // Every acknowledged move is stored; at most the one in flight for this game committed unacknowledged.
      expect(g.body.version).toBeGreaterThanOrEqual(version);
      expect(g.body.version).toBeLessThanOrEqual(version + 1);
    }
    await kill(server);
  }, 120_000);
});
