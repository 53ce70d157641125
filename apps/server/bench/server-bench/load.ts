/**
 * The load generator (bench/server.bench.ts): a socket per game playing `draw` / `recycle` moves, the closed
 * loop (throughput) and the open loop (latency, overload), and their results per phase.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import WebSocket from 'ws';
import { BUDGET } from './settings.js';
import { pool, quantile, rawText } from './format.js';
import { fail, runState, sockets } from './state.js';
import type { Server } from './child.js';
import { type CpuUse, CpuWindow, type GcUse, NO_GC, topThree } from './cpu.js';

/** A move frame sent and not yet answered. */
export interface Pending {
  readonly id: string;
  /** When it was sent (performance.now()). */
  readonly sentAt: number;
  /** When the schedule wanted it sent (open loop; = sentAt in closed loop). */
  readonly scheduledAt: number;
}

export type DoneHandler = (s: BenchSocket, p: Pending, ok: boolean, at: number) => void;

export const DRAW = '{"type":"draw"}';
/** How long a socket whose move was shed (`overloaded`) waits before its next move, ms. */
export const OVERLOAD_BACKOFF_MS = 100;
export const RECYCLE = '{"type":"recycle"}';

export let validated = 0;
export let totalAcked = 0;
export const errorCodes = new Map<string, number>();

/** One client socket playing one game: one move in flight at most. */
export class BenchSocket {
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
      if (!runState.closing && !this.closedHere) fail(new Error(`the socket of game ${gameId} closed`));
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

export interface Game {
  readonly id: string;
}

/** Creates `n` classic-draw1 games over REST (deal numbers first … first+n−1), 16 requests at a time. */
export async function createGames(server: Server, n: number, first: number): Promise<Game[]> {
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

export async function openSockets(
  server: Server,
  games: readonly Game[],
  tag: string,
): Promise<BenchSocket[]> {
  return pool(games, 50, (g, i) => BenchSocket.open(server.wsUrl, g.id, `${tag}${i}`));
}

export interface PhaseResult {
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
 * Closed loop: every socket sends its next move as soon as the last one is answered. Measures after
 * `warmupMs` for `durationMs`; `stop` ends a socket's loop early (history phase).
 */
export async function closedLoop(
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
export function mergeGc(parts: readonly (GcUse | undefined)[]): GcUse | undefined {
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
export function mergeTopOthers(
  cpus: readonly { c: CpuUse; w: number }[],
): readonly { readonly name: string; readonly pct: number }[] {
  const by = new Map<string, number>();
  for (const { c, w } of cpus) for (const o of c.topOthers) by.set(o.name, (by.get(o.name) ?? 0) + o.pct * w);
  return topThree([...by].map(([name, pct]) => ({ name, pct })));
}

/** Several measured windows of one kind as one result (counts and times summed, CPU weighted by time). */
export function mergeResults(parts: readonly PhaseResult[]): PhaseResult {
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
 * An open loop's result: the phase's, plus the client's send lag p99 (ms), the slots that found their socket's
 * last move unanswered (backlogged) and those still waiting at the end (unsent), and the moves slower than
 * the p99 budget by 100 ms of send time.
 */
export type OpenLoopResult = PhaseResult & {
  sendLagP99: number;
  backlogged: number;
  unsent: number;
  slow: SlowMoves;
};

/**
 * Open loop: `rate` moves per second in total, slot j at t0 + j/rate on socket j mod n (each socket every
 * n/rate s). A slot that finds its socket's last move unanswered waits for the answer (backlog).
 */
export async function openLoop(
  list: readonly BenchSocket[],
  rate: number,
  warmupMs: number,
  durationMs: number,
  cpu: CpuWindow | undefined,
  dumpTo?: string,
): Promise<OpenLoopResult> {
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
export interface SlowMoves {
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
export function slowMoves(sendTimes: readonly number[]): SlowMoves {
  const by = new Map<number, number>();
  for (const t of sendTimes) {
    const stretch = Math.floor(t / 100);
    by.set(stretch, (by.get(stretch) ?? 0) + 1);
  }
  return { count: sendTimes.length, stretches: by.size, largest: Math.max(0, ...by.values()) };
}
