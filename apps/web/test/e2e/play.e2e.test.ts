/**
 * Browser test: the real server (apps/server) serving the built client, driven through Debian's chromium.
 * Deals a known, easy deal through the New game dialog (pasted deal, classic-draw1), drags a card to a legal
 * and to an illegal target, undoes, reloads, and plays the deal to the win screen through the UI. Then asks
 * the solver for a hint, plays the highlighted move, and turns on the "still winnable?" badge.
 */
import { GameResponseSchema, HintResponseSchema } from '@klondike/protocol';
import type { CardCode, PlayerView } from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeHint } from '../../src/lib/hint';
import { nextFoundationMove, topCard } from '@klondike/rules';
import {
  ensureBuilt,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
  launchChromium,
} from './harness';
import { AUTO_PILES, AUTO_STOCK, dealText as toDealText } from './deals';

const SKIP = skipReason();

/**
 * The deal, pile by pile, bottom card first (docs/rules.md R2: pile p holds p+1 cards, the last one face up).
 * Read from the top down, every pile is an ascending run of one suit, so each card sent home uncovers the next
 * one needed; the stock then holds the rest of each suit in order. Draw + double-click wins it.
 */
const PILES: CardCode[][] = [
  ['6D'],
  ['8H', '7H'],
  ['TS', '9S', '8S'],
  ['4C', '3C', '2C', 'AC'],
  ['5D', '4D', '3D', '2D', 'AD'],
  ['6H', '5H', '4H', '3H', '2H', 'AH'],
  ['7S', '6S', '5S', '4S', '3S', '2S', 'AS'],
];
const STOCK: CardCode[] = [
  ...(['5C', '6C', '7C', '8C', '9C', 'TC', 'JC', 'QC', 'KC'] as const),
  ...(['7D', '8D', '9D', 'TD', 'JD', 'QD', 'KD'] as const),
  ...(['9H', 'TH', 'JH', 'QH', 'KH'] as const),
  ...(['JS', 'QS', 'KS'] as const),
];

/** The deal above as text (deals.ts). */
const dealText = (piles: CardCode[][] = PILES, stock: CardCode[] = STOCK): string => toDealText(piles, stock);

