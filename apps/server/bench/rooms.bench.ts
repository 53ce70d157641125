/**
 * The rooms' move path alone, in this process: `pnpm --filter @klondike/server bench:rooms`.
 *
 * The server benchmark's main-thread CPU per move mixes the server's own work with what sharing two cores
 * with Postgres and the load generator does to it (cold caches, wake-ups, system calls), and moves by ±10 %
 * from one run to the next. This measures the part that is the server's alone: `GameRooms.act` of
 * classic-draw1 `draw`/`recycle` moves (as the server benchmark plays them) on ROOMS_GAMES games at once
 * (default 200, the throughput phase's sockets), each game one move in flight, every answer serialised for a
 * subscriber that only counts its bytes. The move log's writer is replaced by one that stores nothing and
 * answers at once (never a mode of the server, which acknowledges nothing it has not stored), so the figure
 * leaves out the database's driver and its round trip; the games are created and loaded through the real app
 * on the embedded database. No sockets, no JSON parsing or schema check of the client's frame.
 *
 * Prints the process's CPU (user + system) per move for each of ROOMS_ROUNDS rounds (default 5) of
 * ROOMS_MOVES moves (default 300,000) after a warm-up of a quarter round, and their median. On a shared
 * virtual machine that figure moves by ±10 % from one round to the next, so it also prints one it does not
 * move: the promises created per move (an `async_hooks` count over 20,000 more moves, not timed; this file's
 * own loop makes ~2 of them). Bytes allocated per move by function: the server benchmark's BENCH_PROFILE=1.
 */
import { createHook } from 'node:async_hooks';
import type { MoveCommit } from '../src/infra/db/move-log.js';
import { PrismaGameStore } from '../src/infra/db/game-store.js';
import { GameRooms, type Subscriber } from '../src/core/rooms/game-rooms.js';
import { pgliteDatabase, testApp } from '../test/support/helpers.js';
import { envNumber } from './settings.js';

const GAMES = Math.max(1, Math.round(envNumber('ROOMS_GAMES', 200)));
const MOVES = Math.max(1000, Math.round(envNumber('ROOMS_MOVES', 300_000)));
const ROUNDS = Math.max(1, Math.min(20, Math.round(envNumber('ROOMS_ROUNDS', 5))));

/** The stand-in move log: every entry of the batch is "stored" (the set holds the games logged). */
function storeNothing(batch: readonly MoveCommit[]): Promise<ReadonlySet<string>> {
  return Promise.resolve(new Set(batch.map((e) => e.gameId)));
}

interface Play {
  readonly id: string;
  version: number;
  stock: number;
}

async function main(): Promise<void> {
  // The test suite's quiet server (rate limits off, no daily job, one solver thread) on an in-memory PGlite.
  const app = await testApp(pgliteDatabase());
  try {
    await app.ready();
    const plays: Play[] = [];
    for (let i = 0; i < GAMES; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/games',
        payload: { preset: 'classic-draw1', dealNumber: 1 + i },
      });
      if (r.statusCode !== 201) throw new Error(`POST /api/games: ${r.statusCode} ${r.body}`);
      plays.push({ id: r.json<{ id: string }>().id, version: 0, stock: 24 });
    }
    const store = new PrismaGameStore(app.prisma, storeNothing, () => Promise.resolve(null), app.db.query);
    const rooms = new GameRooms(store, { commitQueue: GAMES * 2, commitConcurrency: 2 });
    let bytes = 0;
    let frames = 0;
    const subscriber: Subscriber = {
      send: (frame) => {
        bytes += frame.length;
        frames++;
      },
    };
    for (const p of plays) await rooms.subscribe(p.id, subscriber);

    let done = 0;
    let requests = 0;
    const play = async (p: Play, until: number): Promise<void> => {
      while (done < until) {
        const move = p.stock > 0 ? ({ type: 'draw' } as const) : ({ type: 'recycle' } as const);
        const r = await rooms.act(
          p.id,
          { type: 'move', move },
          { expectedVersion: p.version, origin: { subscriber, requestId: `r.${++requests}` } },
        );
        p.version = r.version;
        p.stock = r.view.stock.count;
        done++;
      }
    };
    /** `n` moves over every game at once; the CPU µs per move. */
    const round = async (n: number): Promise<number> => {
      const before = process.cpuUsage();
      const until = done + n;
      await Promise.all(plays.map((p) => play(p, until)));
      const used = process.cpuUsage(before);
      return (used.user + used.system) / n;
    };

    await round(Math.ceil(MOVES / 4));
    let promises = 0;
    const counter = createHook({
      init(_id, type) {
        if (type === 'PROMISE') promises++;
      },
    });
    counter.enable();
    await round(20_000);
    counter.disable();
    const perMove: number[] = [];
    for (let i = 0; i < ROUNDS; i++) perMove.push(await round(MOVES));
    const sorted = [...perMove].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
    console.log(
      `The rooms' move path in process: ${GAMES} games at once, ${MOVES.toLocaleString('en')} moves a round`,
    );
    console.log(
      `CPU µs per move, by round: ${perMove.map((v) => v.toFixed(2)).join(', ')}; median ${median.toFixed(2)}`,
    );
    console.log(`promises created per move: ${(promises / 20_000).toFixed(2)}`);
    console.log(`frame: ${(bytes / frames).toFixed(0)} characters on average`);
  } finally {
    await app.close();
  }
}

await main();
