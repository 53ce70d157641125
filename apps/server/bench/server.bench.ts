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
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  PerformanceObserver,
  type PerformanceEntry,
  constants as perfConstants,
  performance,
} from 'node:perf_hooks';
import { ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import pg from 'pg';
import WebSocket from 'ws';
import { ensureDatabase } from './database.js';
import { productionStart } from './production-start.js';
import { freePort } from '../test/processes.js';
import { envNumber } from './settings.js';
import { gitHead } from './run-info.js';
import { CLK_TCK, cpuSecondsOf, parseStat, rssOf } from './proc.js';

// ---------- settings ----------

const SERVER_DIR = resolve(import.meta.dirname, '..');
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const SOCKETS = Math.max(1, Math.min(5000, Math.round(envNumber('BENCH_SOCKETS', 200))));
const LATENCY_SOCKETS = Math.max(1, Math.min(5000, Math.round(envNumber('BENCH_LATENCY_SOCKETS', 1000))));
const RATE = Math.max(1, Math.min(50_000, envNumber('BENCH_RATE', 1000)));
const SECONDS = Math.max(1, Math.min(300, envNumber('BENCH_SECONDS', 10)));
const WARMUP_SECONDS = Math.min(60, envNumber('BENCH_WARMUP_SECONDS', 3));
const HISTORY = Math.min(1000, Math.round(envNumber('BENCH_HISTORY', 100)));
const HISTORY_MAX_SECONDS = Math.max(1, Math.min(600, envNumber('BENCH_HISTORY_MAX_SECONDS', 90)));
const PROFILE = process.env.BENCH_PROFILE === '1';
const PROFILE_SECONDS = Math.max(1, Math.min(60, envNumber('BENCH_PROFILE_SECONDS', 5)));
const INSPECT = process.env.BENCH_INSPECT !== '0' || PROFILE;
const WRITE = process.env.BENCH_WRITE === '1';
const ROUNDS = Math.max(1, Math.min(10, Math.round(envNumber('BENCH_ROUNDS', 2))));
/** Extra node/V8 flags for the real server (space-separated), e.g. BENCH_SERVER_FLAGS=--trace-gc. */
const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter((f) => f !== '');
/** BENCH_SERVER_LOG=file: the real server's standard output is also written there (e.g. with --trace-gc). */
const SERVER_LOG = process.env.BENCH_SERVER_LOG || undefined;
const TIMEOUT_SECONDS = Math.max(30, envNumber('BENCH_TIMEOUT_SECONDS', 600));
/**
 * BENCH_RTT_DUMP=file: the latency phase's moves are also written there, one line each, `<sent> <round trip>`
 * in ms (sent: ms into the measured window, by send order), after a first line `# <window start, ms since
 * the epoch>`, to line its stalls up with other records of the same moments (perf sched, --trace-gc).
 */
const RTT_DUMP = process.env.BENCH_RTT_DUMP || undefined;

/** the budgets of apps/server/BENCHMARKS.md. */
const BUDGET = { movesPerSecond: 5000, p99Ms: 10, bytesPerGame: 50 * 1024 } as const;

// ---------- small helpers ----------

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

const ms = (v: number): string => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Runs `fn` over `items` with at most `limit` calls in flight. */
async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A Markdown table whose columns are padded the way prettier formats them. */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = head.map((h, i) => Math.max(3, h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${widths.map((w, i) => (cells[i] ?? '').padEnd(w)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)];
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

// ---------- /proc ----------

/**
 * CPU seconds so far of every process on the machine but `exclude`, by pid, with its name (/proc/<pid>/stat).
 * Kernel threads are processes here too: on a virtual machine some of them (kdamond, kswapd, a virtio queue's
 * worker) take a core in bursts, and whatever takes a core from the three measured processes on a 2-core
 * machine shows in their round trips. Read asynchronously: a hundred or more files read in one go would
 * stall the load generator at the window's edge, where the moves it sends are measured.
 */
async function otherProcessesCpu(
  exclude: ReadonlySet<number>,
): Promise<ReadonlyMap<number, { name: string; cpu: number }>> {
  const pids = (await readdir('/proc'))
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && !exclude.has(pid));
  const stats = await Promise.all(
    pids.map((pid) =>
      readFile(`/proc/${pid}/stat`, 'utf8').then(
        (stat) => [pid, parseStat(stat)] as const,
        () => undefined, // gone meanwhile
      ),
    ),
  );
  return new Map(stats.filter((e) => e !== undefined));
}

/** The three that used the most, of those at 0.5 % of a core or more, most first. */
function topThree(
  list: readonly { readonly name: string; readonly pct: number }[],
): readonly { readonly name: string; readonly pct: number }[] {
  return [...list]
    .sort((x, y) => y.pct - x.pct)
    .slice(0, 3)
    .filter((o) => o.pct >= 0.5);
}

/**
 * A thread's seconds so far on a core and runnable but waiting for one (/proc/<pid>/task/<tid>/schedstat, its
 * first two fields, ns). Throws when the thread is gone.
 */
function schedstatOf(pid: number, tid: number | string): { run: number; wait: number } {
  const f = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/);
  return { run: Number(f[0]) / 1e9, wait: Number(f[1]) / 1e9 };
}

/**
 * Time each thread of a process has spent so far waiting for a core while runnable (the scheduler's run
 * queue), in seconds by thread id (/proc/<pid>/task/<tid>/schedstat, second field, ns); empty when the
 * process is gone. `waitedBetween` sums two readings over the threads present in both.
 */
function runQueueWaitOf(pid: number): ReadonlyMap<number, number> {
  const waits = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        waits.set(Number(tid), schedstatOf(pid, tid).wait);
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // the process is gone
  }
  return waits;
}

/**
 * The main thread of process `pid` (its JavaScript thread, task id = pid) so far: seconds on a core and
 * runnable but waiting for one (/proc/<pid>/task/<pid>/schedstat), and times it was switched out while it
 * could have run on (`nonvoluntary_ctxt_switches` of its status). NaN when unreadable.
 */
function mainThreadOf(pid: number): { run: number; wait: number; involuntary: number } {
  try {
    const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
    const involuntary = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    return { ...schedstatOf(pid, pid), involuntary };
  } catch {
    return { run: NaN, wait: NaN, involuntary: NaN };
  }
}

/** Seconds waited between two `runQueueWaitOf` readings, over the threads present in both. */
function waitedBetween(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): number {
  let s = 0;
  for (const [tid, t0] of a) {
    const t1 = b.get(tid);
    if (t1 !== undefined && Number.isFinite(t0) && Number.isFinite(t1)) s += t1 - t0;
  }
  return s;
}

