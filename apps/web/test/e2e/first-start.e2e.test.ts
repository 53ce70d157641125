/**
 * Browser test of a newcomer's first start: the server starts on an empty data folder with its default daily
 * settings (a 30-day archive to fill, 3 s solver cap per daily job), and the Daily page shows today's two
 * challenges, the past days that exist so far (with how many are still being prepared) and today's
 * leaderboard table without waiting for the archive fill, which goes on in the background meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  launchChromium,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
} from './harness';

const SKIP = skipReason();

/** How long the page may take to show what it needs (generous: a busy CI box, the fill running meanwhile). */
const SHOWN_WITHIN_MS = 15_000;

describe.skipIf(SKIP !== null)(`browser: a first start${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureBuilt();
    // The daily defaults, as a newcomer runs them (no DAILY_* settings).
    server = await startServer();
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it("shows today's two challenges and the past days while the archive is still being filled", async () => {
    await page.goto(`${server.url}/daily`);
    for (const preset of ['classic-draw1', 'classic-draw3'])
      await page.getByTestId(`challenge-${preset}`).waitFor({ timeout: SHOWN_WITHIN_MS });
    // Par is shown for both (an upper bound until it is refined).
    expect(await page.getByTestId('par').count()).toBe(2);
    for (const par of await page.getByTestId('par').allTextContents()) expect(par).toMatch(/\d+/);
    // The archive answers at once: the days stored so far and/or how many are still being prepared.
    await page
      .locator('[data-testid=archive], [data-testid=archive-pending]')
      .first()
      .waitFor({ timeout: SHOWN_WITHIN_MS });
    const ready = (await (await fetch(`${server.url}/api/ready`)).json()) as {
      background: { daily: { archivePending: number | null; backfilling: boolean } };
    };
    // The fill is still under way (30 days of two presets): the page did not wait for it.
    expect(ready.background.daily.backfilling).toBe(true);
  }, 60_000);

  it("opens today's leaderboard table during the fill", async () => {
    await page.getByTestId('leaderboard-classic-draw1').click();
    await page.getByTestId('daily-leaderboard-page').waitFor({ timeout: SHOWN_WITHIN_MS });
    await page
      .locator('[data-testid=leaderboard], [data-testid=daily-leaderboard-page] .state-msg')
      .first()
      .waitFor({ timeout: SHOWN_WITHIN_MS });
  }, 60_000);
});
