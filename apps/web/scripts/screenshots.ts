/**
 * `pnpm screenshots`: builds the client if needed, starts a real server (embedded database, a fresh data
 * folder), and saves a screenshot of each page at 1366×768 (desktop) and 390×844 (phone, touch) in
 * `apps/web/screenshots/` for a reviewer to look at. Pages that need a player are taken signed in.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_DIR, ensureBuilt, launchChromium, startServer } from '../test/e2e/harness';
import { seedPlayer } from '../test/e2e/seed';

const OUT = join(WEB_DIR, 'screenshots');
const SIZES = [
  { name: 'desktop', viewport: { width: 1366, height: 768 }, mobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, mobile: true },
] as const;

async function main(): Promise<void> {
  ensureBuilt();
  mkdirSync(OUT, { recursive: true });
  const server = await startServer(undefined, { DAILY_ARCHIVE_DAYS: '2' });
  const browser = await launchChromium();
  try {
    // A player with a finished game, so the player pages have something to show.
    const created = (await (
      await fetch(`${server.url}/api/players`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Screenshot' }),
      })
    ).json()) as { id: string; token: string };
    // A player with won and lost games, for the statistics page's charts (seen as a visitor: no history).
    const stats = await seedPlayer(server.url, 'Chart Player');
    const today = new Date().toISOString().slice(0, 10);
    const pages: Array<{ name: string; path: string; ready: string }> = [
      { name: 'table', path: '/', ready: '[data-testid=pile-t7]' },
      { name: 'daily', path: '/daily', ready: 'main' },
      { name: 'daily-leaderboard', path: `/daily/${today}/classic-draw1/leaderboard`, ready: 'main' },
      { name: 'leaderboard', path: '/leaderboard', ready: 'main' },
      { name: 'player', path: `/players/${created.id}`, ready: 'main' },
      { name: 'statistics', path: `/players/${stats.id}/stats`, ready: '[data-testid=chart-times] canvas' },
      { name: 'race', path: '/race', ready: 'main' },
      { name: 'settings', path: '/settings', ready: '[data-testid=settings-page]' },
      { name: 'help', path: '/help', ready: '[data-testid=help-page]' },
      { name: 'not-found', path: '/no/such/page', ready: '[data-testid=not-found]' },
      ...(process.env.SCREENSHOT_PATHS ?? '')
        .split(',')
        .filter(Boolean)
        .map((p, i) => ({ name: `extra-${i + 1}`, path: p, ready: 'body' })),
    ];
    for (const size of SIZES)
      for (const p of pages) {
        const context = await browser.newContext({
          viewport: size.viewport,
          isMobile: size.mobile,
          hasTouch: size.mobile,
        });
        const page = await context.newPage();
        await page.goto(`${server.url}${p.path}`);
        await page.waitForSelector(p.ready, { timeout: 20_000 });
        await page.waitForTimeout(800); // deal animation and transitions settle
        const file = join(OUT, `${p.name}-${size.name}.png`);
        await page.screenshot({ path: file });
        console.log(file);
        await context.close();
      }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
