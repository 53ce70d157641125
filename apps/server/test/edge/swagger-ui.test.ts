/**
 * Swagger UI at /docs in a real browser (Debian's chromium through playwright-core): the bearer scheme
 * gives it an Authorize button, and a request made through it with a player token succeeds (GET /api/me,
 * which needs the token).
 */
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase, testApp } from '../support/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

// Without the browser there is nothing to drive (apt-get install -y chromium).
describe.skipIf(!existsSync(CHROMIUM))('Swagger UI at /docs (browser)', () => {
  let app: FastifyInstance;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    app = await testApp(pgliteDatabase());
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows Authorize; GET /api/me tried out with the token answers 200 with the player', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/players',
      payload: { name: 'Docs Reader' },
    });
    const { token } = created.json<{ token: string }>();
    const page = await browser.newPage();
    try {
      const sent: (string | undefined)[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/me') sent.push(r.headers().authorization);
      });
      await page.goto(`${base}/docs`);

      // The Authorize button exists only because the document declares a security scheme.
      const authorize = page.locator('.scheme-container button.authorize');
      await authorize.waitFor({ state: 'visible', timeout: 15_000 });
      await authorize.click();
      const dialog = page.locator('.modal-ux');
      await expect(dialog.getByText('bearerAuth').first().isVisible()).resolves.toBe(true);
      await dialog.locator('input').first().fill(token);
      await dialog.locator('button.authorize').click();
      await dialog.locator('button.btn-done').click();

      // The operation, by its tag and operationId, tried out.
      const op = page.locator('#operations-players-getMe');
      await op.locator('.opblock-summary').first().click();
      await op.locator('button.try-out__btn').click();
      await op.locator('button.execute').click();
      const status = op.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ state: 'visible', timeout: 15_000 });
      expect((await status.innerText()).trim()).toBe('200');
      const body = op.locator('.live-responses-table .response .response-col_description').first();
      expect(await body.innerText()).toContain('"name": "Docs Reader"');
      expect(sent).toEqual([`Bearer ${token}`]);
    } finally {
      await page.close();
    }
  });
});
