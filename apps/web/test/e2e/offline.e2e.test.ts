/**
 * Browser test of offline casual play (docs/accessibility.md "Offline"): after one visit (the service worker
 * installed and controlling), the browser context goes offline; /offline still loads, deals a numbered deal
 * in the browser (@klondike/rules), and the player wins it from the keyboard (the solver's line, fetched
 * before going offline, typed into the command line); the game is kept in localStorage as unverified and
 * won. Still offline, Upload says so. With the network back, Upload asks the player to sign up, then sends
 * it (POST /api/games/import): the server replays it and holds it as the player's imported game (its replay
 * public, its moves the solver's line), the list links to its replay, and the player's statistics still count
 * no game.
 */
import {
  GameResponseSchema,
  MeSchema,
  PlayerStatisticsSchema,
  ReplaySchema,
  SolveResponseSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  ensureBuilt,
  launchChromium,
  skipReason,
  startServer,
  type Browser,
  type BrowserContext,
  type Page,
  type RunningServer,
} from './harness';

const SKIP = skipReason();

function commandOf(move: Move): string {
  if (move.type === 'draw') return 'd';
  if (move.type === 'recycle') return 'r';
  if (move.type === 'last-pass') return 'l';
  return `${move.from} ${move.to}${move.count > 1 ? ` ${move.count}` : ''}`;
}

/** The live region's text once it matches `re`. */
async function hears(page: Page, re: RegExp): Promise<void> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid=announcer]')?.textContent ?? ''),
    re.source,
    { timeout: 15_000 },
  );
}

describe.skipIf(SKIP !== null)(`browser: offline casual play${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let dealNumber = 0;
  let line: Move[] = [];

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, {
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      SOLVE_RATE_MAX: '0',
    });
    for (let n = 1; n <= 40 && line.length === 0; n++) {
      const res = await apiCall(server.url, 'POST', '/api/solve', SolveResponseSchema, {
        preset: 'classic-draw1',
        dealNumber: n,
        timeLimitMs: 4000,
      });
      if (res.verdict === 'won' && res.line) {
        dealNumber = n;
        line = res.line;
      }
    }
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('deals, plays and keeps a casual game with no network; uploads it when asked once online', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    await page.getByTestId('pile-t7').waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.getByTestId('pile-t7').waitFor();

    await context.setOffline(true);
    await page.goto(`${server.url}/offline`);
    await page.getByTestId('offline-page').waitFor({ timeout: 20_000 });
    await page.getByTestId('pile-t7').waitFor();
    // A numbered deal, typed and submitted from the keyboard.
    await page.getByTestId('offline-deal-number').focus();
    await page.keyboard.type(String(dealNumber));
    await page.keyboard.press('Enter');
    await hears(page, new RegExp(`deal ${dealNumber}\\.$`));
    await page.getByTestId('offline-deal-number').evaluate((el) => (el as HTMLInputElement).blur());
    await page.keyboard.press('/');
    await page.getByTestId('command-input').waitFor();
    for (const move of line) {
      const version = Number(await page.getByTestId('table').getAttribute('data-version'));
      await page.keyboard.type(commandOf(move));
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        (v) => Number(document.querySelector<HTMLElement>('[data-testid=table]')?.dataset.version) > v,
        version,
      );
    }
    await page.waitForSelector('[data-testid=table][data-status=won]');
    await hears(page, /^You won!/);
    const kept = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('klondike.offlineGames') ?? '[]') as {
          dealNumber: number;
          status: string;
          verified: boolean;
          actions: unknown[];
        }[],
    );
    expect(kept[0]).toMatchObject({ dealNumber, status: 'won', verified: false });
    expect(kept[0]?.actions).toHaveLength(line.length);
    // Offline, Upload says so and keeps the game.
    await page.getByTestId('offline-upload').first().focus();
    await page.keyboard.press('Enter');
    await hears(page, /You are offline/);
    // The network is back: Upload sends the game; the server replays it and keeps it as imported.
    await context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.getByTestId('offline-upload').first().focus();
    await page.keyboard.press('Enter');
    // Nobody is signed in: the sign-up dialog first, then the upload goes on.
    await page.getByTestId('signup-dialog').waitFor();
    await page.getByTestId('player-name').fill('Offline Olga');
    await page.getByTestId('player-submit').click();
    await hears(page, new RegExp(`Deal ${dealNumber} uploaded`));
    const token = (await page.evaluate(() => localStorage.getItem('klondike.token'))) ?? '';
    const me = await apiCall(server.url, 'GET', '/api/me', MeSchema, undefined, token);
    const link = page.getByTestId('offline-uploaded').first();
    await link.waitFor();
    const stored = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('klondike.offlineGames') ?? '[]') as {
          uploaded?: { gameId: string };
        }[],
    );
    const gameId = stored[0]?.uploaded?.gameId ?? '';
    expect(gameId).not.toBe('');
    expect(await link.getAttribute('href')).toBe(`/replay/${gameId}`);
    const held = await apiCall(
      server.url,
      'GET',
      `/api/games/${gameId}`,
      GameResponseSchema,
      undefined,
      token,
    );
    expect(held).toMatchObject({ kind: 'casual', dealNumber, version: line.length });
    expect(held.view.status).toBe('won');
    const replay = await apiCall(server.url, 'GET', `/api/games/${gameId}/replay`, ReplaySchema);
    expect(replay.steps.map((s) => s.move)).toEqual(line);
    // Imported, unverified: it counts in no statistic.
    const stats = await apiCall(server.url, 'GET', `/api/players/${me.id}/stats`, PlayerStatisticsSchema);
    expect(stats.total.games).toBe(0);
    expect(errors).toEqual([]);
  }, 300_000);
});
