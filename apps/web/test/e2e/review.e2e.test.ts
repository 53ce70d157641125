/**
 * The review page in a real browser (docs/review.md): a casual game of deal 4 (one pass through the stock),
 * played by always taking the last legal move, loses a deal that was winnable; its review page shows the
 * accuracy and the move where the deal died, marks that move on the table when asked, and plays the winning
 * line from the last winnable position. The replay page links to the review.
 */
import {
  GameResponseSchema,
  GameReviewSchema,
  LegalMovesResponseSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  ensureBuilt,
  skipReason,
  startServer,
  type Browser,
  type RunningServer,
  launchChromium,
} from './harness';

const SKIP = skipReason();

describe.skipIf(SKIP !== null)(`browser: game review${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let gameId = '';

  beforeAll(async () => {
    ensureBuilt();
    // Background solver work shares the interactive thread: a nice-19 thread can starve on a loaded box.
    // A generous verdict time, so that a loaded machine still decides every verdict of this short game.
    server = await startServer(undefined, {
      DAILY_ARCHIVE_DAYS: '0',
      SOLVER_BACKGROUND_THREADS: '0',
      REVIEW_VERDICT_MS: '5000',
    });
    browser = await launchChromium();
    const game = await apiCall(server.url, 'POST', '/api/games', GameResponseSchema, {
      dealNumber: 4,
      preset: 'vegas-draw1',
    });
    gameId = game.id;
    let version = 0;
    for (let i = 0; i < 25; i++) {
      const legal = await apiCall(
        server.url,
        'GET',
        `/api/games/${gameId}/legal-moves`,
        LegalMovesResponseSchema,
      );
      const move = legal.moves[legal.moves.length - 1];
      if (move === undefined) break;
      const r = await apiCall(server.url, 'POST', `/api/games/${gameId}/moves`, StateResponseSchema, {
        move,
        version,
      });
      version = r.version;
    }
    await fetch(`${server.url}/api/games/${gameId}/resign`, { method: 'POST' });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('the replay links to the review; the fatal move is marked; the winning line plays out', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      await page.goto(`${server.url}/replay/${gameId}`);
      await page.click('[data-testid=replay-review-link]');
      await page.waitForURL(`**/review/${gameId}`);
      await page.waitForSelector('[data-testid=review-verdict]', { timeout: 200_000 });
      const review = await apiCall(server.url, 'GET', `/api/games/${gameId}/review`, GameReviewSchema);
      expect(review.winnableAtStart).toBe(true);
      const point = review.pointOfNoReturn;
      expect(point).not.toBeNull();
      expect(await page.textContent('[data-testid=review-verdict]')).toContain(`move ${point?.ply ?? -1}`);
      expect(await page.textContent('[data-testid=review-accuracy]')).toBe(`${review.accuracy ?? -1}%`);

      // The fatal move: the scrubber jumps to it and the table says so.
      expect(await page.$('[data-testid=review-fatal-mark]')).toBeNull();
      await page.click('[data-testid=review-fatal]');
      await page.waitForSelector('[data-testid=review-fatal-mark]');
      const position = await page.textContent('[data-testid=replay-position]');
      expect(position).toMatch(new RegExp(`^Step ${point?.ply ?? -1} /`));

      // The winning line from the last winnable position plays to the end: every card home.
      await page.click('[data-testid=review-continuation]');
      await page.selectOption('select', '8');
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid=replay-play]')?.getAttribute('data-state') === 'paused' &&
          /won|gagn|gewonn|ganad/i.test(document.querySelector('.rstats .st')?.textContent ?? ''),
        undefined,
        { timeout: 120_000 },
      );
      await page.click('[data-testid=review-played]');
      await page.waitForSelector('[data-testid=review-fatal]');
    } finally {
      await page.close();
    }
  }, 400_000);
});