/** Read and write system calls a process has made (NaN when unreadable). */
function syscallsOf(pid: number): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? NaN);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: NaN, writes: NaN };
  }
}

/**
 * Busy, stolen and total CPU time of the whole machine (all cores), in seconds (/proc/stat). Stolen: time a
 * virtual machine's cores were ready to run but the hypervisor ran something else (another guest); it is
 * counted in busy as well.
 */
function machineCpu(): { busy: number; steal: number; total: number } {
  const first = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const v = first.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: (total - idle) / CLK_TCK, steal: (v[7] ?? 0) / CLK_TCK, total: total / CLK_TCK };
}

/**
 * Local ports of `pid`'s TCP connections to port `remotePort` (from /proc/<pid>/fd and /proc/net/tcp*).
 * Asynchronous on purpose: with 1,000 sockets open that is a thousand `readlink`s and a /proc/net/tcp of
 * thousands of lines, tens of ms on a machine slow at system calls, which done synchronously stalled the load
 * generator's event loop and showed up as the slowest round trips of the window it opened.
 */
async function localPortsTo(pid: number, remotePort: number): Promise<number[]> {
  const inodes = new Set<string>();
  const links = await Promise.all(
    (await readdir(`/proc/${pid}/fd`)).map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')),
  );
  for (const link of links) {
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(m[1] as string);
  }
  const ports: number[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const f = row.trim().split(/\s+/);
      if (f.length < 10) continue;
      const local = parseInt((f[1] ?? '').split(':')[1] ?? '', 16);
      const remote = parseInt((f[2] ?? '').split(':')[1] ?? '', 16);
      if (remote === remotePort && inodes.has(f[9] ?? '')) ports.push(local);
    }
  }
  return ports;
}

interface CpuSnapshot {
  readonly at: number;
  readonly server: number;
  /** The server's read and write system calls so far (/proc/<pid>/io). */
  readonly syscalls: { reads: number; writes: number };
  readonly backends: ReadonlyMap<number, number>;
  readonly client: number;
  /** Run-queue waits so far per thread (`runQueueWaitOf`): the server, each Postgres backend, this process. */
  readonly waits: {
    readonly server: ReadonlyMap<number, number>;
    readonly backends: ReadonlyMap<number, ReadonlyMap<number, number>>;
    readonly client: ReadonlyMap<number, number>;
  };
  /** The load generator's GC counters so far. */
  readonly clientGc: GcUse;
  readonly machine: { busy: number; steal: number; total: number };
  /** The server's main thread so far (`mainThreadOf`). */
  readonly serverMain: { run: number; wait: number; involuntary: number };
}

/** CPU use over a window, in % of one core (machine: % of all cores). */
interface CpuUse {
  readonly server: number;
  readonly postgres: number;
  readonly client: number;
  readonly machine: number;
  /** Time the hypervisor took from this machine's cores (% of all cores; see `machineCpu`). */
  readonly steal: number;
  /**
   * Time spent runnable but waiting for a core, % of the window (summed over threads): the server, its
   * Postgres backends, the load generator. With three busy processes on two cores, this is what their
   * hand-offs cost beside the CPU they use.
   */
  readonly waiting: { readonly server: number; readonly postgres: number; readonly client: number };
  /**
   * The server's main thread, where every frame, move and answer is handled: % of the window on a core and
   * runnable but waiting for one, and times a second it was switched out while it could have run on.
   */
  readonly serverMain: {
    readonly running: number;
    readonly waiting: number;
    readonly involuntaryPerSecond: number;
  };
  /** The server's read and write system calls in the window. */
  readonly reads: number;
  readonly writes: number;
  /** The server's garbage collections in the window (through its inspector), or undefined without one. */
  readonly gc: GcUse | undefined;
  /** The load generator's own garbage collections in the window (its pauses delay the answers it reads). */
  readonly clientGc: GcUse;
  /**
   * Every other process in the window (kernel threads included), % of one core, and the three that used
   * the most (by name, those above 0.5 %).
   */
  readonly others: number;
  readonly topOthers: readonly { readonly name: string; readonly pct: number }[];
}

/** Garbage collections of the server in a window (perf_hooks `gc` entries: pauses of the main thread). */
interface GcUse {
  /** Scavenges (young generation). */
  readonly minor: number;
  readonly minorMs: number;
  /** Mark-compacts (old generation; the incremental marking steps counted apart). */
  readonly major: number;
  readonly majorMs: number;
  /** Incremental marking steps and weak-callback processing. */
  readonly other: number;
  readonly otherMs: number;
  /** Longest single pause. */
  readonly maxMs: number;
}

/**
 * Installs a perf_hooks GC observer in the server through its inspector (evaluated once, after start); each
 * CPU window reads its counters at its start and end (`gcCounters`): totals since installation, and the
 * longest pause since the window's start.
 */
const GC_OBSERVER = `(() => {
  if (globalThis.__benchGc) return true;
  const { PerformanceObserver, constants: c } = process.getBuiltinModule('node:perf_hooks');
  const s = (globalThis.__benchGc = { minor: 0, minorMs: 0, major: 0, majorMs: 0, other: 0, otherMs: 0, maxMs: 0 });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = e.detail?.kind;
      const key = kind === c.NODE_PERFORMANCE_GC_MINOR ? 'minor' : kind === c.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'other';
      s[key]++;
      s[key + 'Ms'] += e.duration;
      if (e.duration > s.maxMs) s.maxMs = e.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  return true;
})()`;

/** No collection at all (also the start of the load generator's counters). */
const NO_GC: GcUse = { minor: 0, minorMs: 0, major: 0, majorMs: 0, other: 0, otherMs: 0, maxMs: 0 };

/** The same counters for this process, the load generator (the same classification as GC_OBSERVER's). */
const clientGc = { ...NO_GC };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
      clientGc.minor++;
      clientGc.minorMs += e.duration;
    } else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
      clientGc.major++;
      clientGc.majorMs += e.duration;
    } else {
      clientGc.other++;
      clientGc.otherMs += e.duration;
    }
    clientGc.maxMs = Math.max(clientGc.maxMs, e.duration);
  }
}).observe({ entryTypes: ['gc'] });

/** GC counters over a window: `b − a`, with the longest pause `b` recorded since the window began. */
function gcBetween(a: GcUse, b: GcUse): GcUse {
  return {
    minor: b.minor - a.minor,
    minorMs: b.minorMs - a.minorMs,
    major: b.major - a.major,
    majorMs: b.majorMs - a.majorMs,
    other: b.other - a.other,
    otherMs: b.otherMs - a.otherMs,
    maxMs: b.maxMs,
  };
}

