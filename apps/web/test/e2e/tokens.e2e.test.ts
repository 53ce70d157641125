/**
 * Browser test of issue 59's tokens page: a signed-in player opens /settings/tokens from the settings page,
 * makes a token with chosen scopes, sees it once, and it works against the API with those scopes only;
 * revoking it in the list makes the API refuse it (401).
 */
import { PlayerCreatedSchema } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  launchChromium,
  skipReason,
  startServer,
  type Browser,
  type RunningServer,
} from './harness';
import { apiCall } from './harness';

const SKIP = skipReason();

describe.skipIf(SKIP !== null)(`browser: personal access tokens${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, { DAILY_ARCHIVE_DAYS: '0' });
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('make a token with `read` only, see it once, use it, revoke it', async () => {
    const p = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, { name: 'Token Maker' });
    const context = await browser.newContext();
    await context.addInitScript((t) => localStorage.setItem('klondike.token', t), p.token);
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/settings`);
      await page.getByTestId('tokens-link').click();
      await page.getByTestId('tokens-page').waitFor();
      await page.getByTestId('token-name').fill('my script');
      await page.getByTestId('token-create').click();
      const shown = page.getByTestId('token-value');
      await shown.waitFor();
      const token = (await shown.textContent())?.trim() ?? '';
      expect(token.startsWith('kpat_')).toBe(true);
      await page.getByTestId('token-list').getByText('my script').waitFor();

      const me = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      const game = await fetch(`${server.url}/api/games`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(game.status).toBe(403);

      await page.locator('[data-testid^="revoke-"]').first().click();
      await page.getByTestId('token-list').waitFor({ state: 'detached' });
      const after = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(after.status).toBe(401);
    } finally {
      await context.close();
    }
  }, 120_000);
});
