/**
 * The image: the Dockerfile's install step sees every workspace package, its runtime stage is slim, runs as
 * a user other than root on a supported Node.js LTS and checks its health on /api/ready; and the whole build
 * replayed step by step in a scratch folder (test/support/dockerfile-replay.ts: no Docker engine runs on the CI
 * machines, and base images cannot be pulled there) yields a runtime folder whose CMD starts the server,
 * serves the web client and answers ready, with nothing but the runtime stage's files and production
 * dependencies.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Replay,
  type Stage,
  manifestsMissingFromInstall,
  parseDockerfile,
  replayDockerfile,
  workspacePackageDirs,
} from '../support/dockerfile-replay.js';
import { freePort } from '../support/processes.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(DOCKERFILE);
const runtime = stages.at(-1) as Stage;

describe('Dockerfile: what it installs and what it runs', () => {
  const packages = workspacePackageDirs(ROOT);

  it('finds the workspace packages the way pnpm-workspace.yaml lists them', () => {
    expect(packages).toEqual(
      expect.arrayContaining(['apps/server', 'apps/web', 'packages/client', 'packages/klondike']),
    );
    expect(packages.length).toBeGreaterThanOrEqual(6);
  });

  it("copies every workspace package's package.json before pnpm install", () => {
    expect(manifestsMissingFromInstall(stages, packages)).toEqual([]);
  });

  it('the same check names packages/client when its manifest is left out of the install step', () => {
    const without = DOCKERFILE.replace(/^COPY packages\/client\/package\.json.*\n/m, '');
    expect(without).not.toBe(DOCKERFILE);
    expect(manifestsMissingFromInstall(parseDockerfile(without), packages)).toEqual([
      'packages/client/package.json',
    ]);
  });

  it('is multi-stage: the runtime stage copies built output from the build stage, never the sources', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const copies = runtime.steps.filter((s) => s.kind === 'copy');
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) expect(c.kind === 'copy' && c.from).toBeTruthy();
    expect(runtime.steps.some((s) => s.kind === 'run' && /pnpm install/.test(s.command))).toBe(false);
  });

  it('bases every stage on a supported Node.js LTS (an even major of 22 or later, not 20)', () => {
    for (const stage of stages) {
      const major = /^node:(\d+)/.exec(stage.image)?.[1];
      expect(major, stage.image).toBeDefined();
      expect(Number(major) % 2).toBe(0);
      expect(Number(major)).toBeGreaterThanOrEqual(22);
    }
  });

  it('runs as a user other than root, with a HEALTHCHECK on /api/ready', () => {
    const users = runtime.steps.filter((s) => s.kind === 'user');
    const user = users.at(-1);
    expect(user?.kind === 'user' ? user.user : 'root').not.toMatch(/^(root|0)(:|$)/);
    const health = runtime.steps.find((s) => s.kind === 'healthcheck');
    expect(health?.kind === 'healthcheck' ? health.text : '').toContain('/api/ready');
  });
});

describe('Dockerfile replayed in a scratch folder', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'klondike-image-'));
  const logPath = join(scratch, 'replay.log');
  const log = createWriteStream(logPath);
  let replay: Replay | undefined;
  let server: ChildProcess | undefined;
  afterAll(async () => {
    if (server && server.exitCode === null) {
      // SIGTERM, then SIGKILL after 5 s: a first start's background work (the daily's par) may hold it longer.
      const exited = new Promise((r) => server?.once('exit', r));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server?.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    rmSync(scratch, { recursive: true, force: true });
  }, 120_000);

  it('builds: pnpm install with only the copied manifests, then the web client, the server and its production folder', async () => {
    try {
      replay = await replayDockerfile({
        context: ROOT,
        dockerfile: DOCKERFILE,
        scratch,
        log: (t) => log.write(t),
      });
    } catch (e) {
      throw new Error(`${(e as Error).message}\n(full log: ${logPath})`, { cause: e });
    }
    expect(replay.final.cmd).toContain('dist/main.js');
  }, 600_000);

  it('the runtime stage starts, answers /api/ready and serves the web client', async () => {
    expect(replay, 'the build step above failed').toBeDefined();
    const final = (replay as Replay).final;
    const port = await freePort();
    const [command, ...args] = final.cmd;
    server = spawn(command === 'node' ? process.execPath : (command ?? 'node'), args, {
      cwd: join(final.root, final.workdir),
      // The runtime stage's ENV, its /data mapped into the stage's folder; only HOST and PORT chosen here.
      env: {
        PATH: process.env.PATH ?? '',
        ...final.env,
        DATA_DIR: join(final.root, final.env.DATA_DIR ?? '/data'),
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    server.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    const deadline = Date.now() + 120_000;
    let ready: { status?: string } | undefined;
    while (Date.now() < deadline && server.exitCode === null) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
        if (res.ok) {
          ready = (await res.json()) as { status?: string };
          break;
        }
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(ready?.status, `the server did not answer ready:\n${output}`).toBe('ready');
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="app"/);
  }, 180_000);
});
