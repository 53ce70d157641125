/**
 * The statistics page in a real browser (docs/features.md "Statistics"): a player who won two games and lost one
 * opens /players/<id>/stats at 1366×768 and 390×844 and sees the charts drawn (uPlot canvases), the right
 * numbers in the tiles and the per-preset table, and their history with replay links; someone else sees the
 * charts but no history (it is owner-only). The player page links to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  skipReason,
  startServer,
  type Browser,
  type RunningServer,
  launchChromium,
  SCREEN_SIZES,
} from './harness';
import { seedPlayer, type SeededPlayer } from './seed';

const SKIP = skipReason();

describe.skipIf(SKIP !== null)(`browser: statistics page${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: SeededPlayer;

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, { DAILY_ARCHIVE_DAYS: '0' });
    ada = await seedPlayer(server.url, 'Ada Stats');
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  for (const size of SCREEN_SIZES)
    it(`${size.name}: charts drawn, numbers right, history with replay links`, async () => {
      const context = await browser.newContext({
        viewport: size.viewport,
        isMobile: size.mobile,
        hasTouch: size.mobile,
      });
      try {
        await context.addInitScript((token) => localStorage.setItem('klondike.token', token), ada.token);
        const page = await context.newPage();
        await page.goto(`${server.url}/players/${ada.id}`);
        await page.click('[data-testid=stats-link]');
        await page.waitForURL(`**/players/${ada.id}/stats`);
        await page.waitForSelector('[data-testid=chart-win-rate] canvas', { timeout: 20_000 });
        await page.waitForSelector('[data-testid=chart-times] canvas');
        expect(await page.textContent('[data-testid=stats-title]')).toContain('Ada Stats');
        const tiles = await page.$$eval('[data-testid=stats-tiles] .tile', (els) =>
          els.map((e) => [e.querySelector('span')?.textContent, e.querySelector('strong')?.textContent]),
        );
        expect(tiles.slice(0, 3)).toEqual([
          ['Games', '3'],
          ['Wins', '2'],
          ['Win rate', '67%'],
        ]);
        const row = await page.$$eval('[data-testid=preset-table] tr[data-preset=classic-draw1] td', (tds) =>
          tds.map((td) => td.textContent?.trim()),
        );
        expect(row.slice(0, 4)).toEqual(['Classic · Draw 1', '3', '2', '67%']);
        expect(row[5]).toBe('2'); // best streak: won, won, then resigned
        // Every chart canvas has been drawn into: a non-zero size and some pixels not blank.
        const drawn = await page.$$eval('[data-testid^=chart-] canvas', (cs) =>
          (cs as HTMLCanvasElement[]).map((c) => {
            const ctx = c.getContext('2d');
            if (!ctx || c.width === 0 || c.height === 0) return false;
            const px = ctx.getImageData(0, 0, c.width, c.height).data;
            for (let i = 3; i < px.length; i += 4) if ((px[i] ?? 0) > 0) return true;
            return false;
          }),
        );
        expect(drawn).toEqual([true, true]);
        // The canvases fit the viewport (no sideways scroll on the phone).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect(await page.textContent('[data-testid=best-time]')).toMatch(/^\d+:\d\d$/);

        // The history: newest first, replay links that open the replay page.
        await page.waitForSelector('[data-testid=history-list] li');
        const statuses = await page.$$eval('[data-testid=history-list] li', (lis) =>
          lis.map((li) => li.getAttribute('data-status')),
        );
        expect(statuses).toEqual(['resigned', 'won', 'won']);
        await page.selectOption('[data-testid=filter-result]', 'lost');
        await page.waitForFunction(
          () => document.querySelectorAll('[data-testid=history-list] li').length === 1,
        );
        await page.click('[data-testid=history-list] li a');
        await page.waitForURL(`**/replay/${ada.games[2]?.id}`);
      } finally {
        await context.close();
      }
    }, 90_000);

  it('another visitor sees the charts but not the history (owner-only)', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/players/${ada.id}/stats`);
      await page.waitForSelector('[data-testid=chart-times] canvas', { timeout: 20_000 });
      expect(await page.$('[data-testid=history]')).toBeNull();
    } finally {
      await context.close();
    }
  }, 60_000);
});
