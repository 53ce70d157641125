/**
 * Browser test of the player's side (issue "The player's side"): the layout at 1366×768, on a 390×844 phone
 * and on phones held sideways, the daily page's cards at every width and a long name on a phone (nothing cut
 * off or overlapping, the rules and deal shown on a phone, the cards given the height when it is short),
 * error pages that say what happened in words (never a raw server message or an endless "Loading…"), an unknown address that is a not-found page, the last unfinished game resumed on
 * `/` after the tab was closed (and, signed in, on another device), and a visible offline state.
 */
import {
  GameResponseSchema,
  PlayerCreatedSchema,
  StateResponseSchema,
  TransferSchema,
} from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextFoundationMove, type PlayerView } from '@klondike/rules';
import { AUTO_PILES, AUTO_STOCK, dealText } from './deals';
import {
  apiCall,
  ensureBuilt,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
  launchChromium,
} from './harness';

const SKIP = skipReason();
const DESKTOP = { viewport: { width: 1366, height: 768 } } as const;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
/** Phones held sideways (width, height) and the least card height the table must then reach there, px. */
const SIDEWAYS = [
  [640, 360, 60],
  [568, 320, 52],
] as const;
/** A phone of that size. */
const held = (width: number, height: number) => ({
  viewport: { width, height },
  isMobile: true,
  hasTouch: true,
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(page: Page, selector: string): Promise<Box> {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not visible`);
  return b;
}

describe.skipIf(SKIP !== null)(`browser: the player's side${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, { DAILY_ARCHIVE_DAYS: '1' });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  async function open(
    path: string,
    size: { viewport: { width: number; height: number }; isMobile?: boolean; hasTouch?: boolean } = DESKTOP,
  ) {
    const context = await browser.newContext(size);
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    return { context, page };
  }

  it('desktop 1366×768: "Become a player" does not cover the score box', async () => {
    const { context, page } = await open('/');
    await page.getByTestId('pile-t7').waitFor();
    const signUp = await box(page, '[data-testid=sign-up]');
    const stats = await box(page, '.stats');
    expect(overlaps(signUp, stats)).toBe(false);
    expect(signUp.x + signUp.width).toBeLessThanOrEqual(1366);
    await context.close();
  }, 60_000);

  /** The top bar's parts that must never cover each other: logo, title, nav entries, the stats box, the buttons. */
  const topBarParts = (page: Page) =>
    page.evaluate(() => {
      const bar = document.querySelector('header.app-bar');
      if (!bar) throw new Error('no top bar');
      const parts = bar.querySelectorAll(
        '.brand svg, .brand-title, .nav > a, .nav > button, .stats, .actions > button, .actions > a',
      );
      return [...parts]
        .map((e) => {
          const r = e.getBoundingClientRect();
          const name = e.getAttribute('data-testid') ?? e.getAttribute('class') ?? e.tagName;
          return { name, x: r.x, y: r.y, width: r.width, height: r.height };
        })
        .filter((b) => b.width > 0 && b.height > 0);
    });

  for (const signedIn of [false, true])
    it(`tablet to wide desktop, ${signedIn ? 'signed in' : 'signed out'}: nothing in the table's top bar covers anything else or leaves the screen`, async () => {
      const context = await browser.newContext(DESKTOP);
      if (signedIn) {
        const p = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, {
          name: 'Wwwwwwwwwwwwwwwwwwww', // the widest name there is: 20 of the widest letter
        });
        await context.addInitScript((t) => localStorage.setItem('klondike.token', t), p.token);
      }
      const page = await context.newPage();
      await page.goto(server.url);
      await page.getByTestId('pile-t7').waitFor();
      // Every width where the bar changes its layout (tablets get the stats on a second row up to 1080 px,
      // labels come and go at 1100, 1320 and 1800 px), and the common screens between them.
      for (const width of [
        641, 700, 720, 721, 768, 834, 900, 1024, 1080, 1081, 1100, 1180, 1280, 1320, 1321, 1366, 1440, 1600,
        1700, 1701, 1800, 1801, 1920,
      ]) {
        await page.setViewportSize({ width, height: 800 });
        await page.evaluate(() => new Promise(requestAnimationFrame));
        const parts = await topBarParts(page);
        expect(parts.length, `${width} px: parts found`).toBeGreaterThanOrEqual(9);
        for (const [i, a] of parts.entries()) {
          expect(a.x, `${width} px: ${a.name} starts on screen`).toBeGreaterThanOrEqual(-0.5);
          expect(a.x + a.width, `${width} px: ${a.name} ends on screen`).toBeLessThanOrEqual(width + 0.5);
          for (const b of parts.slice(i + 1))
            expect(overlaps(a, b), `${width} px: ${a.name} covers ${b.name}`).toBe(false);
        }
      }
      await context.close();
    }, 90_000);

  it("/daily from a phone to a wide desktop: today's two cards, and all they hold, stay on screen", async () => {
    const { context, page } = await open('/daily');
    await page.getByTestId('play-ranked-classic-draw3').waitFor();
    // Every width where the cards change their layout (side by side from 926 px), and the common screens.
    for (const width of [390, 640, 760, 761, 834, 900, 925, 926, 1024, 1280, 1366, 1440, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.evaluate(() => new Promise(requestAnimationFrame));
      const cards = await page.evaluate(() =>
        [...document.querySelectorAll('article.challenge')].map((card) => {
          const r = card.getBoundingClientRect();
          const past = [...card.querySelectorAll('*')]
            .filter((e) => {
              const b = e.getBoundingClientRect();
              return b.width > 0 && (b.right > r.right + 0.5 || b.left < r.left - 0.5);
            })
            .map((e) => e.getAttribute('data-testid') ?? e.getAttribute('class') ?? e.tagName);
          return { name: card.getAttribute('data-testid'), left: r.left, right: r.right, top: r.top, past };
        }),
      );
      expect(cards.length, `${width} px: cards found`).toBe(2);
      // A desktop sees both at once, side by side; narrower screens stack them.
      expect(cards[0]!.top === cards[1]!.top, `${width} px: side by side`).toBe(width >= 926);
      for (const c of cards) {
        expect(c.left, `${width} px: ${c.name} starts on screen`).toBeGreaterThanOrEqual(-0.5);
        expect(c.right, `${width} px: ${c.name} ends on screen`).toBeLessThanOrEqual(width + 0.5);
        expect(c.past, `${width} px: what ${c.name} holds past its edges`).toEqual([]);
      }
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${width} px: no sideways scroll`,
      ).toBeLessThanOrEqual(width);
    }
    await context.close();
  }, 60_000);

  it('phone 390×844: a name of 20 wide letters (M, then W) wraps on the player and statistics pages, within the screen', async () => {
    const p = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, {
      name: 'M' + 'W'.repeat(19),
    });
    for (const [path, title] of [
      [`/players/${p.id}`, 'player-title'],
      [`/players/${p.id}/stats`, 'stats-title'],
    ] as const) {
      const { context, page } = await open(path, PHONE);
      await page.getByTestId(title).waitFor();
      const t = await box(page, `[data-testid=${title}]`);
      expect(t.x + t.width, `${path}: the name ends on screen`).toBeLessThanOrEqual(390);
      await context.close();
    }
  }, 60_000);

  for (const path of ['/', '/daily', '/race', '/leaderboard'])
    it(`phone 390×844 ${path}: the whole nav row fits, "Become a player" included`, async () => {
      const { context, page } = await open(path, PHONE);
      await page.getByTestId('sign-up').waitFor();
      const signUp = await box(page, '[data-testid=sign-up]');
      expect(signUp.x).toBeGreaterThanOrEqual(0);
      expect(signUp.x + signUp.width).toBeLessThanOrEqual(390);
      for (const id of ['nav-play', 'nav-daily', 'nav-race', 'nav-leaderboard']) {
        const b = await box(page, `[data-testid=${id}]`);
        expect(b.x + b.width, id).toBeLessThanOrEqual(390);
        expect(overlaps(b, signUp), id).toBe(false);
      }
      await context.close();
    }, 60_000);

  for (const [width, height, minCard] of SIDEWAYS)
    it(`phone held sideways, ${width}×${height}: slim stats and an icon bar leave the cards room, nothing covers anything`, async () => {
      const { context, page } = await open('/?deal=4242&preset=classic-draw1', held(width, height));
      await page.getByTestId('pile-t7').waitFor();
      // The stock's top card back: the card size the table chose for the room it was left. With the bar's
      // labels and the stats' two lines it was 52 px at 640×360 and 48 px at 568×320 (now 67 and 56).
      const card = await box(page, '[data-testid=pile-stock] [data-testid=card-back]');
      expect(card.height).toBeGreaterThanOrEqual(minCard);
      const stats = await box(page, '.stats');
      expect(stats.height, 'the stats are one row').toBeLessThanOrEqual(32);
      expect(await page.getByTestId('phone-rules').isVisible()).toBe(false);
      const buttons = await page.locator('.actions > button, .actions > a').all();
      expect(buttons.length).toBeGreaterThanOrEqual(5);
      const bar: Box[] = [];
      for (const b of buttons) {
        const label = b.locator('span:not(.spinner)');
        expect(await label.isVisible(), 'icons only').toBe(false);
        expect(await b.getAttribute('title'), 'the button still has a name').toBeTruthy();
        bar.push(await box(page, `[data-testid=${await b.getAttribute('data-testid')}]`));
      }
      const table = await box(page, '[data-testid=pile-t7]');
      for (const b of bar) {
        expect(b.y + b.height, 'the bar is on screen').toBeLessThanOrEqual(height + 0.5);
        expect(overlaps(b, stats)).toBe(false);
        expect(overlaps(b, card)).toBe(false);
        expect(overlaps(b, table)).toBe(false);
      }
      expect(overlaps(stats, card)).toBe(false);
      await context.close();
    }, 60_000);

  for (const [width, height, minCard] of SIDEWAYS)
    it(`phone held sideways, ${width}×${height}, a replay: title and stats on one row, the controls on another`, async () => {
      const game = await apiCall(server.url, 'POST', '/api/games', GameResponseSchema, {
        preset: 'classic-draw1',
        dealNumber: 4242,
      });
      await apiCall(server.url, 'POST', `/api/games/${game.id}/resign`, StateResponseSchema, {});
      const { context, page } = await open(`/replay/${game.id}`, held(width, height));
      await page.getByTestId('replay-page').waitFor();
      await page.getByTestId('pile-t7').waitFor();
      // Before, the title, the stats (two lines each) and the controls (scrubber above the buttons) left
      // cards 48 px tall at both sizes.
      const card = await box(page, '[data-testid=pile-stock] [data-testid=card-back]');
      expect(card.height).toBeGreaterThanOrEqual(minCard);
      const title = await box(page, '.rtitle h1');
      const stats = await box(page, '.rstats');
      expect(stats.height, 'the stats are one row').toBeLessThanOrEqual(32);
      expect(
        Math.abs(stats.y + stats.height / 2 - (title.y + title.height / 2)),
        'beside the title',
      ).toBeLessThan(8);
      expect(stats.x + stats.width, 'the stats end on screen').toBeLessThanOrEqual(width + 0.5);
      expect(overlaps(title, stats)).toBe(false);
      const play = await box(page, '[data-testid=replay-play]');
      const scrubber = await box(page, '[data-testid=replay-scrubber]');
      expect(Math.abs(play.y + play.height / 2 - (scrubber.y + scrubber.height / 2)), 'one row').toBeLessThan(
        12,
      );
      expect(play.y + play.height, 'the controls are on screen').toBeLessThanOrEqual(height + 0.5);
      expect(overlaps(play, card)).toBe(false);
      await context.close();
    }, 60_000);

  it('phone: the table says which rules and which deal it is', async () => {
    const { context, page } = await open('/?deal=4242&preset=classic-draw3', PHONE);
    await page.getByTestId('pile-t7').waitFor();
    const caption = page.getByTestId('phone-rules');
    expect(await caption.isVisible()).toBe(true);
    expect(await caption.textContent()).toMatch(/Draw 3.*Deal #4242/s);
    await context.close();
  }, 60_000);

  it('a daily that does not exist: a sentence and a way on, no "Live", no endless loading', async () => {
    const { context, page } = await open('/daily/2099-01-01/classic-draw1/leaderboard');
    const error = page.getByTestId('load-error');
    await error.waitFor({ timeout: 20_000 });
    expect(await error.textContent()).toContain('There is no daily challenge of these rules on 2099-01-01.');
    expect(await page.getByTestId('live').count()).toBe(0);
    expect(await page.locator('text=Loading…').count()).toBe(0);
    expect(await page.locator('text=/no daily for/').count()).toBe(0); // the server's own wording
    await context.close();
  }, 60_000);

  it('an unknown player or replay: said in words, not the server message', async () => {
    const { context, page } = await open('/players/nope');
    await page.getByTestId('load-error').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('load-error').textContent()).toContain('Player not found');
    expect(await page.locator('text=/no player nope/').count()).toBe(0);
    await page.goto(`${server.url}/replay/nope`);
    await page.getByTestId('replay-error').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('replay-error').textContent()).toContain('No replay here');
    await context.close();
  }, 60_000);

  it('an unknown race: "No such race", and no toast about a missing game', async () => {
    const { context, page } = await open('/race/ABCDEFGHJK');
    await page.getByTestId('race-missing').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1000); // a late error frame would toast now
    expect(await page.locator('text=That game does not exist').count()).toBe(0);
    await context.close();
  }, 60_000);

  it('an unknown address is a "not found" page at the same address, and deals nothing', async () => {
    const { context, page } = await open('/no/such/page');
    await page.getByTestId('not-found').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/no/such/page');
    expect(await page.getByTestId('table').count()).toBe(0);
    await context.close();
  }, 60_000);

  it('closing the tab loses nothing: `/` resumes the last unfinished game, as it was left', async () => {
    const context = await browser.newContext(DESKTOP);
    const first = await context.newPage();
    await first.goto(server.url);
    await first.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    const id = new URL(first.url()).pathname.split('/').pop();
    await first.getByTestId('pile-t7').waitFor();
    await first.keyboard.press('d'); // a draw
    await first.waitForFunction(
      () => document.querySelector('[data-testid=table]')?.getAttribute('data-version') === '1',
    );
    await first.close();

    const again = await context.newPage();
    await again.goto(server.url);
    await again.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    expect(new URL(again.url()).pathname).toBe(`/game/${id}`);
    await again.waitForFunction(
      () => document.querySelector('[data-testid=table]')?.getAttribute('data-version') === '1',
    );
    await context.close();
  }, 60_000);

  it('signed in, `/` on a second device resumes the same game with its moves, and takes a move made there', async () => {
    const alice = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, {
      name: 'Two Devices',
    });
    const atVersion = (page: Page, v: number) =>
      page.waitForFunction(
        (want) => document.querySelector('[data-testid=table]')?.getAttribute('data-version') === want,
        String(v),
      );
    const waste = (page: Page) =>
      page
        .locator('[data-testid=pile-waste] [data-testid^=card-]')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-testid')));

    // Device A (signed in): deals on `/` and draws three times.
    const a = await browser.newContext(DESKTOP);
    await a.addInitScript((t) => localStorage.setItem('klondike.token', t), alice.token);
    const pageA = await a.newPage();
    await pageA.goto(server.url);
    await pageA.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    const id = new URL(pageA.url()).pathname.split('/').pop();
    await pageA.getByTestId('pile-t7').waitFor();
    for (let v = 1; v <= 3; v++) {
      await pageA.keyboard.press('d');
      await atVersion(pageA, v);
    }
    const wasteA = await waste(pageA);
    expect(wasteA.length).toBeGreaterThan(0);

    // Device B (a browser of its own) opens the sign-in link A makes, on `/`: the same game, as A left it.
    const link = await apiCall(
      server.url,
      'POST',
      '/api/me/transfer',
      TransferSchema,
      undefined,
      alice.token,
    );
    const b = await browser.newContext(PHONE);
    const pageB = await b.newPage();
    await pageB.goto(`${server.url}${link.url}`);
    await pageB.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    expect(new URL(pageB.url()).pathname).toBe(`/game/${id}`);
    await atVersion(pageB, 3);
    expect(await waste(pageB)).toEqual(wasteA);
    const tokenB = await pageB.evaluate(() => localStorage.getItem('klondike.token'));
    expect(tokenB).toBeTruthy();
    expect(tokenB).not.toBe(alice.token); // a token of its own, not A's

    // A move on B is taken by the server (B's token is Alice's), and A sees it.
    await pageB.getByTestId('pile-stock').click();
    await atVersion(pageB, 4);
    const stored = await apiCall(server.url, 'GET', `/api/games/${id}`, GameResponseSchema);
    expect(stored.version).toBe(4);
    await atVersion(pageA, 4);
    await a.close();
    await b.close();
  }, 90_000);

  it("a closed daily's solution plays on the table, move by move in words, to the win", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { context, page } = await open(`/daily/${yesterday}/classic-draw1/solution`);
    await page.getByTestId('replay-page').waitFor({ timeout: 60_000 });
    await page.locator('h1', { hasText: 'The solver’s winning line' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('pile-t7').waitFor({ timeout: 60_000 });
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      () => (document.querySelector('.caption .what')?.textContent ?? '').length > 0,
    );
    const caption = (await page.locator('.caption .what').textContent()) ?? '';
    expect(caption).toMatch(/^(Moved|Drew|Turned|Last pass)/); // words, not notation
    expect(caption).not.toMatch(/\bt\d|→|×/);
    await page.keyboard.press('End');
    await page.locator('.st.won').waitFor({ timeout: 20_000 });
    await context.close();
  }, 120_000);

  it('a win plays the classic cascade from the foundations, and a click skips it', async () => {
    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { id?: string; version: number; view: PlayerView };
    const created = await post('/api/games', {
      preset: 'classic-draw1',
      deal: dealText(AUTO_PILES, AUTO_STOCK),
    });
    let { version, view } = created;
    for (let i = 0; i < 200 && !view.canAutoComplete; i++) {
      const move = nextFoundationMove(view) ?? { type: 'draw' as const };
      ({ version, view } = await post(`/api/games/${created.id}/moves`, { move, version }));
    }
    const { context, page } = await open(`/game/${created.id}`);
    await page.getByTestId('auto-complete').click();
    await page.getByTestId('win-screen').waitFor({ timeout: 30_000 });
    const cascade = page.getByTestId('win-cascade');
    expect(await cascade.getAttribute('data-state')).toBe('running');
    await page.waitForTimeout(600);
    // Cards have been drawn: the canvas is no longer blank.
    const painted = await cascade.evaluate((c) => {
      const canvas = c as HTMLCanvasElement;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
      for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) return true;
      return false;
    });
    expect(painted).toBe(true);
    await page.mouse.click(10, 700); // on the cascade, away from the win panel
    expect(await cascade.getAttribute('data-state')).toBe('skipped');
    expect(await page.getByTestId('win-replay').isVisible()).toBe(true);
    await context.close();
  }, 90_000);

  it('offline: the table says the connection is lost, and says when it is back', async () => {
    const { context, page } = await open('/');
    await page.getByTestId('pile-t7').waitFor();
    expect(await page.getByTestId('offline-banner').count()).toBe(0);
    await server.stop(true);
    await page.getByTestId('offline-banner').waitFor({ timeout: 20_000 });
    server = await startServer({ port: server.port, dataDir: server.dataDir }, { DAILY_ARCHIVE_DAYS: '1' });
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 30_000 });
    await context.close();
  }, 90_000);
});
