/**
 * Soak: `pnpm soak` (not in CI). Runs the server in this process (buildApp on Postgres, a fresh schema that
 * is dropped at the end; limits off) and SOAK_SOCKETS sockets (default 500) playing for SOAK_SECONDS (default
 * 600): each socket plays its own classic-draw1 game (`draw`/`recycle`, about one move every SOAK_MOVE_MS,
 * default 1000), reconnects now and then (closes, opens a new socket, subscribes again at its version) and
 * resigns and starts a new game every SOAK_RESIGN_EVERY moves (default 60), so games keep being made and left:
 * the server's live-game bound (SOAK_MAX_LIVE_GAMES, default 1000, as MAX_LIVE_GAMES) is reached during the
 * run and must hold. Every SOAK_SAMPLE_SECONDS (default 15) it forces a GC (run with
 * `--expose-gc`, as the script does) and samples heap, RSS, games and races in memory and open sockets.
 * After a warm-up (SOAK_WARMUP_SECONDS, default 180, by when the live-game bound is reached) heap and live rooms must stay flat: the last samples are
 * compared with the first after warm-up, and the run fails when heap grew more than SOAK_MAX_GROWTH (0.25)
 * or games in memory exceed the sockets' games.
 *
 * Env: SOAK_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import pg from 'pg';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { ensureDatabase } from './database.js';
import { rawText } from './server-bench/format.js';
import { envNumber } from './settings.js';

const env = envNumber;
const SOCKETS = env('SOAK_SOCKETS', 500);
const SECONDS = env('SOAK_SECONDS', 600);
const MOVE_MS = env('SOAK_MOVE_MS', 1000);
const SAMPLE_S = env('SOAK_SAMPLE_SECONDS', 15);
const WARMUP_S = env('SOAK_WARMUP_SECONDS', 180);
const MAX_GROWTH = env('SOAK_MAX_GROWTH', 0.25);
const RESIGN_EVERY = env('SOAK_RESIGN_EVERY', 60);
const MAX_LIVE = env('SOAK_MAX_LIVE_GAMES', 1000);
const BASE_URL = process.env.SOAK_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';

const gc = (globalThis as { gc?: () => void }).gc;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  t: number;
  heapMB: number;
  rssMB: number;
  games: number;
  races: number;
  sockets: number;
  moves: number;
}

async function main(): Promise<void> {
  const schema = `soak_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(BASE_URL);
  const url = new URL(BASE_URL);
  url.searchParams.set('schema', schema);
  const app = await buildApp({
    env: {},
    config: {
      databaseUrl: url.toString(),
      dataDir: 'memory://',
      logLevel: 'warn',
      rateLimitMax: 0,
      wsFramesPerSecond: 0,
      dailySchedule: false,
      dailyArchiveDays: 0,
      solverThreads: 1,
      maintenanceTickMs: 0,
      maxLiveGames: MAX_LIVE,
      webDist: '/nonexistent',
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('not listening');
  const wsUrl = `ws://127.0.0.1:${addr.port}/api/ws`;
  let open = 0;
  let moves = 0;
  let errors = 0;
  let reconnects = 0;
  let resigns = 0;
  let stop = false;

  async function newGame(): Promise<{ id: string; stock: number }> {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload: { preset: 'classic-draw1' } });
    const g = r.json<{ id: string; view: { stock: { count: number } } }>();
    return { id: g.id, stock: g.view.stock.count };
  }

  /** One player: a socket and a game, forever until `stop`. */
  async function player(i: number): Promise<void> {
    let game = await newGame();
    let version = 0;
    while (!stop) {
      const ws = new WebSocket(wsUrl);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      open++;
      const pending = new Map<string, (f: ServerFrame) => void>();
      ws.on('message', (data) => {
        const f = ServerFrameSchema.parse(JSON.parse(rawText(data)));
        const id = 'requestId' in f ? f.requestId : undefined;
        if (f.type === 'state' && f.cause === 'subscribe') pending.get('sub')?.(f);
        else if (id !== undefined) pending.get(id)?.(f);
      });
      const ask = (key: string, frame: object) =>
        new Promise<ServerFrame>((resolve) => {
          pending.set(key, (f) => {
            pending.delete(key);
            resolve(f);
          });
          ws.send(JSON.stringify(frame));
        });
      const sub = await ask('sub', { type: 'subscribe', gameId: game.id, version });
      if (sub.type === 'state') {
        version = sub.version;
        game.stock = sub.view.stock.count;
      }
      // Play until it is time to reconnect (every ~2–4 minutes of play).
      const until = Date.now() + 120_000 + ((i * 7919) % 120_000);
      let n = 0;
      while (!stop && Date.now() < until) {
        await sleep(MOVE_MS * (0.5 + Math.random()));
        n++;
        const rid = `${i}-${n}`;
        if (n % RESIGN_EVERY === 0) {
          await ask(rid, { type: 'resign', gameId: game.id, version, requestId: rid });
          resigns++;
          ws.send(JSON.stringify({ type: 'unsubscribe', gameId: game.id }));
          game = await newGame();
          version = 0;
          const s = await ask('sub', { type: 'subscribe', gameId: game.id });
          if (s.type === 'state') game.stock = s.view.stock.count;
          continue;
        }
        const move = game.stock > 0 ? { type: 'draw' } : { type: 'recycle' };
        const f = await ask(rid, { type: 'move', gameId: game.id, move, version, requestId: rid });
        if (f.type === 'state') {
          version = f.version;
          game.stock = f.view.stock.count;
          moves++;
        } else errors++;
      }
      ws.close();
      open--;
      reconnects++;
    }
  }

  const samples: Sample[] = [];
  const start = Date.now();
  const players = Array.from({ length: SOCKETS }, (_, i) =>
    sleep((i * 2000) / SOCKETS).then(() => player(i)),
  );
  console.log(
    `soak: ${SOCKETS} sockets for ${SECONDS} s, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  while (Date.now() - start < SECONDS * 1000) {
    await sleep(SAMPLE_S * 1000);
    gc?.();
    const m = process.memoryUsage();
    const s: Sample = {
      t: Math.round((Date.now() - start) / 1000),
      heapMB: +(m.heapUsed / 2 ** 20).toFixed(1),
      rssMB: +(m.rss / 2 ** 20).toFixed(1),
      games: app.rooms.size,
      races: app.races.liveCount,
      sockets: open,
      moves,
    };
    samples.push(s);
    console.log(JSON.stringify(s));
  }
  stop = true;
  await Promise.race([Promise.allSettled(players), sleep(10_000)]);
  await app.close();
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();

  const steady = samples.filter((s) => s.t >= WARMUP_S);
  const first = steady.slice(0, 3);
  const last = steady.slice(-3);
  const avg = (xs: Sample[], k: keyof Sample) => xs.reduce((a, x) => a + x[k], 0) / Math.max(1, xs.length);
  const growth = avg(first, 'heapMB') > 0 ? avg(last, 'heapMB') / avg(first, 'heapMB') - 1 : 0;
  const report = {
    sockets: SOCKETS,
    seconds: SECONDS,
    moves,
    movesPerSecond: +(moves / SECONDS).toFixed(0),
    errors,
    reconnects,
    resigns,
    heapAfterWarmupMB: +avg(first, 'heapMB').toFixed(1),
    heapAtEndMB: +avg(last, 'heapMB').toFixed(1),
    heapGrowth: +(growth * 100).toFixed(1) + '%',
    gamesInMemoryMax: Math.max(...samples.map((s) => s.games)),
    load: loadavg().map((x) => +x.toFixed(2)),
  };
  console.log('soak report', JSON.stringify(report));
  if (growth > MAX_GROWTH) throw new Error(`heap grew ${report.heapGrowth} after warm-up`);
  if (report.gamesInMemoryMax > MAX_LIVE + SOCKETS)
    throw new Error(`${report.gamesInMemoryMax} games in memory`);
  if (errors > 0) throw new Error(`${errors} moves refused`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
