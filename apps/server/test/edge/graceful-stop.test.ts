/**
 * Issue 58, the process as an orchestrator runs it (src/main.ts, a real child process): with METRICS_PORT
 * set its metrics listener answers `/metrics` while the public port does not; SIGTERM stops it within
 * SHUTDOWN_GRACE_MS with exit code 0 and a "stopped" log line (close-with-grace), so that compose's
 * `stop_grace_period` never has to kill it.
 */
import { describe, expect, it } from 'vitest';
import { freePort, killProcess, startServerProcess } from '../support/processes.js';

const GRACE_MS = 5000;

describe('main: metrics listener and graceful stop', () => {
  it('serves /metrics on METRICS_PORT only, and SIGTERM exits 0 within SHUTDOWN_GRACE_MS', async () => {
    const metricsPort = await freePort();
    const node = await startServerProcess({
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'info',
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      SOLVER_THREADS: '1',
      WEB_DIST: '/nonexistent-web-dist',
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    try {
      // The listener starts right after the public port: wait for it.
      let metrics: Response | undefined;
      for (let i = 0; i < 100 && metrics === undefined; i++) {
        metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch(() => undefined);
        if (metrics === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      expect(metrics?.status).toBe(200);
      expect(await metrics?.text()).toContain('klondike_moves_committed_total');
      expect((await fetch(`${node.base}/metrics`)).status).toBe(404);

      const exited = new Promise<number | null>((resolve) =>
        node.child.once('exit', (code) => resolve(code)),
      );
      node.child.kill('SIGTERM');
      // Exit code 0: closed before the deadline (past it close-with-grace exits 1, "killed by timeout").
      expect(await exited).toBe(0);
      expect(node.output()).toMatch(/"msg":"stopped"/);
    } finally {
      await killProcess(node);
    }
  }, 120_000);
});
