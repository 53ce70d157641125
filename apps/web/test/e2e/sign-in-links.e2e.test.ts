/**
 * Browser test of issue 53 item 6, as the attacker: Ann's browser is signed in; someone sends her
 * `/?token=<Mallory's token>` (nothing changes, the address loses the token) and a sign-in link of Mallory's
 * (the app asks, naming Ann; Cancel keeps Ann and leaves the code unused; only "Switch player" switches).
 * Then Ann signs out everywhere from another device: her open page, whose socket the server closes, drops the
 * revoked token by itself.
 */
import { PlayerCreatedSchema, TransferSchema } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  apiCall,
  ensureBuilt,
  launchChromium,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
} from './harness';

const SKIP = skipReason();

describe.skipIf(SKIP !== null)(`browser: sign-in links${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let ann: z.infer<typeof PlayerCreatedSchema>;
  let mallory: z.infer<typeof PlayerCreatedSchema>;
  const stored = () => page.evaluate(() => localStorage.getItem('klondike.token'));
  const codeOf = async (token: string) =>
    (await apiCall(server.url, 'POST', '/api/me/transfer', TransferSchema, undefined, token)).code;

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, { PLAYER_CREATE_RATE_MAX: '0', DAILY_ARCHIVE_DAYS: '0' });
    ann = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, { name: 'Ann Owner' });
    mallory = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, { name: 'Mallory' });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${server.url}/help`);
    await page.evaluate((t) => localStorage.setItem('klondike.token', t), ann.token);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('a link carrying a token changes nothing: Ann stays Ann, the address loses the token', async () => {
    await page.goto(`${server.url}/help?token=${mallory.token}`);
    await page.waitForFunction(() => !location.search.includes('token='));
    await page.getByTestId('nav-me').filter({ hasText: 'Ann Owner' }).waitFor({ timeout: 10_000 });
    expect(await stored()).toBe(ann.token);
  }, 30_000);

  it('a sign-in link asks first; Cancel keeps Ann and the code unused', async () => {
    const code = await codeOf(mallory.token);
    await page.goto('about:blank'); // a link opened anew (a change of the fragment alone loads nothing)
    await page.goto(`${server.url}/help#signin=${code}`);
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    expect(await dialog.textContent()).toContain('Ann Owner');
    await page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await stored()).toBe(ann.token);
    expect(page.url()).not.toContain('signin=');
    // The code was never spent: it still signs a device in.
    const redeemed = await apiCall(server.url, 'POST', '/api/players/transfer', PlayerCreatedSchema, {
      code,
    });
    expect(redeemed.name).toBe('Mallory');
  }, 30_000);

  it('"Switch player" switches to the link’s player', async () => {
    const code = await codeOf(mallory.token);
    await page.goto('about:blank'); // a link opened anew (a change of the fragment alone loads nothing)
    await page.goto(`${server.url}/help#signin=${code}`);
    await page.getByTestId('confirm-dialog').waitFor({ timeout: 10_000 });
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('nav-me').filter({ hasText: 'Mallory' }).waitFor({ timeout: 10_000 });
    const token = await stored();
    expect(token).not.toBe(ann.token);
    expect(token).not.toBe(mallory.token); // a token of its own
  }, 30_000);

  it('signed out everywhere from another device, the open page drops its revoked token', async () => {
    const token = await stored();
    expect(token).toBeTruthy();
    await apiCall(
      server.url,
      'POST',
      '/api/me/sign-out-everywhere',
      z.object({ devices: z.number() }),
      undefined,
      mallory.token,
    );
    await page.waitForFunction(() => localStorage.getItem('klondike.token') === null, undefined, {
      timeout: 5_000,
    });
  }, 30_000);
});