/** The GC observer's counters now (undefined when the server or its observer is gone); `resetMax` restarts the longest pause. */
async function gcCounters(inspector: Inspector, resetMax: boolean): Promise<GcUse | undefined> {
  try {
    const r = await inspector.call<{ result: { value: string } }>('Runtime.evaluate', {
      expression: `(() => { const s = globalThis.__benchGc; if (!s) return 'null'; const j = JSON.stringify(s); ${
        resetMax ? 's.maxMs = 0;' : ''
      } return j; })()`,
      returnByValue: true,
    });
    return JSON.parse(r.result.value) as GcUse | undefined;
  } catch {
    return undefined;
  }
}

/** Writes a line into the server's standard output (BENCH_SERVER_LOG), to place its --trace-gc lines. */
async function mark(inspector: Inspector, what: string): Promise<void> {
  try {
    await inspector.call('Runtime.evaluate', {
      expression: `process.stdout.write('[bench] ' + ${JSON.stringify(what)} + ' at ' + Math.round(performance.now()) + ' ms\\n')`,
    });
  } catch {
    // the server is gone
  }
}

/** The inspector of the real server while it runs (GC counters for the CPU windows). */
let gcInspector: Inspector | undefined;

// ---------- the server child ----------

interface Server {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly base: string;
  readonly wsUrl: string;
  readonly inspectorUrl: string | undefined;
  output(): string;
}

/** The production start (`pnpm start`): its environment assignments and node flags (bench/production-start.ts). */
const PRODUCTION = productionStart(SERVER_DIR);

/**
 * How the server runs: the production build with the production flags (`node <flags> dist/main.js`, as
 * `pnpm start` runs it, with the same environment assignments) when it exists, else the sources through tsx.
 */
const BUILT = existsSync(join(SERVER_DIR, 'dist', 'main.js'));
const SERVER_ENTRY: readonly string[] = BUILT
  ? [...PRODUCTION.nodeFlags, 'dist/main.js']
  : ['--import', 'tsx', 'src/main.ts'];
/** The environment assignments of the production start (none for the sources through tsx). */
const SERVER_ENV: Readonly<Record<string, string>> = BUILT ? PRODUCTION.env : {};

/** The real server's command line as the report prints it: environment assignments, node, flags, script. */
function startCommand(): string {
  const env = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v} `);
  return `${env.join('')}node ${[...SERVER_ENTRY.slice(0, -1), ...SERVER_FLAGS, ...SERVER_ENTRY.slice(-1)].join(' ')}`;
}

/** Starts the real server (`entry` default) or, with `entry` = the bare server's, the platform baseline. */
async function startServer(databaseUrl: string, entry: readonly string[] = SERVER_ENTRY): Promise<Server> {
  const port = await freePort();
  const inspect = INSPECT && entry === SERVER_ENTRY;
  const flags = entry === SERVER_ENTRY ? SERVER_FLAGS : [];
  // BENCH_SERVER_FLAGS go after the production flags and before the script, so that one of them repeating a
  // production flag with another value wins (node and V8 take the last).
  const script = entry.slice(-1);
  const args = [...(inspect ? ['--inspect=127.0.0.1:0'] : []), ...entry.slice(0, -1), ...flags, ...script];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      ...(entry === SERVER_ENTRY ? SERVER_ENV : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      WS_FRAMES_PER_SECOND: '0',
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      SOLVER_THREADS: '1',
      WEB_DIST: '/nonexistent-web-dist',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let inspectorUrl: string | undefined;
  if (SERVER_LOG !== undefined && entry === SERVER_ENTRY) {
    const log = createWriteStream(SERVER_LOG);
    child.stdout?.pipe(log);
  }
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
    inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(out)?.[1];
  });
  const server = {
    child,
    pid: child.pid ?? NaN,
    base: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/api/ws`,
    inspectorUrl: undefined as string | undefined,
    output: () => out,
  };
  if (entry === SERVER_ENTRY) running = server;
  else bareRunning = server;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${out}`);
    try {
      const r = await fetch(`${server.base}/api/health`);
      if (r.ok && (!inspect || inspectorUrl !== undefined)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start within 60 s:\n${out}`);
    await sleep(100);
  }
  server.inspectorUrl = inspectorUrl;
  return server;
}

/** The bare platform server (bench/bare-server.ts) through tsx: fastify + ws + zod + JSON, nothing else. */
const BARE_ENTRY: readonly string[] = ['--import', 'tsx', 'bench/bare-server.ts'];

