/**
 * Browser test of R16 (preset `draw3-last-pass`): the real server serving the built client, driven through
 * Debian's chromium. Deals a known deal with the preset from the New game dialog, draws three at a time
 * until the stock is empty, then takes the last pass from the table (the "Last pass" button next to
 * "Redeal", announced to screen readers); from then on each click on the stock turns one card. Undo brings
 * the choice back, and the L key takes the last pass from the keyboard.
 */
import { GameResponseSchema, type GameResponse } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
  launchChromium,
} from './harness';
import { AUTO_PILES, AUTO_STOCK, dealText as autoDealText } from './deals';

const SKIP = skipReason();

/** The auto-complete deal (deals.ts): draw 3 turns its stock in threes. */
const dealText = (): string => autoDealText(AUTO_PILES, AUTO_STOCK);

describe.skipIf(SKIP !== null)(`browser: the last pass (R16)${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let gameId = '';

  async function version(): Promise<number> {
    return Number(await page.getByTestId('table').getAttribute('data-version'));
  }

  async function waitVersion(v: number): Promise<void> {
    await page.waitForFunction(
      (want) => Number(document.querySelector('[data-testid=table]')?.getAttribute('data-version')) >= want,
      v,
      { timeout: 10_000 },
    );
  }

  async function serverGame(): Promise<GameResponse> {
    const res = await fetch(`${server.url}/api/games/${gameId}`);
    return GameResponseSchema.parse(await res.json());
  }

  async function waitAnnounced(text: string): Promise<void> {
    await page.waitForFunction(
      (want) => document.querySelector('[data-testid=announcer]')?.textContent?.includes(want) ?? false,
      text,
      { timeout: 10_000 },
    );
  }

  async function pileOf(code: string): Promise<string | null> {
    return page
      .getByTestId(`card-${code}`)
      .evaluate((el) => el.closest<HTMLElement>('[data-testid^="pile-"]')?.dataset.testid ?? null);
  }

  /** Clicks the stock and waits for the server's answer. */
  async function clickStock(): Promise<void> {
    const v = await version();
    await page.getByTestId('pile-stock').click();
    await waitVersion(v + 1);
  }

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('the New game dialog offers draw3-last-pass with a one-line explanation, and deals it', async () => {
    await page.goto(server.url);
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.getByTestId('pile-t7').waitFor();
    await page.getByTestId('new-game').click();
    const option = page.locator('label.preset', { has: page.getByTestId('preset-draw3-last-pass') });
    expect(await option.textContent()).toContain('once switch to a last pass one card at a time');
    await page.getByTestId('preset-draw3-last-pass').check();
    await page.getByTestId('source-paste').check();
    await page.getByTestId('deal-text').fill(dealText());
    const before = page.url();
    await page.getByTestId('deal').click();
    await page.waitForURL((u) => u.toString() !== before && /\/game\/[A-Za-z0-9_-]+$/.test(u.pathname));
    gameId = new URL(page.url()).pathname.split('/').pop() as string;
    await waitVersion(0);
    const g = await serverGame();
    expect(g.preset).toBe('draw3-last-pass');
    expect(g.view.lastPass).toBe('available');
  }, 60_000);

  it('draws three at a time; with the stock empty the table offers a redeal and the last pass', async () => {
    await clickStock();
    expect(await pileOf('3C')).toBe('pile-waste');
    expect((await serverGame()).view.waste).toEqual(['AC', '2C', '3C']);
    expect(await page.getByTestId('stock-choice').count()).toBe(0);
    for (let i = 1; i < 8; i++) await clickStock();
    expect((await serverGame()).view.stock.count).toBe(0);
    await page.getByTestId('stock-choice').waitFor();
    expect(await page.getByTestId('redeal').textContent()).toContain('Redeal');
    expect(await page.getByTestId('last-pass').textContent()).toContain('Last pass, one card at a time');
    expect(await page.getByTestId('last-pass').getAttribute('aria-label')).toBe(
      'Last pass, one card at a time',
    );
    await waitAnnounced('take the last pass, one card at a time');
  }, 60_000);

  it('takes the last pass from the table; the stock then turns one card at a time', async () => {
    const v = await version();
    await page.getByTestId('last-pass').click();
    await waitVersion(v + 1);
    await waitAnnounced('Last pass');
    expect(await page.getByTestId('stock-choice').count()).toBe(0);
    let g = await serverGame();
    expect(g.view).toMatchObject({ lastPass: 'taken', redealsLeft: 0, waste: [], stock: { count: 24 } });
    expect(await page.getByTestId('pile-stock').getAttribute('data-last-pass')).toBe('taken');

    for (let k = 1; k <= 4; k++) {
      await clickStock();
      g = await serverGame();
      expect(g.view.waste).toEqual(AUTO_STOCK.slice(0, k)); // one card per click, in the order they were dealt
      expect(g.view.stock.count).toBe(24 - k);
      expect(await pileOf(AUTO_STOCK[k - 1] as string)).toBe('pile-waste');
    }
    expect(await page.getByTestId('pile-stock').getAttribute('aria-label')).toBe(
      'Stock, 20 cards: draw one (last pass)',
    );
  }, 60_000);

  it('undo brings the choice back; L takes the last pass from the keyboard', async () => {
    let v = await version();
    for (let k = 0; k < 5; k++) {
      await page.getByTestId('undo').click();
      await waitVersion(v + 1);
      v += 1;
    }
    expect((await serverGame()).view).toMatchObject({ lastPass: 'available', stock: { count: 0 } });
    await page.getByTestId('stock-choice').waitFor();
    await page.getByTestId('table').click({ position: { x: 5, y: 5 } }); // focus leaves the buttons
    await page.keyboard.press('l');
    await waitVersion(v + 1);
    expect((await serverGame()).view.lastPass).toBe('taken');
    await clickStock();
    expect((await serverGame()).view.waste).toEqual(['AC']);
  }, 60_000);
});
