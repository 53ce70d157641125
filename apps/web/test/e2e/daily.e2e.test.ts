/**
 * Browser test of the daily challenge: a new player signs up through the UI (after a refused name), plays
 * today's Draw 1 daily as their one ranked attempt (a few moves, then resigns), sees the result screen with
 * their rank and a spoiler-free share text, finds their row on the daily's leaderboard page, and a second
 * ranked attempt (from a tab that still offers one) is refused with a clear message. Then the "use on another
 * device" link signs a fresh browser in and leaves the URL without the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  skipReason,
  startServer,
  type Browser,
  type BrowserContext,
  type Page,
  type RunningServer,
  launchChromium,
} from './harness';

const SKIP = skipReason();
const NAME = 'Tester One';

describe.skipIf(SKIP !== null)(`browser: the daily challenge${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** A second tab opened before the attempt: it still offers "Play ranked". */
  let stale: Page;
  let date = '';
  /** What the tabs sent to open a ranked attempt: POST …/attempt requests and `daily-attempt` frames. */
  const opened = { posts: 0, frames: 0 };
  function watchOpenings(tab: Page): void {
    tab.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/attempt')) opened.posts++;
    });
    tab.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        if (typeof f.payload === 'string' && f.payload.includes('"type":"daily-attempt"')) opened.frames++;
      }),
    );
  }

  beforeAll(async () => {
    ensureBuilt();
    // A short archive and quick daily generation keep start-up fast.
    server = await startServer(undefined, {
      DAILY_ARCHIVE_DAYS: '1',
      DAILY_SOLVE_MS: '2000',
      PLAYER_CREATE_RATE_MAX: '0',
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    watchOpenings(page);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('signs a new player up from the Play ranked button (with name validation)', async () => {
    await page.goto(`${server.url}/daily`);
    await page.getByTestId('challenge-classic-draw1').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('countdown').textContent()).toMatch(/\d+:\d{2}:\d{2}/);
    await page.getByTestId('play-ranked-classic-draw1').click();

    const dialog = page.getByTestId('signup-dialog');
    await dialog.waitFor();
    await page.getByTestId('player-name').fill('ab');
    await page.getByTestId('player-submit').click();
    expect(await page.getByTestId('player-error').textContent()).toContain('At least 3 characters');
    await page.getByTestId('player-name').fill('bad  name!');
    await page.getByTestId('player-submit').click();
    expect(await page.getByTestId('player-error').isVisible()).toBe(true);

    await page.getByTestId('player-name').fill(NAME);
    await page.getByTestId('player-submit').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('nav-me').textContent()).toContain(NAME);
    expect(await page.evaluate(() => localStorage.getItem('klondike.token'))).toBeTruthy();

    // Signing up continues to the ranked rules and their confirmation.
    const rules = page.getByTestId('ranked-rules');
    await rules.waitFor();
    const text = (await rules.textContent()) ?? '';
    expect(text).toContain('One attempt');
    expect(text).toContain('Undo is off');
    expect(text).toContain('Hints are off');
    expect(text).toContain('first move');
  }, 90_000);

  it('plays the ranked attempt to the end: badge, no undo or hint, resign, rank and share text', async () => {
    // Another tab, opened before the attempt starts, still shows "Play ranked".
    stale = await context.newPage();
    watchOpenings(stale);
    await stale.goto(`${server.url}/daily`);
    await stale.getByTestId('play-ranked-classic-draw1').waitFor();

    await page.getByTestId('confirm-ranked').click();
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.getByTestId('pile-t7').waitFor();
    await page.getByTestId('ranked-badge').waitFor();
    // The attempt was opened over the player's socket, without an HTTP request.
    expect(opened).toEqual({ posts: 0, frames: 1 });
    expect(await page.getByTestId('undo').count()).toBe(0);
    expect(await page.getByTestId('hint').count()).toBe(0);

    // A few moves (draws over the socket, as the authed player), then resign.
    for (let i = 1; i <= 3; i++) {
      await page.getByTestId('pile-stock').click();
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid=moves]')?.textContent === String(n),
        i,
        { timeout: 10_000 },
      );
    }
    // Resigning asks first, in the site's own dialog (never the browser's): Cancel keeps the attempt going.
    await page.getByTestId('resign').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('no second try');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'confirm-cancel',
    );
    await page.keyboard.press('d'); // the table's draw shortcut does nothing behind the dialog
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.getByTestId('moves').textContent()).toBe('3');
    expect(await page.getByTestId('status').getAttribute('data-status')).toBe('playing');
    await page.getByTestId('resign').click();
    await page.getByTestId('confirm-ok').click();

    const result = page.getByTestId('ranked-result');
    await result.waitFor({ timeout: 10_000 });
    await page.waitForFunction(
      () => /#\d+/.test(document.querySelector('[data-testid=ranked-rank]')?.textContent ?? ''),
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.getByTestId('ranked-rank').textContent()).toContain('#1');
    const share = (await page.getByTestId('share-text').textContent()) ?? '';
    date = /Klondike Daily (\d{4}-\d{2}-\d{2})/.exec(share)?.[1] ?? '';
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(share).toContain('Draw 1');
    expect(share).toContain('Lost');
    expect(share).toContain('after 3 moves');
    expect(share).not.toMatch(/par \d+/); // par is for a win: not beside a resignation
    expect(share).not.toMatch(/\b[A2-9TJQK][CDHS]\b/); // no card codes: spoiler-free
  }, 40_000);

  it('shows the result on the daily leaderboard page', async () => {
    await page.getByTestId('ranked-leaderboard').click();
    await page.waitForURL(new RegExp(`/daily/${date}/classic-draw1/leaderboard$`));
    const row = page.getByTestId('my-row');
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(NAME);
    expect(text).toContain('Resigned');
    // The row's moves against par (the board carries the daily's par).
    expect(await row.getByTestId('vs-par').textContent()).toMatch(/^\s*([+\u2212]\d+|±0)\s*$/);
    // An account made today: its result is provisional, shown to its player but not on the main board.
    expect(await page.getByTestId('provisional').isVisible()).toBe(true);
    expect(await page.getByTestId('my-rank').textContent()).toBe('#1');
    expect(await page.getByTestId('live').isVisible()).toBe(true);

    // The daily page now shows the result instead of "Play ranked"; practice opens only when the day closes.
    await page.getByTestId('nav-daily').click();
    await page.getByTestId('your-result').first().waitFor();
    // Par reads "N (proven shortest)" or "≤ N".
    expect(await page.getByTestId('par').first().textContent()).toMatch(
      /^\s*(\d+ \(proven shortest\)|≤ \d+)\s*$/,
    );
    expect(await page.getByTestId('play-ranked-classic-draw1').count()).toBe(0);
    expect(await page.getByTestId('practice-classic-draw1').count()).toBe(0);
    expect(await page.getByTestId('practice-later-classic-draw1').textContent()).toContain(
      'when the day closes',
    );
  }, 30_000);

  it('ranks a bot account on the bot board only: the all-time page switches between People and Bots', async () => {
    // A bot plays its ranked attempt through the API (create, attempt, resign).
    const post = async (path: string, body: object, token?: string) => {
      const r = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      expect(r.ok, await r.clone().text()).toBe(true);
      return (await r.json()) as { id: string; token: string };
    };
    const bot = await post('/api/players', { name: 'Robo Ranker', bot: true });
    const game = await post(`/api/daily/${date}/classic-draw1/attempt`, {}, bot.token);
    await post(`/api/games/${game.id}/resign`, {}, bot.token);

    await page.goto(`${server.url}/leaderboard`);
    const table = page.getByTestId('alltime');
    await table.waitFor();
    expect(await table.textContent()).toContain(NAME);
    expect(await table.textContent()).not.toContain('Robo Ranker');
    await page.getByTestId('board-bots').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=alltime]')?.textContent?.includes('Robo Ranker') ?? false,
      undefined,
      { timeout: 10_000 },
    );
    const bots = (await table.textContent()) ?? '';
    expect(bots).not.toContain(NAME);
    expect(await table.locator('.bot-tag').count()).toBe(1);
  }, 30_000);

  it('refuses a second ranked attempt with a clear message', async () => {
    await stale.bringToFront();
    await stale.getByTestId('play-ranked-classic-draw1').click();
    await stale.getByTestId('confirm-ranked').click();
    const error = stale.getByTestId('ranked-error');
    await error.waitFor({ timeout: 10_000 });
    expect(await error.textContent()).toMatch(/already/i);
    expect(new URL(stale.url()).pathname).toBe('/daily');
    expect(opened).toEqual({ posts: 0, frames: 2 }); // refused by the socket's error frame
    await stale.close();
  }, 30_000);

  it('signs another device in with a single-use link, then signs out everywhere', async () => {
    await page.getByTestId('account').click();
    await page.getByTestId('show-transfer').click();
    const link = await page.getByTestId('transfer-link').inputValue();
    expect(link).toMatch(/\/#signin=[0-9A-F]{32}$/);
    const token = await page.evaluate(() => localStorage.getItem('klondike.token'));
    expect(link).not.toContain(token ?? 'no token');
    await page.getByTestId('player-close').click();

    const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await other.newPage();
    await phone.goto(link);
    await phone.getByTestId('nav-me').waitFor({ timeout: 10_000 });
    expect(await phone.getByTestId('nav-me').textContent()).toContain(NAME);
    expect(phone.url()).not.toContain('signin=');
    const phoneToken = await phone.evaluate(() => localStorage.getItem('klondike.token'));
    expect(phoneToken).toBeTruthy();
    expect(phoneToken).not.toBe(token); // a token of its own

    // The link works once: a third browser opening it stays signed out.
    const third = await browser.newContext();
    const late = await third.newPage();
    await late.goto(link);
    await late.waitForFunction(() => !location.hash.includes('signin='));
    await late.waitForTimeout(1000);
    expect(await late.evaluate(() => localStorage.getItem('klondike.token'))).toBeNull();
    await third.close();

    // Sign out everywhere from the first device: both tokens stop working.
    await page.getByTestId('account').click();
    await page.getByTestId('sign-out-everywhere').click();
    await page.getByTestId('confirm-ok').click();
    await page.waitForFunction(() => localStorage.getItem('klondike.token') === null);
    const me = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${phoneToken}` } });
    expect(me.status).toBe(401);
    await other.close();
  }, 60_000);
});
