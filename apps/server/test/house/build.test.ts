/**
 * The production build (`pnpm --filter @klondike/server build`, run by `pnpm start` and the Dockerfile):
 * dist/main.js runs under plain node — no TypeScript loader — serves games, and its solver worker
 * (dist/solver-worker.js) answers a hint.
 */
import { execFileSync } from 'node:child_process';
import { GameResponseSchema } from '@klondike/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_DIR, type ServerProcess, startServerProcess } from '../support/processes.js';

describe('production build', () => {
  let server: ServerProcess | undefined;
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });

  it('node dist/main.js (built by build.mjs) serves a game and a hint from its solver thread', async () => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: SERVER_DIR, stdio: 'pipe' });
    server = await startServerProcess(
      {
        NODE_OPTIONS: undefined, // plain node, no TypeScript loader: the built bundle alone
        DATABASE_URL: '',
        DATA_DIR: 'memory://',
        DAILY_SCHEDULE: 'off',
        SOLVER_THREADS: '1',
        WEB_DIST: '/nonexistent-web-dist',
      },
      ['dist/main.js'],
    );
    const base = server.base;
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
