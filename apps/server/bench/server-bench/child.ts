/**
 * The servers the benchmark drives (bench/server.bench.ts): the real one as the production start runs it, or
 * the bare platform server; their start and stop, the inspector session on the real one, and its memory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { productionStart } from '../production-start.js';
import { freePort } from '../../test/support/processes.js';
import { rssOf } from '../proc.js';
import { INSPECT, SERVER_DIR, SERVER_FLAGS, SERVER_LOG } from './settings.js';
import { rawText, sleep } from './format.js';
import { runState } from './state.js';

export interface Server {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly base: string;
  readonly wsUrl: string;
  readonly inspectorUrl: string | undefined;
  output(): string;
}

/** The production start (`pnpm start`): its environment assignments and node flags (bench/production-start.ts). */
export const PRODUCTION = productionStart(SERVER_DIR);

/**
 * How the server runs: the production build with the production flags (`node <flags> dist/main.js`, as
 * `pnpm start` runs it, with the same environment assignments) when it exists, else the sources through tsx.
 */
export const BUILT = existsSync(join(SERVER_DIR, 'dist', 'main.js'));
export const SERVER_ENTRY: readonly string[] = BUILT
  ? [...PRODUCTION.nodeFlags, 'dist/main.js']
  : ['--import', 'tsx', 'src/main.ts'];
/** The environment assignments of the production start (none for the sources through tsx). */
export const SERVER_ENV: Readonly<Record<string, string>> = BUILT ? PRODUCTION.env : {};

/** The real server's command line as the report prints it: environment assignments, node, flags, script. */
export function startCommand(): string {
  const env = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v} `);
  return `${env.join('')}node ${[...SERVER_ENTRY.slice(0, -1), ...SERVER_FLAGS, ...SERVER_ENTRY.slice(-1)].join(' ')}`;
}

/** Starts the real server (`entry` default) or, with `entry` = the bare server's, the platform baseline. */
export async function startServer(
  databaseUrl: string,
  entry: readonly string[] = SERVER_ENTRY,
): Promise<Server> {
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
  if (entry === SERVER_ENTRY) runState.running = server;
  else runState.bareRunning = server;
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
export const BARE_ENTRY: readonly string[] = ['--import', 'tsx', 'bench/bare-server.ts'];

/** SIGTERM (clean shutdown), SIGKILL after 10 s. */
export async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A Chrome DevTools Protocol session on the child's inspector (memory after GC, CPU profile). */
export class Inspector {
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

export interface Memory {
  readonly rss: number;
  /** heapUsed + external (external includes array buffers) after a forced GC; NaN without the inspector. */
  readonly heap: number;
  readonly heapUsed: number;
  readonly external: number;
}

export async function memory(server: Server, inspector: Inspector | undefined): Promise<Memory> {
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
