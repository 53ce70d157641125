/**
 * `pnpm soak:cluster` (not in CI): a simulated midnight on several nodes. Three server processes, built and
 * started as `pnpm start` does, on one Postgres schema (fresh, dropped at the end) and one Redis (a prefix of
 * its own), behind Debian's nginx (least connections as deploy/nginx.conf, WebSocket upgrades, no
 * stickiness). CLUSTER_BOTS bot players (default 1500) speak only to nginx:
 *
 * 1. **Ramp** (CLUSTER_RAMP_S, default 60): the bots arrive one after another; each creates its bot account,
 *    opens a socket (auth), creates a casual Draw 1 game and plays it at a human pace (a move every
 *    CLUSTER_HUMAN_MOVE_MS, default 6000, ±50 %), resigning after CLUSTER_GAME_MOVES moves (default 40) and
 *    starting the next.
 * 2. **Quiet** (CLUSTER_QUIET_S, default 20): everyone at the human pace.
 * 3. **Midnight burst** (CLUSTER_BURST_S, default 120): at one instant every bot opens today's Draw 1 daily
 *    (`POST /api/daily/:date/classic-draw1/attempt`, its one ranked attempt) and plays it ten times faster
 *    (CLUSTER_BURST_MOVE_MS, default 600), then casual games at that pace. CLUSTER_KILL_AT_S (default 30) into
 *    the burst one node is killed (SIGKILL) and CLUSTER_RESTART_AFTER_S (default 10) later started again on
 *    its port; the bots it held reconnect through nginx, subscribe again and go on by the version rule (a
 *    move whose answer was lost: version unchanged → send it again; moved on → it was applied).
 * 4. **Settle**: the bots stop, the nodes are stopped, and the run checks what was stored.
 *
 * Bots play `draw`/`recycle` (always legal in Draw 1 with unlimited redeals), so every refused move is a fault
 * of the service, not of the bot. A move's answer time is from its frame's send to its `state` frame.
 *
 * Reported: move answers p50/p99/max per phase (the kill window is from the kill to 10 s after the restart),
 * error frames by code, answers lost with the killed node's sockets and how they were settled, the sockets
 * nginx gave each node (opened over the run, reconnections included), daily
 * openings p50/p99; over the burst, moves/s, CPU per move of each node, of Postgres (every `postgres`
 * process) and of nginx, Postgres WAL bytes per move (`pg_current_wal_lsn`), Redis commands and PUBLISHes per
 * move (`INFO commandstats`; Redis serves only this run) and bytes out of Redis per move. Checked (exit 1 on
 * a failure): 0 acknowledged moves lost (every game's stored version ≥ the highest version acknowledged to
 * its bot), every stored game replays from its deal to its stored status, version and move count (the
 * server's own loader, `PrismaGameStore.load` + `replayed`), no error frame but `overloaded` (refused before
 * anything changed; resent after a second). CLUSTER_JSON=path writes the report as JSON.
 *
 * Env: CLUSTER_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test), CLUSTER_REDIS_URL
 * (default redis://127.0.0.1:6379), CLUSTER_PROFILE_DIR (the second node, never killed, writes a V8 CPU profile
 * of its whole run there: where a node's time goes at midnight), and the CLUSTER_* numbers above. Needs
 * /usr/sbin/nginx.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import WebSocket from 'ws';
import { openDatabase } from '../src/infra/db/database.js';
import { PrismaGameStore } from '../src/infra/db/game-store.js';
import { replayed } from '../src/core/rooms/room.js';
import { freePort } from '../test/support/processes.js';
import { ensureDatabase } from './database.js';
import { startNginx } from './nginx.js';
import { cpuSecondsOf, parseStat } from './proc.js';
import { productionStart } from './production-start.js';
import { envNumber } from './settings.js';

const SERVER_DIR = resolve(import.meta.dirname, '..');
const PRODUCTION = productionStart(SERVER_DIR);
const DATABASE_URL = process.env.CLUSTER_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const REDIS_URL = process.env.CLUSTER_REDIS_URL || 'redis://127.0.0.1:6379';
const NODES = 3;
const BOTS = envNumber('CLUSTER_BOTS', 1500);
const RAMP_S = envNumber('CLUSTER_RAMP_S', 60);
const QUIET_S = envNumber('CLUSTER_QUIET_S', 20);
const BURST_S = envNumber('CLUSTER_BURST_S', 120);
const HUMAN_MOVE_MS = envNumber('CLUSTER_HUMAN_MOVE_MS', 6000);
const BURST_MOVE_MS = envNumber('CLUSTER_BURST_MOVE_MS', 600);
const GAME_MOVES = envNumber('CLUSTER_GAME_MOVES', 40);
const KILL_AT_S = envNumber('CLUSTER_KILL_AT_S', 30);
const RESTART_AFTER_S = envNumber('CLUSTER_RESTART_AFTER_S', 10);
/** How long a move may wait for its answer before the run counts it as unanswered and resyncs. */
const ANSWER_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