/** SIGTERM (clean shutdown), SIGKILL after 10 s. */
async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A Chrome DevTools Protocol session on the child's inspector (memory after GC, CPU profile). */
class Inspector {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(rawText(data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (msg.id === undefined) return;
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.error) w.reject(new Error(`inspector: ${msg.error.message}`));
      else w.resolve(msg.result);
    });
    ws.on('close', () => {
      for (const w of this.waiting.values()) w.reject(new Error('inspector closed'));
      this.waiting.clear();
    });
  }

  static async connect(url: string): Promise<Inspector> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
    await new Promise<void>((res, rej) => {
      ws.once('open', () => res());
      ws.once('error', rej);
    });
    return new Inspector(ws);
  }

  call<T = unknown>(method: string, params: object = {}, timeoutMs = 60_000): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((res, rej) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        rej(new Error(`inspector: ${method} timed out`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          res(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          rej(e);
        },
      });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

interface Memory {
  readonly rss: number;
  /** heapUsed + external (external includes array buffers) after a forced GC; NaN without the inspector. */
  readonly heap: number;
  readonly heapUsed: number;
  readonly external: number;
}

async function memory(server: Server, inspector: Inspector | undefined): Promise<Memory> {
  let heapUsed = NaN;
  let external = NaN;
  if (inspector) {
    await inspector.call('HeapProfiler.collectGarbage');
    await inspector.call('HeapProfiler.collectGarbage');
    const r = await inspector.call<{ result: { value: string } }>('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const m = JSON.parse(r.result.value) as { heapUsed: number; external: number };
    heapUsed = m.heapUsed;
    external = m.external;
  } else {
    await sleep(500);
  }
  // RSS lags the GC (freed pages go back to the OS later): wait until it stops moving (≤ 5 s).
  let rss = rssOf(server.pid);
  for (let i = 0; i < 10; i++) {
    await sleep(500);
    if (inspector) await inspector.call('HeapProfiler.collectGarbage');
    const now = rssOf(server.pid);
    const settled = Math.abs(now - rss) < 256 * 1024;
    rss = now;
    if (settled) break;
  }
  return { rss, heap: heapUsed + external, heapUsed, external };
}

// ---------- the load generator ----------

/** A move frame sent and not yet answered. */
interface Pending {
  readonly id: string;
  /** When it was sent (performance.now()). */
  readonly sentAt: number;
  /** When the schedule wanted it sent (open loop; = sentAt in closed loop). */
  readonly scheduledAt: number;
}

type DoneHandler = (s: BenchSocket, p: Pending, ok: boolean, at: number) => void;

const DRAW = '{"type":"draw"}';
/** How long a socket whose move was shed (`overloaded`) waits before its next move, ms. */
const OVERLOAD_BACKOFF_MS = 100;
const RECYCLE = '{"type":"recycle"}';

let validated = 0;
let totalAcked = 0;
const errorCodes = new Map<string, number>();

/** One client socket playing one game: one move in flight at most. */
class BenchSocket {
  version = 0;
  stock = 0;
  waste = 0;
  pending: Pending | null = null;
  /** Open loop: schedule slots that came while a move was in flight. */
  readonly backlog: number[] = [];
  onDone: DoneHandler | null = null;
  private seq = 0;
  private received = 0;
  private subscribed: (() => void) | null = null;
  private closedHere = false;

  private constructor(
    readonly ws: WebSocket,
    readonly gameId: string,
    private readonly tag: string,
  ) {
    ws.on('message', (data) => this.onMessage(rawText(data)));
    ws.on('close', () => {
      if (!closing && !this.closedHere) fail(new Error(`the socket of game ${gameId} closed`));
    });
  }

  static async open(url: string, gameId: string, tag: string): Promise<BenchSocket> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((res, rej) => {
      ws.once('open', () => res());
      ws.once('error', rej);
    });
    const s = new BenchSocket(ws, gameId, tag);
    sockets.add(s);
    await s.subscribe();
    return s;
  }

  /** Subscribes (or resyncs): resolves on the `state` frame with cause `subscribe`. */
  subscribe(): Promise<void> {
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`subscribe ${this.gameId} timed out`)), 30_000);
      this.subscribed = () => {
        clearTimeout(timer);
        res();
      };
      this.ws.send(JSON.stringify({ type: 'subscribe', gameId: this.gameId }));
    });
  }

  private onMessage(text: string): void {
    const at = performance.now();
    const json: unknown = JSON.parse(text);
    // Every socket's first frame and every 500th after it are checked against the protocol's schema.
    const frame = (this.received++ % 500 === 0 ? ServerFrameSchema.parse(json) : json) as ServerFrame;
    if (this.received % 500 === 1) validated++;
    if (frame.type === 'state') {
      if (frame.gameId !== this.gameId) return;
      this.version = frame.version;
      this.stock = frame.view.stock.count;
      this.waste = frame.view.waste.length;
      if (frame.cause === 'subscribe') {
        const done = this.subscribed;
        this.subscribed = null;
        done?.();
        return;
      }
      const p = this.pending;
      if (p !== null && frame.requestId === p.id) {
        this.pending = null;
        totalAcked++;
        this.onDone?.(this, p, true, at);
      }
    } else if (frame.type === 'error') {
      errorCodes.set(frame.code, (errorCodes.get(frame.code) ?? 0) + 1);
      const p = this.pending;
      if (p !== null && frame.requestId === p.id && frame.code === 'overloaded') {
        // Shed before anything changed: the game is still at this socket's version. Back off like a client
        // honouring Retry-After would (briefly: the queue drains in well under a second at capacity).
        setTimeout(() => {
          this.pending = null;
          this.onDone?.(this, p, false, at);
        }, OVERLOAD_BACKOFF_MS);
      } else if (p !== null && frame.requestId === p.id) {
        // Resync from a fresh state frame, then go on.
        this.subscribe().then(
          () => {
            this.pending = null;
            this.onDone?.(this, p, false, performance.now());
          },
          (e: unknown) => fail(e),
        );
      }
    }
  }

  /** Sends the next legal move (draw, else recycle); false when neither is possible. */
  send(scheduledAt: number): boolean {
    const move = this.stock > 0 ? DRAW : this.waste > 0 ? RECYCLE : null;
    if (move === null) return false;
    const id = `${this.tag}.${++this.seq}`;
    this.pending = { id, sentAt: performance.now(), scheduledAt };
    this.ws.send(
      `{"type":"move","gameId":"${this.gameId}","move":${move},"version":${this.version},"requestId":"${id}"}`,
    );
    return true;
  }

  close(): void {
    this.closedHere = true;
    this.ws.close();
  }
}

interface Game {
  readonly id: string;
}

