/**
 * Real server processes for the tests that need them (crash and restart, the production build, several
 * nodes): a free port, a server started as ONE child process and waited for until `/api/health` answers,
 * and a SIGKILL that waits for the exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** apps/server: where the server's sources and build live. */
export const SERVER_DIR = resolve(import.meta.dirname, '../..');

/** A free TCP port on 127.0.0.1 (free when asked; the server takes it right after). */
export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

/** A running server process. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** `ws://127.0.0.1:<port>/api/ws` */
  readonly ws: string;
  /** Everything it printed so far (stdout and stderr). */
  readonly output: () => string;
}

/**
 * Starts the server on a free port as one process: `args` after `node` (default: the sources through the
 * tsx loader, `--import tsx src/main.ts`, so that SIGKILL reaches the server itself, not a CLI wrapper),
 * with `env` on top of this process's environment and the port, host and log level set. Resolves once
 * `/api/health` answers; rejects when the process exits first or after `timeoutMs`.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  args: readonly string[] = ['--import', 'tsx', 'src/main.ts'],
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, ws: `ws://127.0.0.1:${port}/api/ws`, output: () => out };
}

/** SIGKILL, and wait until the process has exited. */
export async function killProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise<void>((res) => server.child.once('exit', () => res()));
  server.child.kill('SIGKILL');
  await exited;
}
