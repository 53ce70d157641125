/**
 * Browser test of a live race: two browser contexts, two players. Alice (desktop) sets up a race on a deal
 * number the solver wins through the /race form (signing up on the way) and shares the invite link; Bob (a
 * phone) opens it, joins (signing up too), both get ready (a seat stays open, so the room does not start by
 * itself) and Alice starts. Both see the server-synced 3-2-1 countdown, then their own table and the other's
 * live panel. Bob draws a card through the UI (Alice's panel of Bob shows the move), then turns his phone
 * sideways (Alice's panel moves beside his table); Alice's moves are the solver's pre-computed winning line,
 * sent as Alice (bearer token) while her browser watches its table fill up and Bob's panel of Alice climbs to
 * 52/52. Both see the results (placements, replays), and Alice's rematch takes both to the new room. A third
 * browser, without a player, watches the race as a spectator (panels only).
 *
 * `RACE_SHOTS=<dir>` also saves screenshots (lobby, countdown, race, results; desktop and phone).
 */
import { RaceSchema, SolveResponseSchema, StateResponseSchema, type Race } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const SHOTS = process.env.RACE_SHOTS ?? '';

describe.skipIf(SKIP !== null)(`browser: a live race${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  /** A spectator (no player). */
  let carol: Page;
  let dealNumber = 0;
  let line: Move[] = [];
  let code = '';

  async function shot(page: Page, name: string): Promise<void> {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.waitForTimeout(350); // let transitions settle
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  }

  async function token(page: Page): Promise<string> {
    const t = await page.evaluate(() => localStorage.getItem('klondike.token'));
    expect(t).toBeTruthy();
    return t as string;
  }

  async function api<T>(
    method: string,
    path: string,
    schema: { parse(v: unknown): T },
    body?: unknown,
    bearer?: string,
  ): Promise<T> {
    return apiCall(server.url, method, path, schema, body, bearer);
  }

  async function signUp(page: Page, name: string): Promise<void> {
    const dialog = page.getByTestId('signup-dialog');
    await dialog.waitFor();
    await page.getByTestId('player-name').fill(name);
    await page.getByTestId('player-submit').click();
    await dialog.waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, {
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      PLAYER_CREATE_RATE_MAX: '0',
      SOLVE_RATE_MAX: '0',
      RACE_RATE_MAX: '0',
      RACE_COUNTDOWN_MS: '3000',
    });
    // A deal number the solver wins, and its winning line (the race deals the same game from it).
    for (let n = 1; n <= 40 && line.length === 0; n++) {
      const res = await api('POST', '/api/solve', SolveResponseSchema, {
        preset: 'classic-draw1',
        dealNumber: n,
        timeLimitMs: 4000,
      });
      if (res.verdict === 'won' && res.line) {
        dealNumber = n;
        line = res.line;
      }
    }
    expect(line.length).toBeGreaterThan(0);

    browser = await launchChromium();
    const a = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const b = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    alice = await a.newPage();
    bob = await b.newPage();
    carol = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    for (const p of [alice, bob, carol]) {
      p.on('pageerror', (e) => console.error('page error:', e.message));
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('Alice sets up a race on a known deal (signing up first) and lands in its lobby', async () => {
    await alice.goto(`${server.url}/`);
    await alice.getByTestId('nav-race').click();
    await alice.waitForURL(/\/race$/);
    await alice.locator('label', { has: alice.getByTestId('deal-number-kind') }).click();
    await alice.getByTestId('race-deal-number').fill(String(dealNumber));
    await alice.getByRole('button', { name: 'More seats' }).click(); // 3 seats: no auto-start when all are ready
    expect(await alice.getByTestId('race-seats').textContent()).toBe('3');
    await alice.getByTestId('race-create').click();
    await signUp(alice, 'Alice');

    await alice.waitForURL(/\/race\/[A-HJ-NP-Z2-9]{10}$/);
    code = new URL(alice.url()).pathname.split('/')[2] as string;
    await alice.getByTestId('race-lobby').waitFor();
    expect(await alice.getByTestId('invite-link').inputValue()).toBe(`${server.url}/race/${code}`);
    await alice.getByTestId('lobby-racer-Alice').waitFor();
    expect(await alice.getByTestId('start-race').isDisabled()).toBe(true); // alone
  }, 60_000);

  it('Bob opens the invite link, watches, then joins; both see each other', async () => {
    await bob.goto(`${server.url}/race/${code}`);
    await bob.getByTestId('race-lobby').waitFor();
    expect(await bob.getByTestId('spectating').textContent()).toMatch(/spectator/);
    // Before the start everyone sees the rules that matter for fair play: undo, hints, and that the host
    // chose this deal (a known deal).
    for (const p of [alice, bob]) {
      expect(await p.getByTestId('race-undo-flag').textContent()).toContain('Undo allowed');
      expect(await p.getByTestId('race-hints-flag').textContent()).toContain('No hints');
      expect(await p.getByTestId('known-deal').textContent()).toContain('Known deal');
      expect(await p.getByTestId('random-deal').count()).toBe(0);
      expect(await p.getByTestId('race-rules').textContent()).toContain('no hints');
    }
    await alice.waitForFunction(
      () => /^\s*1 watching/.test(document.querySelector('[data-testid=spectators]')?.textContent ?? ''),
      undefined,
      { timeout: 10_000 },
    );
    await bob.getByTestId('join-race').click();
    await signUp(bob, 'Bob');
    await bob.getByTestId('ready-toggle').waitFor({ timeout: 10_000 });
    await bob.getByTestId('lobby-racer-Alice').waitFor();
    await alice.getByTestId('lobby-racer-Bob').waitFor({ timeout: 10_000 });

    await bob.getByTestId('ready-toggle').click();
    await alice.waitForSelector('[data-testid=lobby-racer-Bob][data-ready=true]', { timeout: 10_000 });
    await alice.getByTestId('ready-toggle').click();
    await bob.waitForSelector('[data-testid=lobby-racer-Alice][data-ready=true]', { timeout: 10_000 });
    await shot(alice, 'lobby-desktop');
    await shot(bob, 'lobby-phone');
  }, 60_000);

  it('the host starts: both count down 3-2-1 and get their table with the other’s live panel', async () => {
    // Alice's own ready flag reaches her page through the server: wait for it rather than read it once.
    await alice.waitForSelector('[data-testid=start-race]:not([disabled])', { timeout: 10_000 });
    await alice.getByTestId('start-race').click();
    for (const p of [alice, bob]) await p.getByTestId('countdown-overlay').waitFor({ timeout: 10_000 });
    const face = await alice.getByTestId('countdown-overlay').getAttribute('data-face');
    expect(['3', '2', '1', 'go']).toContain(face);
    await shot(alice, 'countdown-desktop');
    await shot(bob, 'countdown-phone');

    for (const p of [alice, bob]) {
      await p.getByTestId('race-table').waitFor({ timeout: 15_000 });
      await p.getByTestId('pile-t7').waitFor();
      await p.getByTestId('countdown-overlay').waitFor({ state: 'detached', timeout: 5000 });
    }
    await alice.getByTestId('racer-panel-Bob').waitFor();
    await bob.getByTestId('racer-panel-Alice').waitFor();

    // Bob draws through the UI; Alice's panel of Bob shows the move.
    await bob.getByTestId('pile-stock').click();
    await alice.waitForFunction(
      () =>
        document.querySelector('[data-testid=racer-panel-Bob] [data-testid=opp-moves]')?.textContent === '1',
      undefined,
      { timeout: 10_000 },
    );
  }, 60_000);

  it('Bob turns his phone sideways: the live panel moves beside the table and the cards keep their height', async () => {
    await bob.setViewportSize({ width: 640, height: 360 });
    try {
      await bob.evaluate(() => new Promise(requestAnimationFrame));
      const panel = await bob.getByTestId('racer-panel-Alice').boundingBox();
      const pile = await bob.getByTestId('pile-t7').boundingBox();
      const card = await bob
        .locator('[data-testid=pile-stock] [data-testid=card-back]')
        .first()
        .boundingBox();
      if (!panel || !pile || !card) throw new Error('the panel, the last pile or the stock is not visible');
      // Beside: the panel starts right of the last tableau pile (above it, as on a phone held upright, it
      // took ~90 px of the 360 and left cards 48 px tall).
      expect(panel.x).toBeGreaterThanOrEqual(pile.x + pile.width);
      expect(panel.x + panel.width).toBeLessThanOrEqual(640.5);
      expect(card.height).toBeGreaterThanOrEqual(60);
    } finally {
      await bob.setViewportSize({ width: 390, height: 844 });
    }
  }, 30_000);

  it('Alice plays the winning line; Bob watches her panel climb to 52', async () => {
    const bearer = await token(alice);
    const race = await api('GET', `/api/races/${code}`, RaceSchema, undefined, bearer);
    const gameId = race.yourGameId as string;
    expect(gameId).toBeTruthy();
    let version = (await api('GET', `/api/games/${gameId}`, StateResponseSchema, undefined, bearer)).version;
    for (const [i, move] of line.entries()) {
      const res = await api(
        'POST',
        `/api/games/${gameId}/moves`,
        StateResponseSchema,
        { move, version },
        bearer,
      );
      version = res.version;
      if (i === Math.floor(line.length / 2)) {
        await alice.waitForFunction(
          (n) => document.querySelector('[data-testid=moves]')?.textContent === String(n),
          res.view.moves,
          { timeout: 10_000 },
        );
        await shot(alice, 'race-desktop');
        await shot(bob, 'race-phone');
        // A visitor without a seat watches the panels only.
        await carol.goto(`${server.url}/race/${code}`);
        await carol.getByTestId('race-watch').waitFor({ timeout: 10_000 });
        await carol.getByTestId('racer-panel-Alice').waitFor();
        expect(await carol.getByTestId('pile-t7').count()).toBe(0);
        await shot(carol, 'spectator-desktop');
      }
    }
    // Her win ends the race at once, so Bob's page may go straight from the last progress frame to the
    // results (on a loaded machine both frames can land in one render): 52/52 shows in her live panel or in
    // her results row, whichever Bob's page is on.
    await bob.waitForFunction(
      () =>
        document.querySelector('[data-testid=racer-panel-Alice]')?.getAttribute('data-cards') === '52' ||
        /52\/52/.test(document.querySelector('[data-testid=result-Alice]')?.textContent ?? ''),
      undefined,
      { timeout: 15_000 },
    );
  }, 120_000);

  it('the first win ends the race: both see the result', async () => {
    for (const p of [alice, bob]) await p.getByTestId('race-results').waitFor({ timeout: 15_000 });
    expect(await alice.getByTestId('race-headline').textContent()).toContain('You won');
    expect(await bob.getByTestId('race-headline').textContent()).toContain('Alice won');
    expect(await alice.getByTestId('my-placement').textContent()).toBe('1st');
    expect(await bob.getByTestId('my-placement').textContent()).toBe('2nd');
    for (const p of [alice, bob])
      expect(await p.getByTestId('known-deal-result').textContent()).toContain('Known deal');
    // Each racer's replay is linked once the results are in.
    await alice.getByTestId('replay-Bob').waitFor({ timeout: 10_000 });
    await bob.getByTestId('replay-Alice').waitFor({ timeout: 10_000 });
    expect(await alice.getByTestId('replay-Alice').getAttribute('href')).toMatch(
      /^\/replay\/[A-Za-z0-9_-]+$/,
    );
    await shot(alice, 'results-desktop');
    await shot(bob, 'results-phone');
  }, 60_000);

  it('a rematch takes Alice to a new room, and Bob follows', async () => {
    await alice.getByTestId('rematch').click();
    await alice.waitForURL(
      (u) => /^\/race\/[A-HJ-NP-Z2-9]{10}$/.test(u.pathname) && !u.pathname.endsWith(code),
    );
    const next = new URL(alice.url()).pathname.split('/')[2] as string;
    await alice.getByTestId('race-lobby').waitFor();
    // A rematch is a fresh random deal, never the host's next number.
    await alice.getByTestId('random-deal').waitFor();
    expect(await alice.getByTestId('known-deal').count()).toBe(0);

    await bob.getByTestId('follow-rematch').click({ timeout: 10_000 });
    await bob.waitForURL(new RegExp(`/race/${next}$`));
    await bob.getByTestId('race-lobby').waitFor();
    const room: Race = await api('GET', `/api/races/${next}`, RaceSchema, undefined, await token(bob));
    if (room.you === null) {
      await bob.getByTestId('join-race').click();
      await alice.getByTestId('lobby-racer-Bob').waitFor({ timeout: 10_000 });
    }
    await bob.getByTestId('lobby-racer-Alice').waitFor();
  }, 60_000);
});
