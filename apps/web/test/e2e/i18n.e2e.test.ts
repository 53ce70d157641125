/**
 * Browser test of issue 12's languages (item 7), on a desktop (1366×768) and a phone (390×844, touch): a
 * browser whose language is French gets the table and the settings page in French (and `<html lang="fr">`);
 * choosing German on the settings page changes the text at once, and the choice stays after a reload and on
 * the table; a browser whose language the app does not have gets English; the pages whose messages load with
 * them (src/i18n message sections: fair play, help) show their language's text, never a raw key, on a first
 * load and after the language is changed with the section already loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
  launchChromium,
  SCREEN_SIZES,
  type ScreenSize,
} from './harness';

const SKIP = skipReason();

describe.skipIf(SKIP !== null)(`browser: languages${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
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

  async function withPage(
    size: ScreenSize,
    locale: string,
    body: (page: Page) => Promise<void>,
  ): Promise<void> {
    const context = await browser.newContext({
      viewport: size.viewport,
      isMobile: size.mobile,
      hasTouch: size.mobile,
      locale,
    });
    try {
      await body(await context.newPage());
    } finally {
      await context.close();
    }
  }

  const table = async (page: Page): Promise<void> => {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=pile-t7] [data-testid=card-back]', { timeout: 20_000 });
  };
  const lang = (page: Page): Promise<string> => page.evaluate(() => document.documentElement.lang);
  const heading = (page: Page): Promise<string | null> => page.locator('h1').first().textContent();
  const settings = async (page: Page): Promise<void> => {
    await page.goto(`${server.url}/settings`);
    await page.getByTestId('settings-page').waitFor({ timeout: 20_000 });
  };

  /** The page's text, with any message key shown raw (`fairPlay.page.title`) instead of its text. */
  const rawKeys = async (page: Page): Promise<string[]> =>
    ((await page.locator('#app').textContent()) ?? '').match(/\b(?:fairPlay|moderation|help)\.[\w.-]+/g) ??
    [];

  it('desktop: the fair-play and help pages load their messages in French, then in German when chosen', async () => {
    await withPage(SCREEN_SIZES[0], 'fr-FR', async (page) => {
      await page.goto(`${server.url}/fair-play`);
      await page.getByTestId('fair-play-page').waitFor({ timeout: 20_000 });
      expect(await heading(page)).toBe('Fair-play');
      expect(await rawKeys(page)).toEqual([]);
      await page.getByTestId('fair-play-page').getByRole('link', { name: 'Comment jouer' }).click();
      await page.getByTestId('help-page').waitFor({ timeout: 20_000 });
      expect(await heading(page)).toBe('Comment jouer');
      expect(await page.getByTestId('fair-play-link').textContent()).toContain('Les règles du fair-play');
      expect(await rawKeys(page)).toEqual([]);
      // Both sections are loaded in French; German is chosen in the app (no reload) and the help page is back.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-page').waitFor({ timeout: 20_000 });
      await page.getByTestId('language').selectOption('de');
      await expect.poll(() => heading(page), { timeout: 10_000 }).toBe('Einstellungen');
      await page.goBack();
      await page.getByTestId('help-page').waitFor({ timeout: 20_000 });
      expect(await heading(page)).toBe('So wird gespielt');
      expect(await page.getByTestId('fair-play-link').textContent()).toContain('Die Fair-Play-Regeln');
      expect(await rawKeys(page)).toEqual([]);
    });
  }, 90_000);

  for (const size of SCREEN_SIZES) {
    it(`${size.name}: a French browser gets the table and the settings page in French`, async () => {
      await withPage(size, 'fr-FR', async (page) => {
        await table(page);
        expect(await lang(page)).toBe('fr');
        expect(await page.getByTestId('new-game').getAttribute('title')).toBe('Nouvelle partie (N)');
        expect(await page.getByTestId('new-game').textContent()).toContain('Nouvelle partie');
        expect(await page.getByTestId('pile-stock').getAttribute('aria-label')).toMatch(/^Pioche, 24 cartes/);
        expect(await page.getByTestId('status').textContent()).toBe('En cours');
        expect(await page.getByTestId('pile-t1').getAttribute('aria-label')).toMatch(/^Pile 1 : 0 cachées/);
        await settings(page);
        expect(await heading(page)).toBe('Réglages');
        expect(await page.getByTestId('settings-page').textContent()).toContain('Dos des cartes');
        expect(await page.getByTestId('language').inputValue()).toBe('auto');
        expect(await page.getByTestId('language').locator('option').first().textContent()).toBe(
          'Comme le navigateur (Français)',
        );
      });
    }, 90_000);

    it(`${size.name}: choosing a language in settings changes the text at once and stays after a reload`, async () => {
      await withPage(size, 'fr-FR', async (page) => {
        await settings(page);
        expect(await heading(page)).toBe('Réglages');
        await page.getByTestId('language').selectOption('de');
        await expect.poll(() => heading(page), { timeout: 10_000 }).toBe('Einstellungen');
        expect(await lang(page)).toBe('de');
        expect(await page.getByTestId('settings-page').textContent()).toContain('Kartenrücken');
        await page.reload();
        await page.getByTestId('settings-page').waitFor({ timeout: 20_000 });
        expect(await heading(page)).toBe('Einstellungen');
        expect(await page.getByTestId('language').inputValue()).toBe('de');
        await table(page);
        expect(await lang(page)).toBe('de');
        expect(await page.getByTestId('new-game').getAttribute('title')).toBe('Neues Spiel (N)');
        // Back to the browser's language (French) at once.
        await settings(page);
        await page.getByTestId('language').selectOption('auto');
        await expect.poll(() => heading(page), { timeout: 10_000 }).toBe('Réglages');
        expect(await lang(page)).toBe('fr');
      });
    }, 90_000);

    it(`${size.name}: a browser in a language the app does not have gets English`, async () => {
      await withPage(size, 'pt-BR', async (page) => {
        await table(page);
        expect(await lang(page)).toBe('en');
        expect(await page.getByTestId('new-game').getAttribute('title')).toBe('New game (N)');
        expect(await page.getByTestId('status').textContent()).toBe('Playing');
        await settings(page);
        expect(await heading(page)).toBe('Settings');
        expect(await page.getByTestId('language').locator('option').first().textContent()).toBe(
          'As the browser (English)',
        );
      });
    }, 90_000);
  }
});
