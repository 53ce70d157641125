/**
 * A private Redis server for fault tests: `redis-server` started by the test on a free port (never the
 * shared one), killed to make an outage and started again on the same port, as a Redis restart looks to
 * the nodes. Needs the `redis-server` binary (Debian's `redis-server`; `.ci/run` installs it).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './processes.js';

/** Whether a `redis-server` binary is on the PATH. */
export const HAVE_REDIS_SERVER = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** A Redis server this test owns. */
export interface PrivateRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** SIGKILL: every connection drops at once, new ones are refused. Resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing). Resolves once it answers PING. */
  start(): Promise<void>;
}

/** Whether a Redis on `port` answers PING within `timeoutMs`. */
function pings(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d: Buffer) => done(d.toString().startsWith('+PONG')));
  });
}

/** Starts a private Redis on a free 127.0.0.1 port (no persistence). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = proc;
    const deadline = Date.now() + 10_000;
    while (!(await pings(port))) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited (${proc.exitCode})`);
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}
