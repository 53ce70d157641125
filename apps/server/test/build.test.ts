/**
 * The production build (`pnpm --filter @klondike/server build`, run by `pnpm start` and the Dockerfile):
 * dist/main.js runs under plain node — no TypeScript loader — serves games, and its solver worker
 * (dist/solver-worker.js) answers a hint.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { GameResponseSchema } from '@klondike/protocol';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER_DIR = resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
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

describe('production build', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('node dist/main.js (built by build.mjs) serves a game and a hint from its solver thread', async () => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: SERVER_DIR, stdio: 'pipe' });
    const port = await freePort();
    const { NODE_OPTIONS: _loader, ...env } = process.env;
    child = spawn(process.execPath, ['dist/main.js'], {
      cwd: SERVER_DIR,
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        DATA_DIR: 'memory://',
        DAILY_SCHEDULE: 'off',
        SOLVER_THREADS: '1',
        WEB_DIST: '/nonexistent-web-dist',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`dist/main.js exited (${child.exitCode}):\n${out}`);
      const up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`dist/main.js did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const created = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dealNumber: 5 }),
    });
    expect(created.status).toBe(201);
    const { id } = GameResponseSchema.parse(await created.json());
    const hint = await fetch(`${base}/api/games/${id}/hint`);
    expect(hint.status).toBe(200);
    expect(await hint.json()).toHaveProperty('verdict');
  }, 120_000);
});