/** Creates `n` classic-draw1 games over REST (deal numbers first … first+n−1), 16 requests at a time. */
async function createGames(server: Server, n: number, first: number): Promise<Game[]> {
  const numbers = Array.from({ length: n }, (_, i) => first + i);
  return pool(numbers, 16, async (dealNumber) => {
    const r = await fetch(`${server.base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ preset: 'classic-draw1', dealNumber }),
    });
    if (r.status !== 201) throw new Error(`POST /api/games: ${r.status} ${await r.text()}`);
    const body = (await r.json()) as { id: string };
    return { id: body.id };
  });
}

async function openSockets(server: Server, games: readonly Game[], tag: string): Promise<BenchSocket[]> {
  return pool(games, 50, (g, i) => BenchSocket.open(server.wsUrl, g.id, `${tag}${i}`));
}

interface PhaseResult {
  /** Moves acknowledged per second in the measured window. */
  readonly rate: number;
  readonly acked: number;
  readonly errors: number;
  /** Round trips (send → own state frame), ms, sorted. */
  readonly rtt: number[];
  /** Open loop: schedule → own state frame (adds the client's scheduling lag), ms, sorted. */
  readonly fromSchedule: number[];
  readonly cpu: CpuUse | undefined;
  readonly seconds: number;
}

/**
 * CPU snapshots at the start and end of a measured window. The Postgres backends serving the server are looked
 * up before it (`prepare`, during the warm-up, when the pool's connections are open), asynchronously, so
 * that only the snapshots themselves (a few dozen small /proc reads) run on the load generator's thread at the
 * window's edges.
 */
class CpuWindow {
  private start: CpuSnapshot | undefined;
  private end: CpuSnapshot | undefined;
  private backendPids: number[] = [];
  private prepared: Promise<void> | undefined;
  private ready: Promise<void> = Promise.resolve();
  private gcStart: Promise<GcUse | undefined> = Promise.resolve(undefined);
  private gcEnd: Promise<GcUse | undefined> = Promise.resolve(undefined);
  /** Every other process's CPU seconds at the window's start and end (`otherProcessesCpu`). */
  private othersStart: Promise<ReadonlyMap<number, { name: string; cpu: number }>> | undefined;
  private othersEnd: Promise<ReadonlyMap<number, { name: string; cpu: number }>> | undefined;
  private readonly inspector: Inspector | undefined;

  constructor(
    private readonly server: Server,
    private readonly db: pg.Client,
  ) {
    this.inspector = server === running ? gcInspector : undefined;
  }

  private snapshot(): CpuSnapshot {
    return {
      at: performance.now(),
      server: cpuSecondsOf(this.server.pid),
      syscalls: syscallsOf(this.server.pid),
      backends: new Map(this.backendPids.map((p) => [p, cpuSecondsOf(p)])),
      client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
      waits: {
        server: runQueueWaitOf(this.server.pid),
        backends: new Map(this.backendPids.map((p) => [p, runQueueWaitOf(p)])),
        client: runQueueWaitOf(process.pid),
      },
      clientGc: { ...clientGc },
      machine: machineCpu(),
      serverMain: mainThreadOf(this.server.pid),
    };
  }

  /** Looks up the server's Postgres backends (once; `begin` does it itself if this was not called). */
  prepare(): Promise<void> {
    this.prepared ??= (async () => {
      const ports = await localPortsTo(this.server.pid, Number(new URL(DATABASE_URL).port || 5432));
      const r = await this.db.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])',
        [ports],
      );
      this.backendPids = r.rows.map((row) => row.pid);
    })();
    return this.prepared;
  }

  /**
   * Times the window: the backends looked up halfway through the warm-up, the window from `startMs` to
   * `startMs + durationMs` (ms from now). Returns what stops the timers not yet fired (a loop that ended early).
   */
  schedule(startMs: number, durationMs: number): () => void {
    const timers = [
      setTimeout(() => this.prepare().catch(() => undefined), startMs / 2),
      setTimeout(() => this.begin(), startMs),
      setTimeout(() => this.finish(), startMs + durationMs),
    ];
    return () => timers.forEach(clearTimeout);
  }

  begin(): void {
    clientGc.maxMs = 0;
    if (this.inspector) this.gcStart = gcCounters(this.inspector, true);
    if (this.inspector && SERVER_LOG !== undefined) void mark(this.inspector, 'measured window begins');
    this.ready = this.prepare().then(() => {
      this.start = this.snapshot();
      this.othersStart = otherProcessesCpu(this.measuredPids());
    });
  }

  /** The processes the window measures on their own: the server, its Postgres backends, this process. */
  private measuredPids(): ReadonlySet<number> {
    return new Set([this.server.pid, ...this.backendPids, process.pid]);
  }

  /** Ends the window (once: a later call changes nothing). */
  finish(): void {
    if (this.end) return;
    this.end = this.snapshot();
    this.othersEnd = otherProcessesCpu(this.measuredPids());
    if (this.inspector) this.gcEnd = gcCounters(this.inspector, false);
    if (this.inspector && SERVER_LOG !== undefined) void mark(this.inspector, 'measured window ends');
  }

  async use(): Promise<CpuUse | undefined> {
    await this.ready;
    const a = this.start;
    const b = this.end;
    if (!a || !b) return undefined;
    const secs = (b.at - a.at) / 1000;
    let postgres = 0;
    for (const [pid, t0] of a.backends) {
      const t1 = b.backends.get(pid);
      if (t1 !== undefined && Number.isFinite(t0) && Number.isFinite(t1)) postgres += t1 - t0;
    }
    const pct = (v: number): number => (100 * v) / secs;
    const [g0, g1] = await Promise.all([this.gcStart, this.gcEnd]);
    const [o0, o1] = await Promise.all([this.othersStart, this.othersEnd]);
    const others = [...(o1 ?? [])]
      .map(([pid, o]) => ({ name: o.name, pct: pct(o.cpu - (o0?.get(pid)?.cpu ?? o.cpu)) }))
      .filter((o) => Number.isFinite(o.pct) && o.pct > 0);
    return {
      gc: g0 && g1 ? gcBetween(g0, g1) : undefined,
      clientGc: gcBetween(a.clientGc, b.clientGc),
      server: pct(b.server - a.server),
      postgres: pct(postgres),
      client: pct(b.client - a.client),
      machine: (100 * (b.machine.busy - a.machine.busy)) / (b.machine.total - a.machine.total),
      steal: (100 * (b.machine.steal - a.machine.steal)) / (b.machine.total - a.machine.total),
      waiting: {
        server: pct(waitedBetween(a.waits.server, b.waits.server)),
        postgres: pct(
          [...a.waits.backends].reduce(
            (sum, [pid, w0]) => sum + waitedBetween(w0, b.waits.backends.get(pid) ?? new Map()),
            0,
          ),
        ),
        client: pct(waitedBetween(a.waits.client, b.waits.client)),
      },
      serverMain: {
        running: pct(b.serverMain.run - a.serverMain.run),
        waiting: pct(b.serverMain.wait - a.serverMain.wait),
        involuntaryPerSecond: (b.serverMain.involuntary - a.serverMain.involuntary) / secs,
      },
      reads: b.syscalls.reads - a.syscalls.reads,
      writes: b.syscalls.writes - a.syscalls.writes,
      others: others.reduce((sum, o) => sum + o.pct, 0),
      topOthers: topThree(others),
    };
  }
}

/**
 * Closed loop: every socket sends its next move as soon as the last one is answered. Measures after
 * `warmupMs` for `durationMs`; `stop` ends a socket's loop early (history phase).
 */
async function closedLoop(
  list: readonly BenchSocket[],
  warmupMs: number,
  durationMs: number,
  cpu: CpuWindow | undefined,
  stop?: (s: BenchSocket) => boolean,
): Promise<PhaseResult> {
  const t0 = performance.now();
  const from = t0 + warmupMs;
  let end = from + durationMs;
  const rtt: number[] = [];
  let acked = 0;
  let errors = 0;
  let active = list.length;
  let stoppedAt = NaN;
  const stopTimers = cpu?.schedule(warmupMs, durationMs);
  await new Promise<void>((res, rej) => {
    const guard = setTimeout(
      () => rej(new Error('closed loop: moves still unanswered 30 s after the end')),
      warmupMs + durationMs + 30_000,
    );
    const quit = (): void => {
      if (--active > 0) return;
      stoppedAt = performance.now();
      clearTimeout(guard);
      res();
    };
    const next = (s: BenchSocket): void => {
      const now = performance.now();
      if (now >= end || stop?.(s) || !s.send(now)) quit();
    };
    for (const s of list) {
      s.onDone = (sock, p, ok, at) => {
        if (!ok) errors++;
        else if (at >= from && at <= end) {
          acked++;
          if (p.sentAt >= from) rtt.push(at - p.sentAt);
        }
        next(sock);
      };
    }
    for (const s of list) next(s);
  });
  stopTimers?.();
  for (const s of list) s.onDone = null;
  // A loop that ended early (history reached) is measured up to its end.
  if (stoppedAt < end) end = stoppedAt;
  // Also when the end timer had not fired yet (a loaded machine runs timers late): the window still ends.
  cpu?.finish();
  const seconds = Math.max(0.001, (end - from) / 1000);
  rtt.sort((a, b) => a - b);
  return { rate: acked / seconds, acked, errors, rtt, fromSchedule: [], cpu: await cpu?.use(), seconds };
}

/** GC counts of several windows summed (longest pause: the longest of all); undefined if one is missing. */
function mergeGc(parts: readonly (GcUse | undefined)[]): GcUse | undefined {
  if (parts.length === 0 || parts.some((g) => g === undefined)) return undefined;
  const gs = parts as readonly GcUse[];
  const sum = (k: Exclude<keyof GcUse, 'maxMs'>): number => gs.reduce((a, g) => a + g[k], 0);
  return {
    minor: sum('minor'),
    minorMs: sum('minorMs'),
    major: sum('major'),
    majorMs: sum('majorMs'),
    other: sum('other'),
    otherMs: sum('otherMs'),
    maxMs: Math.max(...gs.map((g) => g.maxMs)),
  };
}

/** The other processes that used the most over several windows, by name, weighted by each window's time. */
function mergeTopOthers(
  cpus: readonly { c: CpuUse; w: number }[],
): readonly { readonly name: string; readonly pct: number }[] {
  const by = new Map<string, number>();
  for (const { c, w } of cpus) for (const o of c.topOthers) by.set(o.name, (by.get(o.name) ?? 0) + o.pct * w);
  return topThree([...by].map(([name, pct]) => ({ name, pct })));
}

/** Several measured windows of one kind as one result (counts and times summed, CPU weighted by time). */
function mergeResults(parts: readonly PhaseResult[]): PhaseResult {
  const seconds = parts.reduce((a, p) => a + p.seconds, 0);
  const acked = parts.reduce((a, p) => a + p.acked, 0);
  const cpus = parts.flatMap((p) => (p.cpu ? [{ c: p.cpu, w: p.seconds / seconds }] : []));
  const avg = (k: 'server' | 'postgres' | 'client' | 'machine' | 'steal' | 'others'): number =>
    cpus.reduce((a, { c, w }) => a + c[k] * w, 0);
  const avgWait = (k: 'server' | 'postgres' | 'client'): number =>
    cpus.reduce((a, { c, w }) => a + c.waiting[k] * w, 0);
  const avgMain = (k: 'running' | 'waiting' | 'involuntaryPerSecond'): number =>
    cpus.reduce((a, { c, w }) => a + c.serverMain[k] * w, 0);
  const cpu: CpuUse | undefined =
    cpus.length === parts.length
      ? {
          server: avg('server'),
          postgres: avg('postgres'),
          client: avg('client'),
          machine: avg('machine'),
          steal: avg('steal'),
          waiting: { server: avgWait('server'), postgres: avgWait('postgres'), client: avgWait('client') },
          serverMain: {
            running: avgMain('running'),
            waiting: avgMain('waiting'),
            involuntaryPerSecond: avgMain('involuntaryPerSecond'),
          },
          reads: cpus.reduce((a, { c }) => a + c.reads, 0),
          writes: cpus.reduce((a, { c }) => a + c.writes, 0),
          gc: mergeGc(cpus.map(({ c }) => c.gc)),
          clientGc: mergeGc(cpus.map(({ c }) => c.clientGc)) ?? NO_GC,
          others: avg('others'),
          topOthers: mergeTopOthers(cpus),
        }
      : undefined;
  return {
    rate: acked / seconds,
    acked,
    errors: parts.reduce((a, p) => a + p.errors, 0),
    rtt: parts.flatMap((p) => p.rtt).sort((a, b) => a - b),
    fromSchedule: [],
    cpu,
    seconds,
  };
}

/**
 * Open loop: `rate` moves per second in total, slot j at t0 + j/rate on socket j mod n (each socket every
 * n/rate s). A slot that finds its socket's last move unanswered waits for the answer (backlog).
 */
async function openLoop(
  list: readonly BenchSocket[],
  rate: number,
  warmupMs: number,
  durationMs: number,
  cpu: CpuWindow | undefined,
  dumpTo?: string,
): Promise<PhaseResult & { sendLagP99: number; backlogged: number; unsent: number; slow: SlowMoves }> {
  const interval = 1000 / rate;
  const t0 = performance.now() + 20;
  const from = t0 + warmupMs;
  const end = from + durationMs;
  const slots = Math.floor(((warmupMs + durationMs) / 1000) * rate);
  const rtt: number[] = [];
  const fromSchedule: number[] = [];
  const sendLag: number[] = [];
  /** Send times (ms into the window) of the moves whose round trip exceeded the p99 budget. */
  const slowSends: number[] = [];
  const dump: string[] = [];
  let acked = 0;
  let errors = 0;
  let backlogged = 0;
  let unsent = 0;
  let j = 0;
  const stopTimers = cpu?.schedule(warmupMs + 20, durationMs);
  await new Promise<void>((res, rej) => {
    const guard = setTimeout(
      () => rej(new Error('open loop: moves still unanswered 30 s after the end')),
      warmupMs + durationMs + 30_000,
    );
    const idle = (): boolean => list.every((s) => s.pending === null && s.backlog.length === 0);
    const sendSlot = (s: BenchSocket, at: number): void => {
      if (!s.send(at)) throw new Error(`game ${s.gameId}: no draw or recycle possible`);
      if (at >= from) sendLag.push(performance.now() - at);
    };
    for (const s of list) {
      s.onDone = (sock, p, ok, at) => {
        if (!ok) errors++;
        else {
          if (at >= from && at <= end) acked++;
          if (p.scheduledAt >= from) {
            if (at - p.sentAt > BUDGET.p99Ms) slowSends.push(p.sentAt - from);
            rtt.push(at - p.sentAt);
            if (dumpTo !== undefined)
              dump.push(`${(p.sentAt - from).toFixed(2)} ${(at - p.sentAt).toFixed(2)}`);
            fromSchedule.push(at - p.scheduledAt);
          }
        }
        // Slots still waiting when the window has ended are dropped (counted), not sent.
        if (performance.now() >= end) {
          unsent += sock.backlog.length;
          sock.backlog.length = 0;
        }
        const queued = sock.backlog.shift();
        if (queued !== undefined) sendSlot(sock, queued);
        else if (j >= slots && idle()) {
          clearTimeout(guard);
          res();
        }
      };
    }
    const tick = (): void => {
      const now = performance.now();
      while (j < slots && t0 + j * interval <= now) {
        const s = list[j % list.length] as BenchSocket;
        const at = t0 + j * interval;
        if (s.pending !== null) {
          s.backlog.push(at);
          backlogged++;
        } else sendSlot(s, at);
        j++;
      }
      if (j < slots) setTimeout(tick, Math.max(0, Math.min(1, t0 + j * interval - now)));
      else {
        for (const s of list) {
          unsent += s.backlog.length;
          s.backlog.length = 0;
        }
        if (idle()) {
          clearTimeout(guard);
          res();
        }
      }
    };
    setTimeout(tick, 20);
  });
  stopTimers?.();
  if (dumpTo !== undefined)
    writeFileSync(dumpTo, [`# ${(performance.timeOrigin + from).toFixed(1)}`, ...dump].join('\n') + '\n');
  cpu?.finish(); // when the end timer had not fired yet
  for (const s of list) s.onDone = null;
  rtt.sort((a, b) => a - b);
  fromSchedule.sort((a, b) => a - b);
  sendLag.sort((a, b) => a - b);
  const seconds = durationMs / 1000;
  return {
    rate: acked / seconds,
    acked,
    errors,
    rtt,
    fromSchedule,
    cpu: await cpu?.use(),
    seconds,
    sendLagP99: quantile(sendLag, 0.99),
    slow: slowMoves(slowSends),
    backlogged,
    unsent,
  };
}

/** The moves of an open-loop window slower than the p99 budget, and how they cluster in time. */
interface SlowMoves {
  readonly count: number;
  /** 100 ms stretches of send time holding at least one of them. */
  readonly stretches: number;
  /** The most of them sent within one stretch. */
  readonly largest: number;
}

/**
 * Groups the send times (ms) of slow moves by 100 ms: a few full stretches mean stalls (a pause of the server,
 * Postgres, the load generator or the machine), many thin ones a slow path spread over the window.
 */
function slowMoves(sendTimes: readonly number[]): SlowMoves {
  const by = new Map<number, number>();
  for (const t of sendTimes) {
    const stretch = Math.floor(t / 100);
    by.set(stretch, (by.get(stretch) ?? 0) + 1);
  }
  return { count: sendTimes.length, stretches: by.size, largest: Math.max(0, ...by.values()) };
}

// ---------- CPU profile summary ----------

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A sampling heap profile (HeapProfiler.stopSampling): a call tree with the bytes each frame allocated. */
interface AllocationProfile {
  head: AllocationNode;
}

interface AllocationNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: AllocationNode[];
}

/** Bytes allocated per move by function (self) and by area, from a sampling heap profile over `moves` moves. */
function summariseAllocations(profile: AllocationProfile, moves: number): string[] {
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  let total = 0;
  const walk = (n: AllocationNode): void => {
    if (n.selfSize > 0) {
      const { functionName, url, lineNumber } = n.callFrame;
      const where = url === '' ? '' : ` ${shortUrl(url)}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}`;
      const k = `${functionName || '(anonymous)'}${where}`;
      self.set(k, (self.get(k) ?? 0) + n.selfSize);
      const a = areaOf(url, functionName);
      area.set(a, (area.get(a) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  const perMove = (b: number): string => `${(b / Math.max(1, moves)).toFixed(0)} B`;
  const top = (m: Map<string, number>, n: number): [string, number][] =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `Allocations (sampled every 16 KB, garbage included): ${perMove(total)} per move in all.`,
    '',
    ...table(
      ['area', 'bytes / move'],
      top(area, 10).map(([k, v]) => [k, perMove(v)]),
    ),
    '',
    ...table(
      ['function', 'bytes / move'],
      top(self, 20).map(([k, v]) => [`\`${k}\``, perMove(v)]),
    ),
  ];
}

/** Which part of the stack a script belongs to. */
function areaOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native / V8 builtins)';
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    const p = pkg[1] as string;
    if (p.startsWith('@prisma/') || p === 'prisma' || p.includes('prisma')) return `prisma (${p})`;
    return p;
  }
  if (url.includes('/src/generated/')) return 'prisma (generated client)';
  if (url.includes('/packages/klondike/')) return '@klondike/rules';
  if (url.includes('/packages/protocol/')) return '@klondike/protocol';
  if (url.includes('/apps/server/src/')) return 'server src';
  // The production build bundles the server with the rules and protocol packages into one file.
  if (url.includes('/apps/server/dist/')) return 'server build (server, rules, protocol)';
  if (url.startsWith('node:')) return 'node core';
  return url;
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length).replace(/^\.pnpm\/[^/]+\/node_modules\//, '');
  const j = url.indexOf('/work/');
  return (j >= 0 ? url.slice(url.indexOf('/', url.indexOf('/', j + 6) + 1) + 1) : url).replace(
    /^file:\/\//,
    '',
  );
}

function summariseProfile(profile: CpuProfile): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // tsx-compiled workspace files report every function on line 1: show a line only where it means something.
  const key = (n: ProfileNode): string => {
    const { functionName, url, lineNumber } = n.callFrame;
    const where = url === '' ? '' : ` ${shortUrl(url)}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}`;
    return `${functionName || '(anonymous)'}${where}`;
  };
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i] as number);
    if (!node) continue;
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += dt;
    self.set(key(node), (self.get(key(node)) ?? 0) + dt);
    const a = areaOf(node.callFrame.url, node.callFrame.functionName);
    area.set(a, (area.get(a) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      if (!n) break;
      const u = n.callFrame.url;
      if (!u.includes('/apps/server/src/') && !u.includes('/apps/server/dist/') && !u.includes('/packages/'))
        continue;
      if (u.includes('/generated/')) continue;
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  }
  const top = (m: Map<string, number>, n: number): [string, number][] =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  const pct = (v: number): string => `${((100 * v) / busy).toFixed(1)} %`;
  return [
    `Main thread busy ${ms(busy)} ms of the profile (idle excluded); shares are of the busy time.`,
    '',
    'Self time by area:',
    '',
    ...table(
      ['area', 'self'],
      top(area, 14).map(([k, v]) => [k, pct(v)]),
    ),
    '',
    'Top functions by self time:',
    '',
    ...table(
      ['function', 'self'],
      top(self, 20).map(([k, v]) => [`\`${k}\``, pct(v)]),
    ),
    '',
    'Workspace functions by inclusive time (their callees included):',
    '',
    ...table(
      ['function', 'inclusive'],
      top(inclusive, 16).map(([k, v]) => [`\`${k}\``, pct(v)]),
    ),
  ];
}

