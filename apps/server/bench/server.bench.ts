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
 * This file runs the phases and writes the report; its parts are in bench/server-bench/: the settings, the
 * server child and its inspector (child.ts), the CPU and GC readings (cpu.ts), the load generator (load.ts),
 * the profile summaries (profile.ts) and the report's rows (report.ts).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from './database.js';
import { gitHead } from './run-info.js';
import { rssOf } from './proc.js';
import {
  BUDGET,
  DATABASE_URL,
  HISTORY,
  HISTORY_MAX_SECONDS,
  LATENCY_SOCKETS,
  PROFILE,
  PROFILE_SECONDS,
  RATE,
  ROUNDS,
  RTT_DUMP,
  SECONDS,
  SERVER_DIR,
  SOCKETS,
  TIMEOUT_SECONDS,
  WARMUP_SECONDS,
  WRITE,
} from './server-bench/settings.js';
import { int, kb, mb, ms, quantile, sleep, table } from './server-bench/format.js';
import { fail, runState, sockets } from './server-bench/state.js';
import {
  BARE_ENTRY,
  Inspector,
  type Memory,
  type Server,
  memory,
  startCommand,
  startServer,
  stopServer,
} from './server-bench/child.js';
import { CpuWindow, GC_OBSERVER } from './server-bench/cpu.js';
import {
  type PhaseResult,
  closedLoop,
  createGames,
  errorCodes,
  mergeResults,
  openLoop,
  openSockets,
  totalAcked,
  validated,
} from './server-bench/load.js';
import {
  type AllocationProfile,
  type CpuProfile,
  summariseAllocations,
  summariseProfile,
} from './server-bench/profile.js';
import { cpuRow, cpuShareLines, gcRow } from './server-bench/report.js';

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

    // 1. Throughput, and the platform's ceiling: the bare server (bench/bare-server.ts) with the same number
    // of sockets and the same closed loop. The machine's load drifts (other work shares it), so the two run
    // in alternating windows, BENCH_ROUNDS each (default 2) of BENCH_SECONDS / BENCH_ROUNDS, and each side's
    // windows are summed: both see the same mix of quiet and busy moments.
    console.error(
      `throughput vs bare platform server: ${SOCKETS} sockets each, ${ROUNDS} alternating rounds of ${SECONDS / ROUNDS} s …`,
    );
    const tGames = await createGames(server, SOCKETS, 1);
    const tSockets = await openSockets(server, tGames, 't');
    const bareServer = await startServer('', BARE_ENTRY);
    const bareGames = Array.from({ length: SOCKETS }, () => ({ id: randomBytes(12).toString('base64url') }));
    const bareSockets = await openSockets(bareServer, bareGames, 'b');
    const realParts: PhaseResult[] = [];
    const bareParts: PhaseResult[] = [];
    let bareAcked = 0;
    const windowMs = (SECONDS * 1000) / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      const warmupMs = round === 0 ? WARMUP_SECONDS * 1000 : 1000;
      const srv = server;
      realParts.push(
        await measured(`throughput, round ${round + 1}`, () =>
          closedLoop(tSockets, warmupMs, windowMs, new CpuWindow(srv, db)),
        ),
      );
      const before = totalAcked;
      bareParts.push(
        await measured(`bare platform server, round ${round + 1}`, () =>
          closedLoop(bareSockets, warmupMs, windowMs, new CpuWindow(bareServer, db)),
        ),
      );
      bareAcked += totalAcked - before;
    }
    const throughput = mergeResults(realParts);
    const bare = mergeResults(bareParts);
    for (const s of [...tSockets, ...bareSockets]) {
      s.close();
      sockets.delete(s);
    }
    const ratio = throughput.rate / bare.rate;
    load.push(loadavg());
    await sleep(500);

    // 2. Memory before, latency at a fixed rate, memory after.
    console.error(`memory + latency: ${LATENCY_SOCKETS} sockets, ${RATE} moves/s …`);
    const m0 = await memory(server, inspector);
    const lGames = await createGames(server, LATENCY_SOCKETS, 100_001);
    const m1 = await memory(server, inspector);
    const lSockets = await openSockets(server, lGames, 'l');
    const m2 = await memory(server, inspector);
    const latency = await measured(`latency (open loop, ${RATE}/s)`, () =>
      openLoop(
        lSockets,
        RATE,
        WARMUP_SECONDS * 1000,
        SECONDS * 1000,
        new CpuWindow(server as Server, db),
        RTT_DUMP,
      ),
    );
    load.push(loadavg());
    const m3 = await memory(server, inspector);

    // 2b. The platform at the same open-loop rate on as many sockets, right after: the share of the p99 that
    // the machine itself sets (the bare server has no database and no rules; a stall of a core shows in both).
    console.error(`bare platform server: ${LATENCY_SOCKETS} sockets, ${RATE} messages/s …`);
    const bareLatencyGames = Array.from({ length: LATENCY_SOCKETS }, () => ({
      id: randomBytes(12).toString('base64url'),
    }));
    const bareLatencySockets = await openSockets(bareServer, bareLatencyGames, 'bl');
    const ackedBeforeBareLatency = totalAcked;
    const bareLatency = await measured(`bare platform server (open loop, ${RATE}/s)`, () =>
      openLoop(
        bareLatencySockets,
        RATE,
        WARMUP_SECONDS * 1000,
        SECONDS * 1000,
        new CpuWindow(bareServer, db),
      ),
    );
    bareAcked += totalAcked - ackedBeforeBareLatency;
    for (const s of bareLatencySockets) {
      s.close();
      sockets.delete(s);
    }
    await stopServer(bareServer);
    runState.bareRunning = undefined;
    load.push(loadavg());
    const versionAfterLatency = lSockets.reduce((a, s) => a + s.version, 0) / lSockets.length;

    // 3. Longer histories (closed loop on every socket until each game has HISTORY moves).
    let history: PhaseResult | undefined;
    /** Moves of the history phase shed as `overloaded` (1,000 sockets in a closed loop outrun the queue). */
    let historyShed = 0;
    let m4: Memory | undefined;
    let versionAfterHistory = versionAfterLatency;
    if (HISTORY > versionAfterLatency) {
      console.error(`history: up to ${HISTORY} moves per game on ${LATENCY_SOCKETS} sockets …`);
      const srv = server;
      const shedBeforeHistory = errorCodes.get('overloaded') ?? 0;
      history = await measured('history', () =>
        closedLoop(
          lSockets,
          0,
          HISTORY_MAX_SECONDS * 1000,
          new CpuWindow(srv, db),
          (s) => s.version >= HISTORY,
        ),
      );
      historyShed = (errorCodes.get('overloaded') ?? 0) - shedBeforeHistory;
      load.push(loadavg());
      m4 = await memory(server, inspector);
      versionAfterHistory = lSockets.reduce((a, s) => a + s.version, 0) / lSockets.length;
    }

    // 4. Optional CPU profile of the throughput loop (first SOCKETS latency sockets).
    let profileLines: string[] = [];
    if (PROFILE && inspector) {
      console.error(
        `profile: ${PROFILE_SECONDS} s closed loop on ${Math.min(SOCKETS, lSockets.length)} sockets …`,
      );
      await inspector.call('Profiler.enable');
      await inspector.call('Profiler.setSamplingInterval', { interval: 500 });
      await inspector.call('Profiler.start');
      // Allocations too, the young-generation garbage included (what the scavenges pay for).
      await inspector.call('HeapProfiler.startSampling', {
        samplingInterval: 16_384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      const profiled = await closedLoop(lSockets.slice(0, SOCKETS), 0, PROFILE_SECONDS * 1000, undefined);
      const { profile: allocations } = await inspector.call<{ profile: AllocationProfile }>(
        'HeapProfiler.stopSampling',
      );
      const { profile } = await inspector.call<{ profile: CpuProfile }>('Profiler.stop');
      const file = join(tmpdir(), `klondike-server-bench-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      profileLines = [
        `### CPU profile of the server (${PROFILE_SECONDS} s closed loop, ${Math.min(SOCKETS, lSockets.length)} sockets, ${int(profiled.rate)} moves/s under the profiler)`,
        '',
        `Saved as \`${file}\` (open in Chrome DevTools → Performance).`,
        '',
        ...summariseProfile(profile),
        '',
        ...summariseAllocations(allocations, profiled.rate * PROFILE_SECONDS),
      ];
    }

    // 5. Overload: twice the measured capacity offered on the latency sockets; moves past the server's commit
    // queue are shed (`overloaded` error frames), the accepted ones must stay fast.
    const overloadRate = Math.max(RATE, Math.round(2 * throughput.rate));
    console.error(`overload: ${overloadRate} moves/s offered on ${LATENCY_SOCKETS} sockets …`);
    const shedBefore = errorCodes.get('overloaded') ?? 0;
    const overload = await measured(`overload (open loop, ${overloadRate}/s)`, () =>
      openLoop(
        lSockets,
        overloadRate,
        WARMUP_SECONDS * 1000,
        SECONDS * 1000,
        new CpuWindow(server as Server, db),
      ),
    );
    const shed = (errorCodes.get('overloaded') ?? 0) - shedBefore;
    load.push(loadavg());

    for (const s of lSockets) {
      s.close();
      sockets.delete(s);
    }

    // Persistence check: every acknowledged move is a row of the schema's Move table.
    const rows = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."Move"`);
    const persisted = Number(rows.rows[0]?.n ?? NaN);
    load.push(loadavg());

    // ---------- report ----------
    const perGame = (a: Memory, b: Memory, key: 'rss' | 'heap'): number =>
      (b[key] - a[key]) / LATENCY_SOCKETS;
    const memFinal = m4 ?? m3;
    const versionFinal = m4 ? versionAfterHistory : versionAfterLatency;
    const memHeapPerGame = perGame(m0, memFinal, 'heap');
    const memRssPerGame = perGame(m0, memFinal, 'rss');
    const memVerdictValue = Number.isNaN(memHeapPerGame) ? memRssPerGame : memHeapPerGame;
    const ok = (pass: boolean): string => (pass ? 'OK' : 'BELOW');
    const cpu = cpus()[0]?.model ?? '?';
    const loads = load.map((l) => (l[0] as number).toFixed(2)).join(' → ');
    const lines: string[] = [
      `Run on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: ${availableParallelism()} cores (nproc), ${cpu}, ` +
        `node ${process.version}, PostgreSQL ${pgSetting('server_version')} on 127.0.0.1 ` +
        `(synchronous_commit ${pgSetting('synchronous_commit')}, fsync ${pgSetting('fsync')}), git ${gitHead(SERVER_DIR)}; ` +
        `server started as \`${startCommand()}\`.`,
      `1-minute load average (start → after each phase → end): ${loads}. The load generator runs on the same ` +
        `machine; any other work running there competes for the same cores.`,
      '',
      ...table(
        ['budget', 'measured', 'verdict'],
        [
          [
            `validated, persisted moves over WebSocket ≥ ${int(BUDGET.movesPerSecond)}/s`,
            `${int(throughput.rate)} moves/s (${SOCKETS} sockets, closed loop)`,
            ok(throughput.rate >= BUDGET.movesPerSecond),
          ],
          [
            'ratio to the bare Fastify + ws + zod server (same sockets, same load) ≥ 0.5',
            `${ratio.toFixed(2)} (${int(throughput.rate)} ÷ ${int(bare.rate)} messages/s)`,
            ok(ratio >= 0.5),
          ],
          [
            `p99 round trip ≤ ${BUDGET.p99Ms} ms at ${int(RATE)} moves/s, ${int(LATENCY_SOCKETS)} sockets open`,
            `p99 ${ms(quantile(latency.rtt, 0.99))} ms (${int(latency.rate)} moves/s achieved; the bare server's at the same load: ${ms(quantile(bareLatency.rtt, 0.99))} ms)`,
            ok(quantile(latency.rtt, 0.99) <= BUDGET.p99Ms && latency.rate >= 0.95 * RATE),
          ],
          [
            `memory per live game (socket + state + history) ≤ ${BUDGET.bytesPerGame / 1024} KB`,
            `${kb(memHeapPerGame)} heap + external, ${kb(memRssPerGame)} RSS (${versionFinal.toFixed(0)} moves of history)`,
            ok(memVerdictValue <= BUDGET.bytesPerGame),
          ],
          [
            'errors (error frames other than `overloaded` shedding)',
            String([...errorCodes].filter(([c]) => c !== 'overloaded').reduce((a, [, n]) => a + n, 0)),
            ok([...errorCodes].every(([c]) => c === 'overloaded')),
          ],
          [
            '`Move` rows = acknowledged moves',
            `${int(persisted)} rows, ${int(totalAcked - bareAcked)} acknowledged`,
            ok(persisted === totalAcked - bareAcked),
          ],
          [
            `overload: p99 of accepted moves bounded at 2× capacity (${int(overloadRate)} moves/s offered)`,
            `p99 ${ms(quantile(overload.rtt, 0.99))} ms; ${int(overload.rate)} accepted/s, ${int(shed)} shed`,
            ok(quantile(overload.rtt, 0.99) <= 1000),
          ],
        ],
      ),
      '',
      '### Round trips (ms: a move frame sent → its own `state` frame received)',
      '',
      ...table(
        ['phase', 'sockets', 'moves/s', 'moves', 'p50', 'p95', 'p99', 'max', 'errors'],
        [
          [
            'bare platform server (closed loop, no persistence)',
            int(SOCKETS),
            int(bare.rate),
            int(bare.acked),
            ms(quantile(bare.rtt, 0.5)),
            ms(quantile(bare.rtt, 0.95)),
            ms(quantile(bare.rtt, 0.99)),
            ms(bare.rtt.at(-1) ?? NaN),
            String(bare.errors),
          ],
          [
            'throughput (closed loop)',
            int(SOCKETS),
            int(throughput.rate),
            int(throughput.acked),
            ms(quantile(throughput.rtt, 0.5)),
            ms(quantile(throughput.rtt, 0.95)),
            ms(quantile(throughput.rtt, 0.99)),
            ms(throughput.rtt.at(-1) ?? NaN),
            String(throughput.errors),
          ],
          [
            `latency (open loop, ${int(RATE)}/s)`,
            int(LATENCY_SOCKETS),
            int(latency.rate),
            int(latency.acked),
            ms(quantile(latency.rtt, 0.5)),
            ms(quantile(latency.rtt, 0.95)),
            ms(quantile(latency.rtt, 0.99)),
            ms(latency.rtt.at(-1) ?? NaN),
            String(latency.errors),
          ],
          [
            'latency, from the scheduled send time',
            int(LATENCY_SOCKETS),
            '',
            '',
            ms(quantile(latency.fromSchedule, 0.5)),
            ms(quantile(latency.fromSchedule, 0.95)),
            ms(quantile(latency.fromSchedule, 0.99)),
            ms(latency.fromSchedule.at(-1) ?? NaN),
            '',
          ],
          [
            `bare platform server (open loop, ${int(RATE)}/s)`,
            int(LATENCY_SOCKETS),
            int(bareLatency.rate),
            int(bareLatency.acked),
            ms(quantile(bareLatency.rtt, 0.5)),
            ms(quantile(bareLatency.rtt, 0.95)),
            ms(quantile(bareLatency.rtt, 0.99)),
            ms(bareLatency.rtt.at(-1) ?? NaN),
            String(bareLatency.errors),
          ],
          ...(history
            ? [
                [
                  `history (closed loop, to ${HISTORY} moves/game)`,
                  int(LATENCY_SOCKETS),
                  int(history.rate),
                  int(history.acked),
                  ms(quantile(history.rtt, 0.5)),
                  ms(quantile(history.rtt, 0.95)),
                  ms(quantile(history.rtt, 0.99)),
                  ms(history.rtt.at(-1) ?? NaN),
                  history.errors === historyShed
                    ? `${int(historyShed)} shed`
                    : `${int(history.errors - historyShed)}, ${int(historyShed)} shed`,
                ],
              ]
            : []),
          [
            `overload (open loop, ${int(overloadRate)}/s offered): accepted`,
            int(LATENCY_SOCKETS),
            int(overload.rate),
            int(overload.acked),
            ms(quantile(overload.rtt, 0.5)),
            ms(quantile(overload.rtt, 0.95)),
            ms(quantile(overload.rtt, 0.99)),
            ms(overload.rtt.at(-1) ?? NaN),
            `${int(overload.errors)} shed`,
          ],
        ],
      ),
      '',
      '### Machine load (`uptime` load averages 1 / 5 / 15 min) before and after each phase',
      '',
      ...table(['phase', 'before', 'after'], phaseLoad),
      '',
      `Open loop: ${int(RATE)} moves/s in total, each socket every ${ms((1000 * LATENCY_SOCKETS) / RATE)} ms; ` +
        `client send lag p99 ${ms(latency.sendLagP99)} ms; slots that found their socket's last move ` +
        `unanswered (sent once it was answered): ${int(latency.backlogged)}, of which ${int(latency.unsent)} were still ` +
        `waiting at the end and dropped. Round trips over ${BUDGET.p99Ms} ms: ${int(latency.slow.count)}, sent in ` +
        `${int(latency.slow.stretches)} stretches of 100 ms (the fullest: ${int(latency.slow.largest)}; a few full stretches are stalls, ` +
        `many thin ones a slow path). Round trips count from the actual send. Warm-up ${WARMUP_SECONDS} s before each measured ${SECONDS} s` +
        (history ? `; the history phase ran ${history.seconds.toFixed(1)} s.` : '.'),
      '',
      '### CPU during the measured windows (% of one core; machine and stolen: % of all cores, other work included)',
      '',
      ...table(
        [
          'phase',
          'server process',
          'its Postgres backends',
          'load generator',
          'machine',
          'of it stolen',
          'other processes (the most)',
          'waiting for a core: server / Postgres / load generator',
          'CPU µs per move: server / Postgres / load generator',
          'server writes / reads per move',
        ],
        [
          cpuRow('bare platform server', bare.cpu, bare.rate, bare.acked),
          cpuRow('throughput', throughput.cpu, throughput.rate, throughput.acked),
          cpuRow('latency', latency.cpu, latency.rate, latency.acked),
          cpuRow(
            `bare platform server, ${int(RATE)}/s`,
            bareLatency.cpu,
            bareLatency.rate,
            bareLatency.acked,
          ),
          ...(history ? [cpuRow('history', history.cpu, history.rate, history.acked)] : []),
          cpuRow('overload', overload.cpu, overload.rate, overload.acked),
        ],
      ),
      '',
      'Waiting for a core: the time the threads of each were runnable but not running (the run queue, ' +
        '/proc/<pid>/task/<tid>/schedstat), in % of one core. Where processes wait and yet the machine is not ' +
        'fully busy, work came in bursts or queued on one core while the other idled: a persisted move passes ' +
        'through three processes in turn (load generator → server → Postgres → server), a bare one through two. ' +
        "Stolen: time the hypervisor gave this virtual machine's cores to other guests while they had work " +
        '(/proc/stat); it makes every process slower and the figures of two runs harder to compare. Other ' +
        "processes: every other process's CPU (/proc/<pid>/stat), kernel threads and Postgres's own " +
        'background processes included; a kernel thread that takes a core in bursts delays whichever of the ' +
        'three it displaces on a 2-core machine.',
      '',
      ...cpuShareLines(throughput, bare),
      '### Garbage collection during the measured windows (main-thread pauses, perf_hooks): the server, and the load generator, whose pauses add to the round trips it measures',
      '',
      ...table(
        [
          'phase',
          'scavenges',
          'ms',
          'mark-compacts',
          'ms',
          'other (incremental, weak)',
          'ms',
          'longest pause ms',
          'GC % of window',
        ],
        [
          gcRow('throughput', throughput),
          gcRow('latency', latency),
          ...(history ? [gcRow('history', history)] : []),
          gcRow('overload', overload),
          gcRow('throughput: load generator', throughput, 'client'),
          gcRow('latency: load generator', latency, 'client'),
        ],
      ),
      '',
      `### Memory of the server process (${int(LATENCY_SOCKETS)} games; heap = heapUsed + external after a forced GC)`,
      '',
      ...table(
        ['point', 'RSS', 'heap + external', 'Δ RSS / game', 'Δ heap / game'],
        [
          ['started (before any game)', mb(startedRss), '', '', ''],
          ['after throughput phase (baseline)', mb(m0.rss), mb(m0.heap), '', ''],
          [
            'games created over REST, no socket',
            mb(m1.rss),
            mb(m1.heap),
            kb(perGame(m0, m1, 'rss')),
            kb(perGame(m0, m1, 'heap')),
          ],
          [
            '+ one socket each, subscribed',
            mb(m2.rss),
            mb(m2.heap),
            kb(perGame(m0, m2, 'rss')),
            kb(perGame(m0, m2, 'heap')),
          ],
          [
            `+ latency run (${versionAfterLatency.toFixed(1)} moves/game)`,
            mb(m3.rss),
            mb(m3.heap),
            kb(perGame(m0, m3, 'rss')),
            kb(perGame(m0, m3, 'heap')),
          ],
          ...(m4
            ? [
                [
                  `+ history (${versionAfterHistory.toFixed(1)} moves/game)`,
                  mb(m4.rss),
                  mb(m4.heap),
                  kb(perGame(m0, m4, 'rss')),
                  kb(perGame(m0, m4, 'heap')),
                ],
              ]
            : []),
        ],
      ),
      '',
      `Δ RSS would be an upper bound (it includes socket buffers and heap the GC keeps reserved), but V8 grows ` +
        `and shrinks its heap with the allocation rate, so RSS swings by tens of MB between points (a negative Δ ` +
        `means it fell), i.e. tens of KB per game at ${int(LATENCY_SOCKETS)} games: read it as noise bounds. ` +
        `Δ heap counts the live objects the games add and is the figure the verdict uses.`,
      '',
      `Persistence: ${int(persisted)} \`Move\` rows in the schema for ${int(totalAcked - bareAcked)} acknowledged moves ` +
        `(${persisted === totalAcked - bareAcked ? 'equal' : 'DIFFERENT'}); error frames: ${
          errorCodes.size === 0 ? 'none' : [...errorCodes].map(([c, n]) => `${c} ${n}`).join(', ')
        }; ${validated} frames checked against ServerFrameSchema.`,
      ...(profileLines.length > 0 ? ['', ...profileLines] : []),
    ];
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
