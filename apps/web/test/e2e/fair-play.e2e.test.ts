/**
 * Fair play in a real browser against the real server (issue 55 items 6 and 8), one story: a player reports
 * another from the player page (a second report is refused in words); the moderator (named by the server's
 * MODERATORS setting, so the server is restarted with the moderator's id once the players exist) opens /mod,
 * sees the reported player with the report, opens them and marks them with a reason; the marked player sees
 * the banner and their standing on their own page and sends their one appeal; the fair-play page shows this
 * month's figures. A non-moderator opening /mod gets the "moderators only" notice. axe-core checks the
 * moderators' pages as a moderator sees them (the a11y suite checks the public ones).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
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

/** The serious and critical axe-core violations of `page` once it is still: rule id and first targets. */
async function violations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map(
    (v) =>
      `${v.id}: ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  );
}

interface Created {
  id: string;
  token: string;
}

async function createPlayer(base: string, name: string): Promise<Created> {
  const res = await fetch(`${base}/api/players`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (!res.ok) throw new Error(`POST /api/players → ${res.status} ${await res.text()}`);
  return (await res.json()) as Created;
}

describe.skipIf(SKIP !== null)(`browser: fair play${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let reporter: Created;
  let suspect: Created;
  let moderator: Created;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ensureBuilt();
    const first = await startServer(undefined, { DAILY_ARCHIVE_DAYS: '0' });
    reporter = await createPlayer(first.url, 'Reporter');
    suspect = await createPlayer(first.url, 'Suspect');
    moderator = await createPlayer(first.url, 'Moderna');
    await first.stop(true);
    server = await startServer(
      { port: first.port, dataDir: first.dataDir },
      { DAILY_ARCHIVE_DAYS: '0', MODERATORS: moderator.id },
    );
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.stop();
  }, 30_000);

  /** Waits for the dialog `dialog` to close; fails with the refusal it shows instead, if any. */
  async function closedOrRefused(page: Page, dialog: string, error: string): Promise<void> {
    await Promise.race([
      page.getByTestId(dialog).waitFor({ state: 'detached' }),
      page
        .getByTestId(error)
        .waitFor()
        .then(async () => {
          throw new Error(`${dialog}: ${await page.getByTestId(error).textContent()}`);
        }),
    ]);
  }

  /** A desktop page signed in as `who`. */
  async function pageAs(who: Created): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    contexts.push(context);
    await context.addInitScript((t) => localStorage.setItem('klondike.token', t), who.token);
    return context.newPage();
  }

  it('report → queue → mark → the marked player appeals → the figures', async () => {
    // A player reports another from the player page.
    const rep = await pageAs(reporter);
    await rep.goto(`${server.url}/players/${suspect.id}`);
    await rep.getByTestId('report-player').click();
    await rep.getByTestId('report-dialog').waitFor();
    await rep.getByTestId('report-reason-assistance').check();
    await rep.getByTestId('report-text').fill('Every move within a tenth of a second.');
    await rep.getByTestId('report-submit').click();
    await closedOrRefused(rep, 'report-dialog', 'report-error');
    // A second report while the first is open: refused in words, the dialog stays.
    await rep.getByTestId('report-player').click();
    await rep.getByTestId('report-reason-boosting').check();
    await rep.getByTestId('report-submit').click();
    expect(await rep.getByTestId('report-error').textContent()).toMatch(/already reported this player/);
    await rep.getByTestId('report-cancel').click();
    // No Report button on one's own page.
    await rep.goto(`${server.url}/players/${reporter.id}`);
    await rep.getByTestId('player-title').waitFor();
    await rep.getByTestId('nav-me').waitFor();
    expect(await rep.getByTestId('report-player').count()).toBe(0);
    // …and /mod is for moderators only.
    await rep.goto(`${server.url}/mod`);
    await rep.getByTestId('mod-only').waitFor();

    // The moderator sees the reported player in the queue and marks them.
    const mod = await pageAs(moderator);
    await mod.goto(`${server.url}/mod`);
    const entry = mod.getByTestId('queue-Suspect');
    await entry.waitFor({ timeout: 20_000 });
    expect(await entry.getByTestId('queue-report').textContent()).toContain(
      'Every move within a tenth of a second.',
    );
    expect(await violations(mod)).toEqual([]);
    await entry.getByTestId('queue-open').click();
    await mod.waitForURL(`**/mod/players/${suspect.id}`);
    await mod.getByTestId('mod-mark').click();
    await mod.getByTestId('mod-dialog').waitFor();
    expect(await violations(mod)).toEqual([]);
    await mod.getByTestId('mod-reason').fill('Machine-speed moves reported and seen in the signals.');
    await mod.getByTestId('mod-confirm').click();
    await closedOrRefused(mod, 'mod-dialog', 'mod-error');
    expect(await mod.getByTestId('mod-standing').textContent()).toContain('Marked');
    expect(await mod.getByTestId('mod-actions').textContent()).toContain('Machine-speed moves reported');
    // The nav now offers the moderation link to the moderator.
    await mod.getByTestId('nav-mod').waitFor();

    // The marked player sees the banner and their standing, and appeals once.
    const sus = await pageAs(suspect);
    await sus.goto(`${server.url}/players/${suspect.id}`);
    await sus.getByTestId('marked-banner').waitFor();
    await sus.getByTestId('fair-play-status').waitFor();
    expect(await sus.getByTestId('fair-play-mark').textContent()).toContain('Machine-speed moves reported');
    await sus.getByTestId('appeal-text').fill('I know this deal by heart: I played it a hundred times.');
    await sus.getByTestId('appeal-submit').click();
    expect(await sus.getByTestId('appeal-status').textContent()).toBe('Waiting for a moderator');
    expect(await sus.getByTestId('appeal-text').count()).toBe(0);
    // Everyone else sees the banner too.
    await rep.goto(`${server.url}/players/${suspect.id}`);
    await rep.getByTestId('marked-banner').waitFor();

    // The fair-play page publishes this month's figures.
    await rep.goto(`${server.url}/fair-play`);
    const month = new Date().toISOString().slice(0, 7);
    const row = rep.locator(`[data-testid=figures] tbody tr[data-month="${month}"]`);
    await row.waitFor();
    const cell = async (col: string) => row.locator(`td[data-col=${col}]`).textContent();
    expect(await cell('reportsReceived')).toBe('1');
    expect(await cell('marks')).toBe('1');
    expect(await cell('appeals')).toBe('1');
  }, 120_000);
});