// ---------- run ----------

let running: Server | undefined;
let bareRunning: Server | undefined;
/** The bench schema while it exists. */
let createdSchema: string | undefined;
let closing = false;
const sockets = new Set<BenchSocket>();
let failure: ((e: unknown) => void) | undefined;

function fail(e: unknown): void {
  failure?.(e);
}

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

function gcRow(name: string, p: PhaseResult, who: 'server' | 'client' = 'server'): string[] {
  const g = who === 'server' ? p.cpu?.gc : p.cpu?.clientGc;
  if (!g) return [name, '–', '–', '–', '–', '–', '–', '–', '–'];
  const f = (v: number): string => v.toFixed(1);
  const share = (100 * (g.minorMs + g.majorMs + g.otherMs)) / (1000 * p.seconds);
  return [
    name,
    int(g.minor),
    f(g.minorMs),
    int(g.major),
    f(g.majorMs),
    int(g.other),
    f(g.otherMs),
    f(g.maxMs),
    `${share.toFixed(1)} %`,
  ];
}

/** CPU µs per move from a share of one core (%) at `rate` moves/s: 1 % of a core is 10,000 µs each second. */
function usPerMove(percentOfCore: number, rate: number): number {
  return (1e4 * percentOfCore) / rate;
}

/**
 * The ratio split in two: CPU per move of the three processes together, persisted and bare, gives the ratio
 * the machine would allow were it as busy in both; the machine's busy share in each gives the rest.
 */