describe.skipIf(SKIP !== null)(`browser: play a deal to the win${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const cspViolations: string[] = [];
  let gameId = '';
  /** The face-up cards of the pasted deal's opening. */
  let opening: (readonly string[])[] = [];

  async function version(): Promise<number> {
    return Number(await page.getByTestId('table').getAttribute('data-version'));
  }

  /** Waits until the table shows at least version `v` (confirmed by the server). */
  async function waitVersion(v: number): Promise<void> {
    await page.waitForFunction(
      (want) => Number(document.querySelector('[data-testid=table]')?.getAttribute('data-version')) >= want,
      v,
      { timeout: 10_000 },
    );
  }

  /** The server's view of the game. */
  async function serverGame(): Promise<{ version: number; view: PlayerView }> {
    const res = await fetch(`${server.url}/api/games/${gameId}`);
    return GameResponseSchema.parse(await res.json());
  }

  /** Card test ids in each pile, in DOM order. */
  async function tableSnapshot(): Promise<Record<string, string[]>> {
    return page.evaluate(() => {
      const out: Record<string, string[]> = {};
      document.querySelectorAll<HTMLElement>('[data-testid^="pile-"]').forEach((pile) => {
        out[pile.dataset.testid as string] = [
          ...pile.querySelectorAll<HTMLElement>('[data-testid^="card-"]'),
        ].map((c) => c.dataset.testid as string);
      });
      return out;
    });
  }

  async function pileOf(code: string): Promise<string | null> {
    return page
      .getByTestId(`card-${code}`)
      .evaluate((el) => el.closest<HTMLElement>('[data-testid^="pile-"]')?.dataset.testid ?? null);
  }

  /** Waits until no card is animating (deal, FLIP moves, snap-back). */
  async function settle(): Promise<void> {
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-key]')].every(
        (el) => el.getAnimations().length === 0 && !(el as HTMLElement).style.transform,
      ),
    );
  }

  /** Drags card `code` (grabbed near its top edge) and drops it over card `onto`. */
  async function drag(code: string, onto: string): Promise<void> {
    await settle();
    const a = await page.getByTestId(`card-${code}`).boundingBox();
    const b = await page.getByTestId(`card-${onto}`).boundingBox();
    if (!a || !b) throw new Error('card not on screen');
    await page.mouse.move(a.x + a.width / 2, a.y + 12);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 10, a.y + 20, { steps: 3 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  /** Drags card `code` (grabbed near its top edge) and drops it on pile `pile` (over its top card). */
  async function dragToPile(code: string, pile: string): Promise<void> {
    await settle();
    const a = await page.getByTestId(`card-${code}`).boundingBox();
    const b = await page.getByTestId(`pile-${pile}`).locator('.glow').boundingBox();
    if (!a || !b) throw new Error('card or pile not on screen');
    await page.mouse.move(a.x + a.width / 2, a.y + 12);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 10, a.y + 20, { steps: 3 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  /** Deals `deal` (classic-draw1) through the New game dialog and returns the new game's id. */
  async function dealPasted(deal: string): Promise<string> {
    await page.goto(server.url);
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.getByTestId('pile-t7').waitFor();
    const before = page.url();
    await page.getByTestId('new-game').click();
    await page.getByTestId('preset-classic-draw1').check();
    await page.getByTestId('source-paste').check();
    await page.getByTestId('deal-text').fill(deal);
    await page.getByTestId('deal').click();
    await page.waitForURL((u) => u.toString() !== before && /\/game\/[A-Za-z0-9_-]+$/.test(u.pathname));
    await waitVersion(0);
    await settle();
    return new URL(page.url()).pathname.split('/').pop() as string;
  }

  /** Waits until the screen-reader live region says something containing `text`. */
  async function waitAnnounced(text: string): Promise<void> {
    await page.waitForFunction(
      (want) => document.querySelector('[data-testid=announcer]')?.textContent?.includes(want) ?? false,
      text,
      { timeout: 10_000 },
    );
  }

  /** Waits until the winnable badge shows `verdict`. */
  async function waitBadge(verdict: string): Promise<void> {
    await page.waitForFunction(
      (want) => document.querySelector('[data-testid=winnable-badge]')?.getAttribute('data-verdict') === want,
      verdict,
      { timeout: 20_000 },
    );
  }

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    // Every console message of the page that reports a Content-Security-Policy violation (checked last).
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('deals a pasted deal through the New game dialog', async () => {
    await page.goto(server.url);
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.getByTestId('pile-t7').waitFor();
    await page.getByTestId('new-game').click();
    await page.getByTestId('preset-classic-draw1').check();
    await page.getByTestId('source-paste').check();
    await page.getByTestId('deal-text').fill(dealText());
    const before = page.url();
    await page.getByTestId('deal').click();
    await page.waitForURL((u) => u.toString() !== before && /\/game\/[A-Za-z0-9_-]+$/.test(u.pathname));
    gameId = new URL(page.url()).pathname.split('/').pop() as string;
    await page.getByTestId('card-AS').waitFor();
    expect(await version()).toBe(0);
    expect(await pileOf('AS')).toBe('pile-t7');
    expect(await pileOf('6D')).toBe('pile-t1');
    expect(await page.getByTestId('pile-t7').getByTestId('card-back').count()).toBe(6);
    expect(await page.getByTestId('moves').textContent()).toBe('0');
    expect(await page.getByTestId('status').getAttribute('data-status')).toBe('playing');
    opening = (await serverGame()).view.tableau.map((p) => p.faceUp);
  }, 30_000);

  it('drags a card to a legal target: it moves and the version advances', async () => {
    const v0 = await version();
    await drag('7H', '8S'); // red 7 on black 8 (R4)
    await waitVersion(v0 + 1);
    expect(await pileOf('7H')).toBe('pile-t3');
    // R6: the face-down 8H under it was turned up.
    await page.getByTestId('card-8H').waitFor();
    expect(await pileOf('8H')).toBe('pile-t2');
    expect(await page.getByTestId('moves').textContent()).toBe('1');
    const s = await serverGame();
    expect(s.version).toBe(v0 + 1);
    expect(s.view.tableau[2]?.faceUp).toEqual(['8S', '7H']);
  }, 30_000);

  it('drags a card to an illegal target: it snaps back and nothing changes', async () => {
    const v0 = await version();
    await settle();
    const home = await page.getByTestId('card-6D').boundingBox();
    const before = await tableSnapshot();
    await drag('6D', 'AC'); // 6 on an Ace: illegal (R4)
    await page.waitForTimeout(600);
    const back = await page.getByTestId('card-6D').boundingBox();
    expect(back && home && Math.abs(back.x - home.x) < 2 && Math.abs(back.y - home.y) < 2).toBe(true);
    expect(await version()).toBe(v0);
    expect(await tableSnapshot()).toEqual(before);
    expect((await serverGame()).version).toBe(v0);
  }, 30_000);

  it('undoes with the Undo button', async () => {
    const v0 = await version();
    await page.getByTestId('undo').click();
    await waitVersion(v0 + 1);
    expect(await pileOf('7H')).toBe('pile-t2');
    expect(await page.getByTestId('card-8H').count()).toBe(0); // face down again (R14 undoes the turn-up)
    expect(await page.getByTestId('moves').textContent()).toBe('0');
  }, 30_000);

  it('shows the same position after a reload', async () => {
    const v0 = await version();
    await page.getByTestId('pile-stock').click(); // draw 5C
    await waitVersion(v0 + 1);
    await page.getByTestId('card-5C').waitFor();
    const v = await version();
    const before = await tableSnapshot();
    const url = page.url();
    await page.reload();
    await page.getByTestId('pile-t7').waitFor();
    await waitVersion(v);
    expect(page.url()).toBe(url);
    expect(await version()).toBe(v);
    expect(await tableSnapshot()).toEqual(before);
  }, 30_000);

  it('reconnects by itself after a server restart and plays on', async () => {
    const v0 = await version();
    await server.stop(true);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=connection]')?.getAttribute('data-state') !== 'open',
    );
    server = await startServer({ port: server.port, dataDir: server.dataDir });
    await page.waitForFunction(
      () => document.querySelector('[data-testid=connection]')?.getAttribute('data-state') === 'open',
      undefined,
      {
        timeout: 20_000,
      },
    );
    expect(await version()).toBe(v0);
    await page.keyboard.press('d');
    await waitVersion(v0 + 1);
    expect((await serverGame()).version).toBe(v0 + 1);
  }, 60_000);

  it('plays the deal to the win screen', async () => {
    let draws = 0;
    for (let step = 0; step < 200; step++) {
      const { version: v, view } = await serverGame();
      if (view.status === 'won') break;
      expect(view.status).toBe('playing');
      const home = nextFoundationMove(view);
      if (home && home.type === 'move') {
        const code = topCard(view, home.from) as CardCode;
        await page.getByTestId(`card-${code}`).dblclick();
      } else if (draws++ % 2 === 0) {
        await page.keyboard.press('d'); // keyboard draw
      } else {
        await page.getByTestId('pile-stock').click();
      }
      await waitVersion(v + 1);
    }
    await page.getByTestId('win-screen').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('status').getAttribute('data-status')).toBe('won');
    const { view } = await serverGame();
    expect(view.status).toBe('won');
    expect(view.foundations).toEqual({ fC: 'KC', fD: 'KD', fH: 'KH', fS: 'KS' });
    expect(await page.getByTestId('score').textContent()).toBe(String(view.score));
    expect(await page.getByTestId('moves').textContent()).toBe(String(view.moves));

    // "Play this deal again" deals a new game of the same unnumbered deal (sameDealAs): same opening.
    const wonPath = new URL(page.url()).pathname;
    await page.getByTestId('win-replay').click();
    await page.waitForURL((u) => u.pathname !== wonPath && /^\/game\/[A-Za-z0-9_-]+$/.test(u.pathname));
    const wonId = gameId;
    gameId = new URL(page.url()).pathname.split('/').pop() as string;
    expect(gameId).not.toBe(wonId);
    const again = await serverGame();
    expect(again.version).toBe(0);
    expect(again.view.tableau.map((p) => p.faceUp)).toEqual(opening);
  }, 180_000);

  it('opens a game by its URL and finishes it with the auto-complete button', async () => {
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json() as Promise<{
        id?: string;
        version: number;
        view: PlayerView;
      }>;
    const created = await post('/api/games', {
      preset: 'classic-draw1',
      deal: toDealText(AUTO_PILES, AUTO_STOCK),
    });
    let { version: v, view } = created;
    // Play by REST until auto-complete applies.
    for (let i = 0; i < 200 && !view.canAutoComplete; i++) {
      const move = nextFoundationMove(view) ?? { type: 'draw' as const };
      ({ version: v, view } = await post(`/api/games/${created.id}/moves`, { move, version: v }));
    }
    expect(view.canAutoComplete).toBe(true);
    gameId = created.id as string;
    await page.goto(`${server.url}/game/${gameId}`);
    await waitVersion(v);
    await page.getByTestId('auto-complete').click();
    await page.getByTestId('win-screen').waitFor({ timeout: 30_000 });
    const final = await serverGame();
    expect(final.view.status).toBe('won');
    expect(final.version).toBeGreaterThan(v);
  }, 60_000);

  it('Hint highlights a winning move (source and target); playing it is accepted', async () => {
    gameId = await dealPasted(dealText());
    const { version: v0, view } = await serverGame();
    expect(view.options.hints).toBe(true);
    // Hold the answer back a little to see the button's spinner.
    await page.route('**/hint', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    const button = page.getByTestId('hint');
    await button.click();
    expect(await button.getAttribute('data-state')).toBe('loading');
    await page.locator('[data-hint="source"]').first().waitFor({ timeout: 15_000 });
    await page.unroute('**/hint');
    expect(await button.getAttribute('data-state')).toBe('idle');

    // What the server hints (cached per version: the same answer the page got).
    const hint = HintResponseSchema.parse(
      await (await fetch(`${server.url}/api/games/${gameId}/hint`)).json(),
    );
    expect(hint).toMatchObject({ version: v0, verdict: 'won' });
    const move = hint.move;
    if (!move) throw new Error('a winnable deal gets a move');
    await waitAnnounced(describeHint(move, view));

    if (move.type === 'move') {
      const sources = await page
        .locator('[data-hint="source"]')
        .evaluateAll((els) =>
          els.map((el) => ({ id: el.getAttribute('data-testid'), pile: el.getAttribute('data-pile') })),
        );
      expect(sources).toHaveLength(move.count);
      expect(sources.every((c) => c.pile === move.from)).toBe(true);
      expect(await page.locator('[data-hint="target"]').getAttribute('data-drop')).toBe(move.to);
      expect(await page.getByTestId('hint-arrow').count()).toBe(1);
      const lead = (sources[0]?.id ?? '').replace(/^card-/, '');
      await dragToPile(lead, move.to);
    } else {
      expect(await page.getByTestId('pile-stock').getAttribute('data-hint')).toBe('source');
      await page.getByTestId('pile-stock').click();
    }
    await waitVersion(v0 + 1);
    const after = await serverGame();
    expect(after.version).toBe(v0 + 1);
    expect(after.view.moves).toBe(view.moves + 1);
    expect(await page.locator('[data-hint]').count()).toBe(0); // the highlight ends with the move

    // The H key asks too; the highlight fades after ~2.5 s.
    await page.keyboard.press('h');
    await page.locator('[data-hint="source"]').first().waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelectorAll('[data-hint]').length === 0, undefined, {
      timeout: 5_000,
    });
  }, 60_000);

  it('the winnable badge: off by default, turned on in the New game dialog, remembered', async () => {
    expect(await page.getByTestId('winnable-badge').count()).toBe(0);
    await page.getByTestId('new-game').click();
    const toggle = page.getByTestId('winnable-toggle');
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await page.keyboard.press('Escape');
    await page.getByTestId('new-game-dialog').waitFor({ state: 'detached' });
    await waitBadge('won');
    expect(await page.getByTestId('winnable-badge').textContent()).toContain('Winnable');

    // A new version is checked again.
    const v = await version();
    await page.keyboard.press('d');
    await waitVersion(v + 1);
    await waitBadge('won');

    // Remembered across a reload.
    await page.reload();
    await page.getByTestId('pile-t7').waitFor();
    await waitBadge('won');
  }, 60_000);

  it('a game with hints off: no Hint button, no badge, and nothing asked', async () => {
    const hintRequests: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/hint')) hintRequests.push(r.url());
    };
    page.on('request', onRequest);
    const res = await fetch(`${server.url}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ preset: 'classic-draw1', options: { hints: false }, deal: dealText() }),
    });
    const created = GameResponseSchema.parse(await res.json());
    gameId = created.id;
    await page.goto(`${server.url}/game/${gameId}`);
    await waitVersion(0);
    await page.keyboard.press('d');
    await waitVersion(1);
    await page.waitForTimeout(1500); // longer than the badge's debounce
    expect(await page.getByTestId('hint').count()).toBe(0);
    expect(await page.getByTestId('winnable-badge').count()).toBe(0);
    await page.keyboard.press('h');
    await waitAnnounced('Hints are off for this game.');
    expect(hintRequests).toEqual([]);
    page.off('request', onRequest);
  }, 30_000);

  it("the whole session ran under the server's Content-Security-Policy without a violation", async () => {
    const res = await page.goto(`${server.url}/`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByTestId('pile-t7').waitFor();
    expect(cspViolations).toEqual([]);
  }, 30_000);
});
