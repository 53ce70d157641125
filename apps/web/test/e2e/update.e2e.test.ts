/**
 * Browser test of a deploy under an open tab (docs/accessibility.md "Updates"): the built client is copied to
 * a folder the server serves; a tab opens it; then a second build, every chunk under a new name, is deployed
 * in its place (the old files gone). Two tabs:
 * - one the service worker does not control yet (a first visit): its next lazy page fails to load, and the
 *   router loads the address again, once, which brings the new build: the help page shows;
 * - one the worker controls: the old build's files still come from the worker's cache (the help page loads
 *   without a reload), the new worker waits, and the "update" prompt's Reload (keyboard) lets it take over
 *   and loads the new build.
 * Neither leaves an uncaught error on the page.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  launchChromium,
  skipReason,
  startServer,
  WEB_DIR,
  type Browser,
  type Page,
  type RunningServer,
} from './harness';

const SKIP = skipReason();

/**
 * Builds the client again into `out` with every chunk's name changed (a new deploy: new hashed names all the
 * way down, index.html and the service worker's precache list with them).
 */
async function buildAgain(out: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: join(WEB_DIR, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      outDir: out,
      emptyOutDir: true,
      rolldownOptions: {
        output: {
          entryFileNames: 'assets/[name]-[hash]-v2.js',
          chunkFileNames: 'assets/[name]-[hash]-v2.js',
        },
      },
    },
  });
}

/** Deploys the build in `from` over `to` (the old files removed, as a deploy replaces the folder). */
function deploy(from: string, to: string): void {
  for (const f of readdirSync(to)) rmSync(join(to, f), { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}

/** Uncaught errors of `page` (pageerror), collected from now on. */
function uncaught(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Navigates inside the app (the router, as a link would), without loading the page. */
async function routerGo(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    const state: unknown = history.state;
    history.pushState(state, '', p);
    dispatchEvent(new PopStateEvent('popstate', { state }));
  }, path);
}

describe.skipIf(SKIP !== null)(
  `browser: a deploy under an open tab${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    let server: RunningServer;
    let browser: Browser;
    let dist = '';
    let next = '';

    beforeAll(async () => {
      ensureBuilt();
      dist = mkdtempSync(join(tmpdir(), 'klondike-dist-'));
      cpSync(join(WEB_DIR, 'dist'), dist, { recursive: true });
      next = mkdtempSync(join(tmpdir(), 'klondike-dist-next-'));
      await buildAgain(next);
      server = await startServer(undefined, {
        WEB_DIST: dist,
        DAILY_SCHEDULE: 'off',
        DAILY_ARCHIVE_DAYS: '0',
      });
      browser = await launchChromium();
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      for (const d of [dist, next]) if (d) rmSync(d, { recursive: true, force: true });
    }, 30_000);

    it('an old tab, worker or not, opens a lazy page after a deploy, and takes the new build', async () => {
      // Tab A: the worker installed and controlling (a second load), on the old build.
      const a = await (await browser.newContext()).newPage();
      const aErrors = uncaught(a);
      await a.goto(`${server.url}/`);
      await a.getByTestId('pile-t7').waitFor();
      await a.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await a.reload();
      await a.getByTestId('pile-t7').waitFor();
      expect(await a.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

      // Tab B: never controlled (its own context, the worker blocked), on the old build.
      const b = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
      const bErrors = uncaught(b);
      await b.goto(`${server.url}/`);
      await b.getByTestId('pile-t7').waitFor();

      const old = readdirSync(join(dist, 'assets')).find((f) => /^HelpPage-.*\.js$/.test(f)) as string;
      deploy(next, dist);
      const renamed = readdirSync(join(dist, 'assets')).find((f) => /^HelpPage-.*-v2\.js$/.test(f)) as string;
      expect(renamed).toBeTruthy();

      // B: the old chunk is gone; the router loads /help again and the new build shows it.
      // Every script's answer is recorded as it is given (a route, not the 'response' event: that event of a
      // request whose page reloads at once may never be delivered).
      const asked: string[] = [];
      await b.route('**/assets/*.js', async (route) => {
        const answer = await route.fetch();
        asked.push(`${answer.status()} ${new URL(route.request().url()).pathname}`);
        await route.fulfill({ response: answer });
      });
      await routerGo(b, '/help');
      await b
        .getByTestId('help-page')
        .waitFor({ timeout: 20_000 })
        .catch((e: unknown) => {
          throw new Error(`no help page; asked: ${asked.join(', ')}; errors: ${bErrors.join(', ')}`, {
            cause: e,
          });
        });
      // The old chunk was asked for and missing (404), then the new build's was loaded.
      expect(asked).toContain(`404 /assets/${old}`);
      expect(new URL(b.url()).pathname).toBe('/help');
      expect(
        await b.evaluate(
          (n) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(n)),
          renamed,
        ),
      ).toBe(true);
      expect(bErrors).toEqual([]);

      // A: the worker still serves the old build (the help page loads as it was), and a new worker waits.
      await routerGo(a, '/help');
      await a.getByTestId('help-page').waitFor({ timeout: 20_000 });
      await a.evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        await r?.update();
      });
      await a.getByTestId('update-reload').waitFor({ timeout: 30_000 });
      const reloaded = a.waitForEvent('load');
      await a.getByTestId('update-reload').focus();
      await a.keyboard.press('Enter');
      await reloaded;
      await a.getByTestId('help-page').waitFor({ timeout: 20_000 });
      // The new build's help chunk is the one loaded now, and the old build's cache is gone.
      expect(
        await a.evaluate(
          (n) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(n)),
          renamed,
        ),
      ).toBe(true);
      const cached = await a.evaluate(async (n) => {
        for (const key of await caches.keys()) {
          const c = await caches.open(key);
          if ((await c.keys()).some((r) => r.url.includes(n))) return true;
        }
        return false;
      }, old);
      expect(cached).toBe(false);
      expect(aErrors).toEqual([]);
    }, 240_000);
  },
);