function cpuShareLines(persisted: PhaseResult, bare: PhaseResult): string[] {
  const p = persisted.cpu;
  const b = bare.cpu;
  if (!p || !b) return [];
  const all = (c: CpuUse, rate: number): number => usPerMove(c.server + c.postgres + c.client, rate);
  const perMove = all(p, persisted.rate);
  const barePerMove = all(b, bare.rate);
  return [
    `CPU per move of the three processes together: ${perMove.toFixed(1)} µs persisted, ${barePerMove.toFixed(1)} µs ` +
      `bare; were the machine as busy in both, the ratio would be their quotient, ${(barePerMove / perMove).toFixed(2)}. ` +
      `Measured: ${(persisted.rate / bare.rate).toFixed(2)}, with the machine ${p.machine.toFixed(0)} % busy persisted ` +
      `and ${b.machine.toFixed(0)} % bare.`,
    '',
    `The server's main thread (frames, moves, answers: one thread, so the rate is its time on a core divided by ` +
      `its CPU per move): on a core ${p.serverMain.running.toFixed(1)} % of the window persisted and ` +
      `${b.serverMain.running.toFixed(1)} % bare, runnable but waiting for a core ${p.serverMain.waiting.toFixed(1)} % ` +
      `and ${b.serverMain.waiting.toFixed(1)} %, switched out while it could have run on ` +
      `${int(p.serverMain.involuntaryPerSecond)} and ${int(b.serverMain.involuntaryPerSecond)} times a second; ` +
      `its CPU per move ${usPerMove(p.serverMain.running, persisted.rate).toFixed(1)} µs persisted, ` +
      `${usPerMove(b.serverMain.running, bare.rate).toFixed(1)} µs bare.`,
    '',
  ];
}

