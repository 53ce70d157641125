/**
 * Browser test of a quick race (docs/ratings.md "Quick race"): two players, each in their own browser context,
 * press Quick race on /race. The first sees the wait screen with the time waited counting up and can cancel;
 * pressing again, both land in the same rated room, its countdown begun. Both resign (through the API), and
 * the results show each racer's rating change; the player page then shows the rating and its chart, and the
 * leaderboard's Ratings tab lists both. axe-core finds no serious violation on the wait screen, the player
 * page's ratings and the Ratings tab (a11y.e2e.test.ts checks the other pages).
 */
import { RaceSchema, type Race } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  ensureBuilt,
  launchChromium,
  seriousViolations,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
} from './harness';

const SKIP = skipReason();
describe.skipIf(SKIP !== null)(`browser: a quick race${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let ann: Page;
  let ben: Page;
  let code = '';

  async function signUp(page: Page, name: string): Promise<void> {
    const dialog = page.getByTestId('signup-dialog');
    await dialog.waitFor();
    await page.getByTestId('player-name').fill(name);
    await page.getByTestId('player-submit').click();
    await dialog.waitFor({ state: 'detached' });
  }
  async function token(page: Page): Promise<string> {
    const t = await page.evaluate(() => localStorage.getItem('klondike.token'));
    expect(t).toBeTruthy();
    return t as string;
  }
  async function room(page: Page): Promise<Race> {
    return apiCall(server.url, 'GET', `/api/races/${code}`, RaceSchema, undefined, await token(page));
  }

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, {
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      PLAYER_CREATE_RATE_MAX: '0',
      RACE_RATE_MAX: '0',
      RACE_COUNTDOWN_MS: '2000',
    });
    browser = await launchChromium();
    ann = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    ben = await (
      await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    ).newPage();
    for (const p of [ann, ben]) p.on('pageerror', (e) => console.error('page error:', e.message));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('Ann presses Quick race (signing up first): the wait screen counts the time waited; cancel leaves', async () => {
    await ann.goto(`${server.url}/race`);
    await ann.getByTestId('quick-start').click();
    await signUp(ann, 'Quick Ann');
    await ann.getByTestId('quick-waiting').waitFor();
    const first = await ann.getByTestId('quick-waited').textContent();
    await ann.waitForFunction(
      (before) => document.querySelector('[data-testid=quick-waited]')?.textContent !== before,
      first,
      { timeout: 5000 },
    );
    expect(await seriousViolations(ann)).toEqual([]);
    await ann.getByTestId('quick-cancel').click();
    await ann.getByTestId('quick-start').waitFor();
    const status = await apiCall(
      server.url,
      'GET',
      '/api/pairing',
      { parse: (v: unknown) => v as { status: string } },
      undefined,
      await token(ann),
    );
    expect(status.status).toBe('idle');
  }, 60_000);

  it('Ann and Ben press Quick race and land in the same rated room, its countdown begun', async () => {
    await ann.getByTestId('quick-start').click();
    await ann.getByTestId('quick-waiting').waitFor();
    await ben.goto(`${server.url}/race`);
    await ben.getByTestId('quick-start').click();
    await signUp(ben, 'Quick Ben');
    await Promise.all([ann.waitForURL(/\/race\/[A-Z0-9]{10}$/), ben.waitForURL(/\/race\/[A-Z0-9]{10}$/)]);
    expect(ann.url()).toBe(ben.url());
    code = ann.url().split('/').pop() as string;
    const r = await room(ann);
    expect(r).toMatchObject({ rated: true, maxPlayers: 2 });
    expect(r.racers.map((x) => x.name).sort()).toEqual(['Quick Ann', 'Quick Ben']);
    await ann.getByTestId('race-table').waitFor({ timeout: 20_000 });
    await ben.getByTestId('race-table').waitFor({ timeout: 20_000 });
  }, 60_000);

  it('after the race the results show rating changes; the player page shows the rating chart', async () => {
    for (const p of [ann, ben]) {
      const r = await room(p);
      await apiCall(
        server.url,
        'POST',
        `/api/games/${r.yourGameId}/resign`,
        { parse: (v) => v },
        {},
        await token(p),
      );
    }
    await ann.getByTestId('race-results').waitFor({ timeout: 20_000 });
    const annRating = ann.getByTestId('rating-Quick Ann');
    await annRating.waitFor({ timeout: 10_000 });
    expect(await annRating.textContent()).toMatch(/\d{3,4}\s*[+−±]\d+/);

    const me = (await room(ann)).you as string;
    await ann.goto(`${server.url}/players/${me}`);
    await ann.getByTestId('rating-chart').first().waitFor({ timeout: 20_000 });
    expect(await seriousViolations(ann)).toEqual([]);

    await ann.goto(`${server.url}/leaderboard`);
    await ann.getByTestId('tab-ratings').click();
    await ann.getByTestId('rating-pool').selectOption('race-classic-draw1');
    await ann.getByTestId('rating-provisional').check();
    await ann.getByTestId('rating-table').waitFor({ timeout: 10_000 });
    const rows = await ann.getByTestId('rating-table').locator('tbody tr').allTextContents();
    expect(rows.join(' ')).toContain('Quick Ann');
    expect(rows.join(' ')).toContain('Quick Ben');
    expect(await seriousViolations(ann)).toEqual([]);
  }, 90_000);
});
