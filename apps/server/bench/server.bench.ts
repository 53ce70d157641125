/**
 * Server benchmark: `pnpm --filter @klondike/server bench` (or `pnpm bench:server` from the root).
 *
 * Starts the real server (`node dist/main.js` when built, else `node --import tsx src/main.ts`; one process) on a free 127.0.0.1 port against
 * Postgres, in a fresh schema `bench_<random>` that is dropped at the end (the database itself is created when
 * missing, bench/database.ts), with rate limits off, and measures the server budgets (apps/server/BENCHMARKS.md) from outside,
 * over real sockets:
 *
 * 1. throughput: BENCH_SOCKETS sockets (default 200), one game each, one move outstanding per socket, sent as
 *    fast as the server answers, for BENCH_SECONDS (default 10) after BENCH_WARMUP_SECONDS (default 3);
 * 2. latency: BENCH_LATENCY_SOCKETS sockets (default 1 000), one game each, BENCH_RATE moves/s in total
 *    (default 1 000) on an open-loop schedule spread evenly over the sockets, for BENCH_SECONDS; the moves
 *    slower than the p99 budget are counted by 100 ms of send time (stalls or a slow path);
 * 3. memory per live game: the child's RSS (/proc/<pid>/status VmRSS) and, through its inspector (the child
 *    runs with `--inspect=127.0.0.1:0`; BENCH_INSPECT=0 turns that off), heap + external memory after a forced
 *    GC: before the latency games exist, after they are created over REST, after their sockets have
 *    subscribed, after the latency run, and after every game's history has grown to BENCH_HISTORY moves
 *    (default 100; 0 skips; at most BENCH_HISTORY_MAX_SECONDS, default 90, closed loop on every socket);
 * 1b. the platform's ceiling: bench/bare-server.ts (Fastify + @fastify/websocket, parse, ClientFrameSchema,
 *    answer a real-sized `state` frame; no rules, no database) driven by the same BENCH_SOCKETS sockets and
 *    closed loop, in windows alternating with the throughput phase's (BENCH_ROUNDS, default 2, each side's
 *    windows summed) so that both see the same machine load; the report prints persisted moves/s ÷ bare
 *    messages/s;
 * 2b. the platform at the latency phase's load: the bare server of 1b on as many sockets, at the same
 *    open-loop rate, right after the latency run: what the machine itself adds to the p99 (a core taken away
 *    for tens of ms by a kernel thread shows in both);
 * 5. overload: twice the measured throughput offered open-loop on the latency sockets: moves past the
 *    server's commit queue (COMMIT_QUEUE) get `overloaded` error frames; the accepted ones' round trips;
 * 4. BENCH_PROFILE=1: BENCH_PROFILE_SECONDS (default 5) more of the throughput run under the inspector's CPU
 *    profiler; prints the top self-time functions, self time by area (Prisma, pg, ws, rules, …) and the
 *    inclusive time of the workspace's own functions; the profile is saved under the OS temp folder. The same
 *    run is sampled by V8's heap profiler with the garbage kept in (the bytes each function allocates per
 *    move, which is what the scavenges pay for), printed by function and by area.
 *
 * The moves: `draw` while the stock has cards, else `recycle` (classic-draw1, unlimited redeals), chosen from
 * the view of the socket's last `state` frame, so always legal. Each is a normal `move` frame: validated by the
 * rules package, committed to Postgres (one statement per group commit: version check + log row) and answered with a
 * `state` frame. At the end the schema's `Move` rows are counted against the acknowledged moves.
 *
 * The client runs in this process on the same machine (its CPU share is printed per phase), so on a 2-core
 * machine the server, Postgres and the load generator share the cores; the load averages before and after
 * each phase are printed. CPU per phase is read from /proc:
 * the server process (all its threads), the Postgres backends serving its pool (found through the server's
 * TCP connections, during the warm-up), this client, and the whole machine (which includes any other work
 * running, and the time the hypervisor stole from a virtual machine's cores); and, for the
 * same three, the time their threads were runnable but waiting for a core (the run queue, from
 * /proc/<pid>/task/<tid>/schedstat), which with three processes on two cores is what the hand-offs between
 * them cost beside the CPU they use.
 *
 * The report also counts the server's garbage collections in each measured window (a perf_hooks observer
 * installed through the inspector): scavenges, mark-compacts, their pauses and the longest one; and the load
 * generator's own (its pauses delay the answers it reads, so they add to the round trips it measures).
 *
 * Other environment: BENCH_SERVER_FLAGS adds node/V8 flags to the server's (which are the production start
 * script's, package.json "start"; given after them, they override them), BENCH_SERVER_LOG=file copies the server's standard output there (with
 * --trace-gc, the measured windows are marked in it), BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test),
 * BENCH_RTT_DUMP=file writes the latency phase's round trips with their send times (to line stalls up with
 * `perf sched` or --trace-gc records), BENCH_WRITE=1 also writes the report to apps/server/BENCHMARKS.md, BENCH_TIMEOUT_SECONDS (default 600)
 * aborts a run that hangs. Everything is stopped at the end, also on errors and Ctrl-C: sockets closed, the
 * server sent SIGTERM (SIGKILL after 10 s), the schema dropped.
 *
 * This file runs the phases in order and prints (or writes) the report; its parts are in bench/server-bench/:
 * the settings, the server child and its inspector (child.ts), the CPU and GC readings (cpu.ts), the load
 * generator (load.ts), the phases (throughput-phase.ts: 1 and 1b, latency-phase.ts: 2, memory and 2b,
 * history-phase.ts: 3, profile-phase.ts: 4, overload-phase.ts: 5; run.ts: what they share), the profile
 * summaries (profile.ts), the report (report-lines.ts) and its rows (report.ts).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from './database.js';
import { rssOf } from './proc.js';
import { DATABASE_URL, SERVER_DIR, TIMEOUT_SECONDS, WRITE } from './server-bench/settings.js';
import { fail, runState, sockets } from './server-bench/state.js';
import { Inspector, type Server, startServer, stopServer } from './server-bench/child.js';
import { GC_OBSERVER } from './server-bench/cpu.js';
import { totalAcked } from './server-bench/load.js';
import type { BenchRun } from './server-bench/run.js';
import { throughputPhase } from './server-bench/throughput-phase.js';
import { latencyPhase } from './server-bench/latency-phase.js';
import { historyPhase } from './server-bench/history-phase.js';
import { profilePhase } from './server-bench/profile-phase.js';
import { overloadPhase } from './server-bench/overload-phase.js';
import { reportLines } from './server-bench/report-lines.js';

function schemaUrl(base: string, schema: string): string {
  const u = new URL(base);
  u.searchParams.set('schema', schema);
  return u.toString();
}

function withoutSchema(url: string): string {
  const u = new URL(url);
  u.searchParams.delete('schema');
  return u.toString();
}

async function main(): Promise<string[]> {
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = schemaUrl(DATABASE_URL, schema);
  await ensureDatabase(DATABASE_URL);
  runState.createdSchema = schema;
  const db = new pg.Client({ connectionString: withoutSchema(DATABASE_URL) });
  await db.connect();
  let inspector: Inspector | undefined;
  let server: Server | undefined;
  const load: number[][] = [loadavg()];
  /** Load average (1, 5, 15 min) before and after each phase. */
  const phaseLoad: string[][] = [];
  const loadNow = (): string =>
    loadavg()
      .map((v) => v.toFixed(2))
      .join(' ');
  const measured = async <T>(phase: string, run: () => Promise<T>): Promise<T> => {
    const before = loadNow();
    const r = await run();
    phaseLoad.push([phase, before, loadNow()]);
    return r;
  };
  try {
    const settings = await db.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('synchronous_commit', 'fsync', 'server_version')",
    );
    const pgSetting = (n: string): string => settings.rows.find((r) => r.name === n)?.setting ?? '?';
    console.error(`starting the server (schema ${schema}) …`);
    server = await startServer(url);
    if (server.inspectorUrl) {
      inspector = await Inspector.connect(server.inspectorUrl);
      await inspector.call('Runtime.evaluate', { expression: GC_OBSERVER, returnByValue: true });
      runState.gcInspector = inspector;
    }
    const startedRss = rssOf(server.pid);

    const run: BenchRun = { server, inspector, db, load, measured };

    // 1. Throughput, and the platform's ceiling (1b).
    const {
      throughput,
      bare,
      ratio,
      bareServer,
      bareAcked: throughputBareAcked,
    } = await throughputPhase(run);

    // 2. Memory before, latency at a fixed rate, memory after; 2b. the platform at the same rate.
    const latencyRun = await latencyPhase(run, bareServer);
    const { m0, m1, m2, m3, lSockets, latency, bareLatency, versionAfterLatency } = latencyRun;
    const bareAcked = throughputBareAcked + latencyRun.bareAcked;

    // 3. Longer histories (closed loop on every socket until each game has HISTORY moves).
    const { history, historyShed, m4, versionAfterHistory } = await historyPhase(
      run,
      lSockets,
      versionAfterLatency,
    );

    // 4. Optional CPU profile of the throughput loop (first SOCKETS latency sockets).
    const profileLines = await profilePhase(run, lSockets);

    // 5. Overload: twice the measured capacity offered on the latency sockets.
    const { overloadRate, overload, shed } = await overloadPhase(run, throughput, lSockets);

    for (const s of lSockets) {
      s.close();
      sockets.delete(s);
    }

    // Persistence check: every acknowledged move is a row of the schema's Move table.
    const rows = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."Move"`);
    const persisted = Number(rows.rows[0]?.n ?? NaN);
    load.push(loadavg());

    const lines = reportLines({
      pgSetting,
      startedRss,
      load,
      phaseLoad,
      throughput,
      bare,
      ratio,
      latency,
      bareLatency,
      history,
      historyShed,
      m0,
      m1,
      m2,
      m3,
      m4,
      versionAfterLatency,
      versionAfterHistory,
      profileLines,
      overloadRate,
      overload,
      shed,
      persisted,
      bareAcked,
    });
    if (persisted !== totalAcked - bareAcked) process.exitCode = 1;
    return lines;
  } finally {
    runState.closing = true;
    for (const s of sockets) s.close();
    sockets.clear();
    inspector?.close();
    if (server) await stopServer(server);
    if (runState.bareRunning) await stopServer(runState.bareRunning);
    runState.running = undefined;
    try {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      runState.createdSchema = undefined;
    } finally {
      await db.end();
    }
  }
}

/** After a failure: sockets closed, server stopped, schema dropped (main's own `finally` may be stuck). */
async function emergencyStop(): Promise<void> {
  runState.closing = true;
  for (const s of sockets) s.close();
  if (runState.running) await stopServer(runState.running);
  if (runState.bareRunning) await stopServer(runState.bareRunning);
  if (runState.createdSchema === undefined) return;
  const db = new pg.Client({ connectionString: withoutSchema(DATABASE_URL) });
  try {
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${runState.createdSchema}" CASCADE`);
    runState.createdSchema = undefined;
  } finally {
    await db.end();
  }
}