type Phase = 'ramp' | 'quiet' | 'burst' | 'kill-window' | 'after-restart';

/** A server node: its port stays the same across a restart, so nginx's upstream list stays true. */
interface Node {
  readonly port: number;
  child: ChildProcess;
  output: string;
}

async function startNode(
  port: number,
  env: Record<string, string>,
  extraFlags: readonly string[] = [],
): Promise<Node> {
  const child = spawn(process.execPath, [...PRODUCTION.nodeFlags, ...extraFlags, 'dist/main.js'], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...PRODUCTION.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const node: Node = { port, child, output: '' };
  const keep = (d: Buffer) => {
    node.output = (node.output + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node :${port} exited (${child.exitCode}):\n${node.output}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return node;
    if (Date.now() > deadline) throw new Error(`node :${port} did not start:\n${node.output}`);
    await sleep(100);
  }
}

async function stopNode(node: Node, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = new Promise<void>((r) => node.child.once('exit', () => r()));
  node.child.kill(signal);
  const timer = setTimeout(() => node.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** CPU seconds of every process whose command is `name` (Postgres's backends, nginx's workers). */
function cpuOfCommand(name: string): number {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const s = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (s.name === name) sum += s.cpu;
    } catch {
      // gone between the listing and the read
    }
  }
  return sum;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summary(xs: number[]): { n: number; p50: number; p99: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    n: s.length,
    p50: r(percentile(s, 50)),
    p99: r(percentile(s, 99)),
    max: r(s[s.length - 1] ?? NaN),
  };
}

/** Redis's own counters of this run: commands and PUBLISHes processed, bytes sent. */
async function redisCounters(redis: Redis): Promise<{ commands: number; publishes: number; netOut: number }> {
  const stats = await redis.info('stats');
  const commandstats = await redis.info('commandstats');
  const field = (text: string, re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    commands: field(stats, /total_commands_processed:(\d+)/),
    netOut: field(stats, /total_net_output_bytes:(\d+)/),
    publishes: field(commandstats, /cmdstat_publish:calls=(\d+)/),
  };
}

/** The frames a bot reads: only the fields it uses. */
interface Frame {
  readonly type: string;
  readonly code?: string;
  readonly requestId?: string;
  readonly gameId?: string;
  readonly version?: number;
  readonly cause?: string;
  readonly view?: { readonly stock: { readonly count: number }; readonly status: string };
}

/** A game as `POST /api/games` and the daily attempt answer it. */
interface GameResponse {
  readonly id: string;
  readonly version: number;
  readonly view: { readonly stock: { readonly count: number }; readonly status: string };
}

/** The game a bot plays now, as its last answer said. */
interface BotGame {
  readonly id: string;
  version: number;
  stock: number;
  playing: boolean;
  /** Moves this bot made in it. */
  played: number;
}

/** What the run measured, as it is printed and written to CLUSTER_JSON. */
interface Report {
  [key: string]: unknown;
}

async function main(): Promise<void> {
  const started = Date.now();
  await ensureDatabase(DATABASE_URL);
  const schema = `cluster_${randomBytes(4).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.searchParams.set('schema', schema);
  const prefix = `cluster-${schema}:`;
  const nodeEnv: Record<string, string> = {
    DATABASE_URL: url.toString(),
    REDIS_URL,
    REDIS_PREFIX: prefix,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '0',
    WS_FRAMES_PER_SECOND: '0',
    NODE_HEARTBEAT_MS: '1000',
    DAILY_SCHEDULE: 'off',
    ARENA_SCHEDULE: 'off',
    DAILY_ARCHIVE_DAYS: '0',
    DAILY_SOLVE_MS: '500',
    MAINTENANCE_TICK_MS: '0',
    SOLVER_THREADS: '1',
    SOLVER_BACKGROUND_THREADS: '0',
    WEB_DIST: '/nonexistent-web-dist',
  };
  const ports: number[] = [];
  for (let i = 0; i < NODES; i++) ports.push(await freePort());
  const nodes: Node[] = [];
  nodes.push(await startNode(ports[0]!, nodeEnv)); // migrates the schema first
  // The second node is never killed: with CLUSTER_PROFILE_DIR it writes a CPU profile there when it stops.
  const profile = process.env.CLUSTER_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CLUSTER_PROFILE_DIR}`]
    : [];
  nodes.push(await startNode(ports[1]!, nodeEnv, profile));
  for (const p of ports.slice(2)) nodes.push(await startNode(p, nodeEnv));
  const proxy = await startNginx(await freePort(), ports, {
    connections: Math.max(1024, BOTS * 4),
    failTimeoutSeconds: 2,
    balance: 'least-conn', // as deploy/nginx.conf
  });
  const redis = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  console.log(
    `soak:cluster: ${NODES} nodes (:${ports.join(', :')}) behind nginx ${proxy.url}, schema ${schema}, ${BOTS} bots; ` +
      `load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );

  const restErrors: string[] = [];
  const api = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const r = await fetch(`${proxy.url}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).catch((e: unknown) => e as Error);
      // A request cut by the node's kill, or nginx's 502 for it: nothing was answered, ask again.
      if (r instanceof Error || r.status === 502 || r.status === 503) {
        restErrors.push(
          r instanceof Error ? `${method} ${path}: ${r.message}` : `${method} ${path}: ${r.status}`,
        );
        if (attempt >= 20) throw new Error(`${method} ${path}: no answer after ${attempt} tries`);
        await sleep(500);
        continue;
      }
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
      return (await r.json()) as T;
    }
  };

  // Today's daily, made once before the burst (the daily routes prepare it on first use).
  const today = await api<{ date: string; challenges: { preset: string }[] }>('GET', '/api/daily');
  if (!today.challenges.some((c) => c.preset === 'classic-draw1'))
    throw new Error(`no classic-draw1 daily today: ${JSON.stringify(today.challenges.map((c) => c.preset))}`);

  let phase: Phase = 'ramp';
  let stop = false;
  let burst = false;
  const latency: Record<Phase, number[]> = {
    ramp: [],
    quiet: [],
    burst: [],
    'kill-window': [],
    'after-restart': [],
  };
  const openings: number[] = [];
  const errorFrames = new Map<string, number>();
  /** Highest version acknowledged to a bot, by game id: what must be stored. */
  const acked = new Map<string, number>();
  let moves = 0;
  let lostAnswers = 0;
  let lostApplied = 0;
  let lostResent = 0;
  let reconnects = 0;
  let openSockets = 0;
  const failures: string[] = [];

  /** One bot: an account, a socket through nginx, a game at a time. */
  class Bot {
    private ws: WebSocket | null = null;
    private game: BotGame | null = null;
    private token = '';
    /** This bot's daily attempt was opened. */
    private ranked = false;
    private readonly pending = new Map<string, (frame: Frame | null) => void>();
    private seq = 0;

    constructor(private readonly i: number) {}

    async run(): Promise<void> {
      this.token = (
        await api<{ token: string }>('POST', '/api/players', { name: `bot ${this.i}`, bot: true })
      ).token;
      await this.connect();
      await this.newGame();
      let wasBurst = burst;
      while (!stop) {
        await sleep((burst ? BURST_MOVE_MS : HUMAN_MOVE_MS) * (0.5 + Math.random()));
        if (stop) break;
        const g = this.current();
        if (burst && !wasBurst) {
          // Midnight: everyone opens today's daily at once.
          wasBurst = true;
          await this.newGame();
        } else if (!g.playing || g.played >= GAME_MOVES) {
          if (g.playing) await this.resign(g);
          await this.newGame();
        } else await this.move(g);
      }
      this.ws?.close();
    }

    private current(): BotGame {
      if (this.game === null) throw new Error(`bot ${this.i} has no game`);
      return this.game;
    }

    private async move(g: BotGame): Promise<void> {
      const move = g.stock > 0 ? { type: 'draw' } : { type: 'recycle' };
      const rid = `${this.i}-${++this.seq}`;
      const sentPhase = phase;
      const t0 = performance.now();
      const f = await this.ask(rid, { type: 'move', gameId: g.id, move, version: g.version, requestId: rid });
      if (f === null) {
        // The answer was lost with the socket (or never came): settle it by the version rule.
        lostAnswers++;
        const before = g.version;
        await this.resync();
        if (g.version > before) lostApplied++;
        else lostResent++; // the next turn sends it again at the same version
        return;
      }
      if (f.type === 'state' && f.version !== undefined && f.view !== undefined) {
        latency[sentPhase].push(performance.now() - t0);
        g.version = f.version;
        g.stock = f.view.stock.count;
        g.playing = f.view.status === 'playing';
        g.played++;
        acked.set(g.id, f.version);
        moves++;
        return;
      }
      const code = f.code ?? f.type;
      errorFrames.set(code, (errorFrames.get(code) ?? 0) + 1);
      if (code === 'overloaded') await sleep(1000);
      else await this.resync();
    }

    private async resign(g: BotGame): Promise<void> {
      const rid = `${this.i}-${++this.seq}`;
      const f = await this.ask(rid, { type: 'resign', gameId: g.id, version: g.version, requestId: rid });
      if (f?.type === 'state' && f.version !== undefined) acked.set(g.id, f.version);
      else if (f === null) await this.resync();
    }

    private async connect(): Promise<void> {
      for (let attempt = 0; ; attempt++) {
        const socket = new WebSocket(`${proxy.url.replace('http', 'ws')}/api/ws`);
        const opened = await new Promise<boolean>((res) => {
          socket.once('open', () => res(true));
          socket.once('error', () => res(false));
        });
        if (!opened) {
          if (attempt >= 40) throw new Error(`bot ${this.i}: no socket after ${attempt} tries`);
          await sleep(250 + Math.random() * 500);
          continue;
        }
        this.ws = socket;
        openSockets++;
        socket.on('message', (data) => {
          const f = JSON.parse(String(data)) as Frame;
          const key =
            f.type === 'authed'
              ? 'auth'
              : f.type === 'state' && f.cause === 'subscribe'
                ? `sub:${f.gameId}`
                : f.requestId;
          if (key !== undefined) this.pending.get(key)?.(f);
        });
        socket.once('close', () => {
          openSockets--;
          if (this.ws === socket) this.ws = null;
          for (const settle of [...this.pending.values()]) settle(null);
        });
        const authed = await this.ask('auth', { type: 'auth', token: this.token });
        if (authed === null) continue; // closed again at once: try another connection
        if (authed.type !== 'authed')
          throw new Error(`bot ${this.i}: auth answered ${JSON.stringify(authed)}`);
        return;
      }
    }

    /** Sends `frame` and waits for the answer keyed `key`; null when the socket closed or nothing came. */
    private ask(key: string, frame: object): Promise<Frame | null> {
      return new Promise((res) => {
        const socket = this.ws;
        if (socket === null || socket.readyState !== WebSocket.OPEN) return res(null);
        const settle = (f: Frame | null) => {
          clearTimeout(timer);
          this.pending.delete(key);
          res(f);
        };
        const timer = setTimeout(() => settle(null), ANSWER_TIMEOUT_MS);
        this.pending.set(key, settle);
        socket.send(JSON.stringify(frame));
      });
    }

    /** Subscribes to the current game (again) and takes its version as the server holds it. */
    private async subscribe(): Promise<boolean> {
      const g = this.current();
      const f = await this.ask(`sub:${g.id}`, { type: 'subscribe', gameId: g.id });
      if (f === null || f.type !== 'state' || f.view === undefined || f.version === undefined) return false;
      g.version = f.version;
      g.stock = f.view.stock.count;
      g.playing = f.view.status === 'playing';
      return true;
    }

    /** A socket (a new one through nginx if the old one is gone) subscribed to the current game. */
    private async resync(): Promise<void> {
      for (;;) {
        if (this.ws === null) {
          reconnects++;
          await this.connect();
        }
        if (await this.subscribe()) return;
        this.ws?.terminate();
        this.ws = null;
      }
    }

    /** The next game: today's daily attempt at midnight, else a casual Draw 1 game. */
    private async newGame(): Promise<void> {
      const t0 = performance.now();
      let g: GameResponse | null = null;
      if (burst && !this.ranked) {
        this.ranked = true;
        // 409: a first try whose answer was lost with the killed node did open it; play a casual game then.
        g = await api<GameResponse>(
          'POST',
          `/api/daily/${today.date}/classic-draw1/attempt`,
          undefined,
          this.token,
        ).catch((e: unknown) => {
          if (e instanceof Error && / 409 /.test(e.message)) return null;
          throw e;
        });
        if (g !== null) openings.push(performance.now() - t0);
      }
      g ??= await api<GameResponse>('POST', '/api/games', { preset: 'classic-draw1' }, this.token);
      if (this.game !== null) this.ws?.send(JSON.stringify({ type: 'unsubscribe', gameId: this.game.id }));
      this.game = { id: g.id, version: g.version, stock: g.view.stock.count, playing: true, played: 0 };
      acked.set(g.id, g.version);
      if (!(await this.subscribe())) await this.resync();
    }
  }

  const bots: Promise<void>[] = [];
  for (let i = 0; i < BOTS; i++) {
    bots.push(
      sleep((i * RAMP_S * 1000) / BOTS).then(() =>
        new Bot(i).run().catch((e: unknown) => {
          failures.push(String(e instanceof Error ? e.message : e));
        }),
      ),
    );
  }
  const sample = (label: string) =>
    console.log(
      `${label.padEnd(14)} t=${((Date.now() - started) / 1000).toFixed(0)}s sockets ${openSockets} moves ${moves} ` +
        `load ${loadavg()[0]?.toFixed(2)}`,
    );
  const ticker = setInterval(() => sample(phase), 10_000);
  await sleep(RAMP_S * 1000);
  phase = 'quiet';
  await sleep(QUIET_S * 1000);

  // Midnight.
  const cpu0 = {
    nodes: nodes.map((n) => cpuSecondsOf(n.child.pid ?? -1)),
    postgres: cpuOfCommand('postgres'),
    nginx: cpuOfCommand('nginx'),
    driver: process.cpuUsage(),
  };
  const [wal0] = (await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows;
  const redis0 = await redisCounters(redis);
  const moves0 = moves;
  const burstStart = Date.now();
  phase = 'burst';
  burst = true;
  sample('midnight');
  await sleep(KILL_AT_S * 1000);
  const victim = nodes[NODES - 1]!;
  const victimCpu = cpuSecondsOf(victim.child.pid ?? -1);
  phase = 'kill-window';
  await stopNode(victim, 'SIGKILL');
  sample(`killed :${victim.port}`);
  await sleep(RESTART_AFTER_S * 1000);
  const restarted = await startNode(victim.port, nodeEnv);
  nodes[NODES - 1] = restarted;
  sample(`restarted`);
  await sleep(10_000);
  phase = 'after-restart';
  const burstLeft = BURST_S * 1000 - (Date.now() - burstStart);
  if (burstLeft > 0) await sleep(burstLeft);
  const burstSeconds = (Date.now() - burstStart) / 1000;
  const burstMoves = moves - moves0;
  const cpu1 = {
    nodes: nodes.map((n) => cpuSecondsOf(n.child.pid ?? -1)),
    postgres: cpuOfCommand('postgres'),
    nginx: cpuOfCommand('nginx'),
    driver: process.cpuUsage(cpu0.driver),
  };
  const [wal1] = (await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows;
  const redis1 = await redisCounters(redis);
  const [walDiff] = (
    await db.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1, $2) AS bytes', [wal1?.lsn, wal0?.lsn])
  ).rows;
  stop = true;
  clearInterval(ticker);
  sample('stopping');
  await Promise.race([Promise.allSettled(bots), sleep(ANSWER_TIMEOUT_MS + 5000)]);
  // Every acknowledged move is committed before its answer; stop the nodes before reading.
  await Promise.all(nodes.map((n) => stopNode(n, 'SIGTERM')));
  // Which node each socket landed on (nginx's log: `<upstream> GET /api/ws 101`), by port.
  const socketsByNode: Record<string, number> = {};
  for (const line of proxy.log().split('\n')) {
    const m = /^127\.0\.0\.1:(\d+) GET \/api\/ws 101$/.exec(line.trim());
    if (m) socketsByNode[m[1]!] = (socketsByNode[m[1]!] ?? 0) + 1;
  }
  await proxy.stop();

  // What was stored: every acknowledged version, and every game replays to its row.
  const stored = new Map(
    (
      await db.query<{ id: string; version: number; status: string; moves: number }>(
        `SELECT "id", "version", "status", "moves" FROM "${schema}"."Game"`,
      )
    ).rows.map((r) => [r.id, r]),
  );
  let lostAcked = 0;
  for (const [id, version] of acked) {
    const row = stored.get(id);
    if (row === undefined || row.version < version) lostAcked += version - (row?.version ?? 0);
  }
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  const store = new PrismaGameStore(database.prisma, database.writeMoves, database.gameVersion);
  let replayFailures = 0;
  for (const row of stored.values()) {
    try {
      const loaded = await store.load(row.id);
      if (loaded === null) throw new Error('not found');
      const r = replayed(loaded);
      if (r.status !== row.status || r.version !== row.version || r.state.moves !== row.moves)
        throw new Error(
          `replays to ${r.status}/${r.version}/${r.state.moves}, stored ${row.status}/${row.version}/${row.moves}`,
        );
    } catch (e) {
      replayFailures++;
      if (replayFailures <= 5) console.error(`game ${row.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const [entries] = (await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."Move"`)).rows;
  await database.close();
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.end();
  const stale = await redis.keys(`${prefix}*`);
  if (stale.length > 0) await redis.del(...stale);
  redis.disconnect();

  const perMove = (x: number) => (burstMoves > 0 ? x / burstMoves : NaN);
  const us = (seconds: number) => Math.round(perMove(seconds) * 1e6 * 10) / 10;
  const nodeCpu = cpu1.nodes.map((c, k) =>
    k === NODES - 1 ? c + (victimCpu - (cpu0.nodes[k] ?? 0)) : c - (cpu0.nodes[k] ?? 0),
  );
  const report: Report = {
    nodes: NODES,
    bots: BOTS,
    burstSeconds: Math.round(burstSeconds),
    burstMoves,
    burstMovesPerSecond: Math.round(burstMoves / burstSeconds),
    humanMovesPerSecondBefore: Math.round(latency.quiet.length / Math.max(1, QUIET_S)),
    moveAnswerMs: Object.fromEntries(Object.entries(latency).map(([k, v]) => [k, summary(v)])),
    dailyOpeningMs: summary(openings),
    errorFrames: Object.fromEntries(errorFrames),
    lostAnswers,
    lostAnswersApplied: lostApplied,
    lostAnswersResent: lostResent,
    reconnects,
    socketsByNode: ports.map((p) => socketsByNode[String(p)] ?? 0),
    restRetries: restErrors.length,
    cpuPerMoveUs: {
      nodes: nodeCpu.map((c) => us(c)),
      postgres: us(cpu1.postgres - cpu0.postgres),
      nginx: us(cpu1.nginx - cpu0.nginx),
      botDriver: us((cpu1.driver.user + cpu1.driver.system) / 1e6),
    },
    walBytesPerMove: Math.round(perMove(Number(walDiff?.bytes ?? NaN))),
    redisPerMove: {
      commands: Math.round(perMove(redis1.commands - redis0.commands) * 100) / 100,
      publishes: Math.round(perMove(redis1.publishes - redis0.publishes) * 100) / 100,
      bytesOut: Math.round(perMove(redis1.netOut - redis0.netOut)),
    },
    games: stored.size,
    acknowledgedGames: acked.size,
    storedEntries: Number(entries?.n ?? 0),
    lostAcknowledgedMoves: lostAcked,
    replayFailures,
    botFailures: failures.length,
    load: loadavg().map((x) => +x.toFixed(2)),
    wallSeconds: Math.round((Date.now() - started) / 1000),
  };
  console.log('soak:cluster report', JSON.stringify(report, null, 2));
  if (process.env.CLUSTER_JSON) writeFileSync(process.env.CLUSTER_JSON, JSON.stringify(report, null, 2));
  const unexpected = [...errorFrames.keys()].filter((c) => c !== 'overloaded');
  const problems = [
    lostAcked > 0 ? `${lostAcked} acknowledged moves lost` : '',
    replayFailures > 0 ? `${replayFailures} games do not replay to their row` : '',
    unexpected.length > 0 ? `error frames: ${unexpected.join(', ')}` : '',
    failures.length > 0 ? `${failures.length} bots failed: ${failures.slice(0, 3).join(' | ')}` : '',
    burstMoves === 0 ? 'no move in the burst' : '',
  ].filter((p) => p !== '');
  if (problems.length > 0) {
    for (const n of nodes)
      if (n.output.trim() !== '') console.error(`node :${n.port} said:\n${n.output.slice(-3000)}`);
    throw new Error(problems.join('; '));
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