/**
 * A row of the CPU table: % of one core used by the server, its Postgres backends and the load generator,
 * the machine's % of all cores; each one's time waiting for a core (% of one core); CPU µs per move of each
 * (% of a core ÷ moves/s); the server's write and read system calls per move.
 */
function cpuRow(name: string, c: CpuUse | undefined, rate: number, moves: number): string[] {
  if (!c) return [name, '–', '–', '–', '–', '–', '–', '–', '–', '–'];
  const f = (v: number): string => `${v.toFixed(0)} %`;
  const perMove = (v: number): string => usPerMove(v, rate).toFixed(1);
  const parts = [f(c.server), f(c.postgres), f(c.client), f(c.machine), f(c.steal)];
  const waiting = `${f(c.waiting.server)} / ${f(c.waiting.postgres)} / ${f(c.waiting.client)}`;
  const perMoveAll = `${perMove(c.server)} / ${perMove(c.postgres)} / ${perMove(c.client)}`;
  const calls = `${(c.writes / moves).toFixed(1)} / ${(c.reads / moves).toFixed(1)}`;
  const top = c.topOthers.map((o) => `${o.name} ${o.pct.toFixed(1)} %`).join(', ');
  const others = `${f(c.others)}${top === '' ? '' : ` (${top})`}`;
  return [name, ...parts, others, waiting, perMoveAll, calls];
}

async function main(): Promise<string[]> {
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = schemaUrl(DATABASE_URL, schema);
  await ensureDatabase(DATABASE_URL);
  createdSchema = schema;
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
      gcInspector = inspector;
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
    bareRunning = undefined;
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
    closing = true;
    for (const s of sockets) s.close();
    sockets.clear();
    inspector?.close();
    if (server) await stopServer(server);
    if (bareRunning) await stopServer(bareRunning);
    running = undefined;
    try {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      createdSchema = undefined;
    } finally {
      await db.end();
    }
  }
}

/** After a failure: sockets closed, server stopped, schema dropped (main's own `finally` may be stuck). */
async function emergencyStop(): Promise<void> {
  closing = true;
  for (const s of sockets) s.close();
  if (running) await stopServer(running);
  if (bareRunning) await stopServer(bareRunning);
  if (createdSchema === undefined) return;
  const db = new pg.Client({ connectionString: withoutSchema(DATABASE_URL) });
  try {
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${createdSchema}" CASCADE`);
    createdSchema = undefined;
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
  failure = rej;
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
  if (running) console.error(`server output:\n${running.output().slice(-4000)}`);
  process.exitCode = 1;
  await emergencyStop().catch((err: unknown) => console.error('cleanup failed:', err));
} finally {
  clearTimeout(timeout);
}
process.exit();
