/**
 * Starts the real server (apps/server/src/main.ts) as a child process on a free 127.0.0.1 port, on an
 * in-memory embedded database, rate limits off and the daily job off: for the client's tests and the
 * generate script. It is run as a program, not imported: the client depends on no app code.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The server's folder (its `src/main.ts` is started with tsx). */
const SERVER_DIR = fileURLToPath(new URL('../../../apps/server/', import.meta.url));

/** A running server child. */
export interface ServerProcess {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** What the server printed so far (for failure messages). */
  output(): string;
  /** SIGTERM (clean shutdown), SIGKILL after 10 s. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the server with `env` on top of the defaults above and waits until /api/health answers. */
export async function spawnServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      WS_FRAMES_PER_SECOND: '0',
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      DAILY_SOLVE_MS: '300',
      SOLVER_THREADS: '1',
      WEB_DIST: '/nonexistent-web-dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${out}`);
    try {
      if ((await fetch(`${server.url}/api/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.close();
      throw new Error(`the server did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
