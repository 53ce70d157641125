/**
 * Browser-test harness: builds the client if needed, starts the real server (apps/server, tsx) on a free port
 * with a temporary DATA_DIR, and launches Debian's chromium through playwright-core.

 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as Playwright from 'playwright-core';

export type { Browser, BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export const WEB_DIR = resolve(import.meta.dirname, '../..');
export const SERVER_DIR = resolve(WEB_DIR, '../server');

/** Headless Debian Chromium through playwright-core, as every browser test runs it. */
export function launchChromium(): Promise<Playwright.Browser> {
  return Playwright.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * The two screens the layout tests cover (CSS pixels): a laptop's 1366×768, and a phone's 390×844 (its
 * contexts are made with touch and the mobile viewport meta honoured).
 */
export const SCREEN_SIZES = [
  { name: 'desktop', viewport: { width: 1366, height: 768 }, mobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, mobile: true },
] as const;

/** One of `SCREEN_SIZES`. */
export type ScreenSize = (typeof SCREEN_SIZES)[number];

/** Why the browser test cannot run here, or null when it can. */
export function skipReason(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (!existsSync(join(SERVER_DIR, 'src/main.ts'))) return 'apps/server/src/main.ts does not exist';
  return null;
}

/** Builds apps/web/dist unless it exists (the `test` script builds first; set E2E_BUILD=1 to force). */
export function ensureBuilt(): void {
  if (existsSync(join(WEB_DIR, 'dist/index.html')) && process.env.E2E_BUILD !== '1') return;
  execFileSync(join(WEB_DIR, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
  });
}

/** A TCP port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /**
   * Stops the server (SIGTERM; one still closing after 10 s is killed, tsx and the server process both);
   * removes its data unless `keepData`.
   */
  stop(keepData?: boolean): Promise<void>;
}

/**
 * Starts `tsx apps/server/src/main.ts` and waits for /api/health. Pass the port and data folder of a stopped
 * server to restart it on the same address and data, and `env` for extra settings (e.g. a short daily archive).
 */
export async function startServer(
  reuse?: { port: number; dataDir: string },
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const port = reuse?.port ?? (await freePort());
  const dataDir = reuse?.dataDir ?? mkdtempSync(join(tmpdir(), 'klondike-e2e-'));
  const tsx =
    [join(SERVER_DIR, 'node_modules/.bin/tsx'), join(WEB_DIR, '../../node_modules/.bin/tsx')].find((p) =>
      existsSync(p),
    ) ?? 'tsx';
  let output = '';
  const child: ChildProcess = spawn(tsx, ['src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: join(WEB_DIR, 'dist'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: tsx runs the server in a child process, which a kill of tsx alone would
    // leave running (still listening, and answering 503 while it closes) — see `killAll`.
    detached: true,
  });
  /** Sends `signal` to the server's whole process group: tsx and the node process running the server. */
  const killAll = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      killAll('SIGKILL');
      throw new Error(`server did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    dataDir,
    async stop(keepData = false) {
      // Not yet exited: neither an exit code nor a killing signal (a killed process has no exit code).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        // tsx passes SIGTERM on to the server, which closes cleanly; one still closing after 10 s (say, it
        // waits for a solver job of the daily generation on a loaded machine) is killed, tsx and server both.
        child.kill('SIGTERM');
        const timer = setTimeout(() => killAll('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A JSON call to a test server's API: `schema` parses the answer (anything with `parse`, e.g. a zod schema);
 * a non-2xx answer throws with its status and body. `bearer` is a player token.
 */
export async function apiCall<T>(
  baseUrl: string,
  method: string,
  path: string,
  schema: { parse(v: unknown): T },
  body?: unknown,
  bearer?: string,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return schema.parse(json);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One serious or critical axe-core violation: the rule, its impact, its help text and the first targets. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * The serious and critical axe-core violations (WCAG 2.1 A/AA) of `page` once its finite animations have
 * ended: a dialog fading in has a translucent text colour for its first frames, and axe measures the contrast
 * of that frame. Endless animations (a spinner) are left running.
 */
export async function axeViolations(page: Playwright.Page): Promise<AxeViolation[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not apply to.
  await page.evaluate(AXE_SOURCE);
  const all = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: object): Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const r = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target })),
    }));
  });
  return all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The ids of the serious and critical axe-core violations of `page` as it is now (see `axeViolations`). */
export async function seriousViolations(page: Playwright.Page): Promise<string[]> {
  return (await axeViolations(page)).map((v) => v.id);
}
