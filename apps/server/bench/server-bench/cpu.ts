/**
 * Where the CPU goes in a measured window (bench/server.bench.ts): /proc readings of the server, its Postgres
 * backends, this process and the machine, the run queue's waits, the garbage collections of the server (through
 * its inspector) and of this process, and the window that snapshots them at its edges.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { readFile, readdir, readlink } from 'node:fs/promises';
import {
  PerformanceObserver,
  type PerformanceEntry,
  constants as perfConstants,
  performance,
} from 'node:perf_hooks';
import pg from 'pg';
import { CLK_TCK, cpuSecondsOf, parseStat } from '../proc.js';
import { DATABASE_URL, SERVER_LOG } from './settings.js';
import { runState } from './state.js';
import type { Inspector, Server } from './child.js';

/**
 * CPU seconds so far of every process on the machine but `exclude`, by pid, with its name (/proc/<pid>/stat).
 * Kernel threads are processes here too: on a virtual machine some of them (kdamond, kswapd, a virtio queue's
 * worker) take a core in bursts, and whatever takes a core from the three measured processes on a 2-core
 * machine shows in their round trips. Read asynchronously: a hundred or more files read in one go would
 * stall the load generator at the window's edge, where the moves it sends are measured.
 */
export async function otherProcessesCpu(
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
export function topThree(
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
export function schedstatOf(pid: number, tid: number | string): { run: number; wait: number } {
  const f = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/);
  return { run: Number(f[0]) / 1e9, wait: Number(f[1]) / 1e9 };
}

/**
 * Time each thread of a process has spent so far waiting for a core while runnable (the scheduler's run
 * queue), in seconds by thread id (/proc/<pid>/task/<tid>/schedstat, second field, ns); empty when the
 * process is gone. `waitedBetween` sums two readings over the threads present in both.
 */
export function runQueueWaitOf(pid: number): ReadonlyMap<number, number> {
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
export function mainThreadOf(pid: number): { run: number; wait: number; involuntary: number } {
  try {
    const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
    const involuntary = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    return { ...schedstatOf(pid, pid), involuntary };
  } catch {
    return { run: NaN, wait: NaN, involuntary: NaN };
  }
}

/** Seconds waited between two `runQueueWaitOf` readings, over the threads present in both. */
export function waitedBetween(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): number {
  let s = 0;
  for (const [tid, t0] of a) {
    const t1 = b.get(tid);
    if (t1 !== undefined && Number.isFinite(t0) && Number.isFinite(t1)) s += t1 - t0;
  }
  return s;
}

/** Read and write system calls a process has made (NaN when unreadable). */
export function syscallsOf(pid: number): { reads: number; writes: number } {
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
export function machineCpu(): { busy: number; steal: number; total: number } {
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
export async function localPortsTo(pid: number, remotePort: number): Promise<number[]> {
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

export interface CpuSnapshot {
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
export interface CpuUse {
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
export interface GcUse {
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
export const GC_OBSERVER = `(() => {
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
export const NO_GC: GcUse = { minor: 0, minorMs: 0, major: 0, majorMs: 0, other: 0, otherMs: 0, maxMs: 0 };

/** The same counters for this process, the load generator (the same classification as GC_OBSERVER's). */
export const clientGc = { ...NO_GC };
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
export function gcBetween(a: GcUse, b: GcUse): GcUse {
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
export async function gcCounters(inspector: Inspector, resetMax: boolean): Promise<GcUse | undefined> {
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
export async function mark(inspector: Inspector, what: string): Promise<void> {
  try {
    await inspector.call('Runtime.evaluate', {
      expression: `process.stdout.write('[bench] ' + ${JSON.stringify(what)} + ' at ' + Math.round(performance.now()) + ' ms\\n')`,
    });
  } catch {
    // the server is gone
  }
}

/**
 * CPU snapshots at the start and end of a measured window. The Postgres backends serving the server are looked
 * up before it (`prepare`, during the warm-up, when the pool's connections are open), asynchronously, so
 * that only the snapshots themselves (a few dozen small /proc reads) run on the load generator's thread at the
 * window's edges.
 */
export class CpuWindow {
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
    this.inspector = server === runState.running ? runState.gcInspector : undefined;
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
      setTimeout(() => void this.prepare().catch(() => undefined), startMs / 2),
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