const timeout = setTimeout(() => {
  console.error(`the benchmark did not finish within ${TIMEOUT_SECONDS} s: stopping`);
  fail(new Error('timed out'));
}, TIMEOUT_SECONDS * 1000);

process.once('SIGINT', () => fail(new Error('interrupted')));
process.once('SIGTERM', () => fail(new Error('terminated')));

const aborted = new Promise<never>((_, rej) => {
  runState.failure = rej;
});
const run = main();
try {
  const lines = await Promise.race([run, aborted]);
  const text = lines.join('\n');
  console.log(text);
  if (WRITE) {
    const file = join(SERVER_DIR, 'BENCHMARKS.md');
    writeFileSync(
      file,
      [
        '# Server benchmarks',
        '',
        'Written by `BENCH_WRITE=1 pnpm bench:server` (apps/server/bench/server.bench.ts): the server runs as a',
        'child process on 127.0.0.1 against Postgres; each socket plays its own classic-draw1 game with `draw` /',
        '`recycle` moves (validated by the rules package, committed to Postgres, answered with a `state` frame).',
        '',
        text,
        '',
      ].join('\n'),
    );
    console.error(`written to ${file}`);
  }
} catch (e) {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  if (runState.running) console.error(`server output:\n${runState.running.output().slice(-4000)}`);
  process.exitCode = 1;
  await emergencyStop().catch((err: unknown) => console.error('cleanup failed:', err));
} finally {
  clearTimeout(timeout);
}
process.exit();
