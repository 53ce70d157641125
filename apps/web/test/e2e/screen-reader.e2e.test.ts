/**
 * Browser test of the screen-reader table (docs/accessibility.md), keyboard only — no mouse event anywhere:
 * a player wins a deal the solver wins (its line from POST /api/solve, typed into the command line one move
 * at a time) and every move's sentence is read from the one live region; the arrow keys and P say the piles.
 * The same player then joins a race by Tab and Enter, hears the countdown, asks for the opponent's progress
 * (O), plays the same winning line and hears the result.
 */
import { RaceSchema, SolveResponseSchema, StateResponseSchema } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { seedPlayer, type SeededPlayer } from './seed';

const SKIP = skipReason();

/** A move as the command line reads it (lib/a11y.ts `commandOf`). */
function commandOf(move: Move): string {
  if (move.type === 'draw') return 'd';
  if (move.type === 'recycle') return 'r';
  if (move.type === 'last-pass') return 'l';
  return `${move.from} ${move.to}${move.count > 1 ? ` ${move.count}` : ''}`;
}

/** Records every text the live region says (window.__said), from the first paint on. */
function recordAnnouncements(): void {
  const w = window as unknown as { __said: string[] };
  w.__said = [];
  let prev = '';
  new MutationObserver(() => {
    const text = document.querySelector('[data-testid=announcer]')?.textContent?.trim() ?? '';
    if (text !== prev && text !== '') w.__said.push(text);
    prev = text;
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

const said = (page: Page) => page.evaluate(() => (window as unknown as { __said: string[] }).__said.slice());

/** Waits for the live region to say something new that matches `re`, and returns it. */
async function nextSaid(page: Page, from: number, re: RegExp): Promise<string> {
  try {
    const handle = await page.waitForFunction(
      ([n, source]) => {
        const all = (window as unknown as { __said: string[] }).__said;
        return all.slice(n).find((t) => new RegExp(source).test(t)) ?? false;
      },
      [from, re.source] as const,
      { timeout: 15_000 },
    );
    return (await handle.jsonValue()) as string;
  } catch (e) {
    throw new Error(`never said ${re}; said: ${JSON.stringify((await said(page)).slice(from))}`, {
      cause: e,
    });
  }
}

/** Presses Tab until the element with `testid` has the focus (keyboard only). */
async function tabTo(page: Page, testid: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testid))
      return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${testid}`);
}

/**
 * Types `line` into the command line, move by move; each move's sentence must come through the live region.
 * `endsRace`: the last move ends a race, whose end is announced within the same 30 ms (useNotify's
 * `announce` keeps the newest of messages that close together), so that move may be heard as the race's end.
 */
async function playLine(page: Page, line: readonly Move[], endsRace = false): Promise<string[]> {
  const sentences: string[] = [];
  for (const [i, move] of line.entries()) {
    const table = page.getByTestId('table');
    const version = Number(await table.getAttribute('data-version'));
    const from = (await said(page)).length;
    await page.keyboard.type(commandOf(move));
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (v) => {
        const t = document.querySelector<HTMLElement>('[data-testid=table]');
        return Number(t?.dataset.version) > v && t?.dataset.pending === 'false';
      },
      version,
      { timeout: 15_000 },
    );
    const expected =
      endsRace && i === line.length - 1
        ? /^(Moved |The race is over\.)/
        : move.type === 'move'
          ? /^Moved /
          : move.type === 'draw'
            ? /^Drew /
            : /^(Turned|Last pass)/;
    sentences.push(await nextSaid(page, from, expected));
  }
  return sentences;
}

describe.skipIf(SKIP !== null)(`browser: the screen-reader table${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let player: SeededPlayer;
  let page: Page;
  let dealNumber = 0;
  let line: Move[] = [];

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, {
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      SOLVE_RATE_MAX: '0',
      RACE_RATE_MAX: '0',
      RACE_COUNTDOWN_MS: '3000',
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
    expect(line.length).toBeGreaterThan(0);
    player = await seedPlayer(server.url, 'Keys Only');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await context.addInitScript((t) => localStorage.setItem('klondike.token', t), player.token);
    await context.addInitScript(recordAnnouncements);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('wins a deal with keys only, each move read from the live region (R15 win)', async () => {
    await page.goto(`${server.url}/?deal=${dealNumber}&preset=classic-draw1`);
    await page.getByTestId('pile-t7').waitFor();
    await page.waitForURL(/\/game\//);
    await tabTo(page, 'table');
    // The arrow keys walk the piles, each said in full; P says the pile again, Shift+P the whole table.
    let from = (await said(page)).length;
    await page.keyboard.press('ArrowRight'); // tableau 1 → tableau 2
    expect(await nextSaid(page, from, /^Tableau 2: 1 face down, then \w+ of \w+$/)).toBeTruthy();
    from = (await said(page)).length;
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft'); // before tableau 1: the last foundation
    expect(await nextSaid(page, from, /^Foundation spades: empty$/)).toBeTruthy();
    from = (await said(page)).length;
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft'); // fH, fD, fC, waste, stock
    expect(await nextSaid(page, from, /^Stock: 24 cards$/)).toBeTruthy();
    from = (await said(page)).length;
    await page.keyboard.press('Shift+P');
    expect(await nextSaid(page, from, /Waste: empty\. Foundation clubs: empty/)).toBeTruthy();
    // The command line: a move that is not allowed is refused in words, and nothing moves.
    await page.keyboard.press('/');
    await page.getByTestId('command-input').waitFor();
    from = (await said(page)).length;
    await page.keyboard.type('w t3');
    await page.keyboard.press('Enter');
    expect(await nextSaid(page, from, /not allowed|cannot|empty/i)).toBeTruthy();
    const sentences = await playLine(page, line);
    expect(sentences).toHaveLength(line.length);
    await page.waitForSelector('[data-testid=table][data-status=won]');
    expect(await nextSaid(page, 0, /^You won!/)).toBeTruthy();
  }, 300_000);

  it('joins a race by keyboard, hears the countdown, the opponent and the result', async () => {
    const host = await apiCall(
      server.url,
      'POST',
      '/api/players',
      { parse: (v: unknown) => v as { id: string; token: string } },
      { name: 'Rival' },
    );
    const race = await apiCall(
      server.url,
      'POST',
      '/api/races',
      RaceSchema,
      { preset: 'classic-draw1', deal: { dealNumber } },
      host.token,
    );
    await page.goto(`${server.url}/race/${race.code}`);
    await page.getByTestId('race-lobby').waitFor();
    await tabTo(page, 'join-race');
    await page.keyboard.press('Enter');
    await page.getByTestId('ready-toggle').waitFor();
    await apiCall(
      server.url,
      'POST',
      `/api/races/${race.code}/ready`,
      RaceSchema,
      { ready: true },
      host.token,
    );
    await tabTo(page, 'ready-toggle');
    await page.keyboard.press('Enter');
    const from = (await said(page)).length;
    // Two ready racers in a room of two start by themselves; else the host starts.
    await apiCall(
      server.url,
      'POST',
      `/api/races/${race.code}/start`,
      RaceSchema,
      undefined,
      host.token,
    ).catch((e: unknown) => expect(String(e)).toMatch(/409/));
    // The countdown's seconds, then the start.
    expect(await nextSaid(page, from, /^[123]$/)).toBeTruthy();
    await page.getByTestId('race-table').waitFor({ timeout: 20_000 });
    await page.waitForSelector('[data-testid=table][data-status=playing]');
    // The rival draws twice (REST, as Rival); O says the rival's progress.
    const running = await apiCall(
      server.url,
      'GET',
      `/api/races/${race.code}`,
      RaceSchema,
      undefined,
      host.token,
    );
    const rivalGame = running.yourGameId as string;
    let version = 0;
    for (let i = 0; i < 2; i++) {
      const r = await apiCall(
        server.url,
        'POST',
        `/api/games/${rivalGame}/moves`,
        StateResponseSchema,
        { move: { type: 'draw' }, version },
        host.token,
      );
      version = r.version;
    }
    await page.waitForFunction(
      () => document.querySelector('[data-testid=race-table]')?.textContent?.includes('Rival') ?? false,
    );
    await page.waitForTimeout(500); // the progress frame of the second draw
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const before = (await said(page)).length;
    // O says the rival's progress. A message announced within 30 ms after it replaces it (useNotify keeps
    // the newest), so a press whose sentence was replaced is pressed again, at most three times.
    let heard = '';
    for (let press = 0; press < 3 && heard === ''; press++) {
      const at = (await said(page)).length;
      await page.keyboard.press('o');
      heard = await nextSaid(page, at, /^Rival: 0 cards home, 2 moves/).catch(() => '');
    }
    expect(heard).toMatch(/^Rival: 0 cards home, 2 moves/);
    await tabTo(page, 'table');
    await page.keyboard.press('/');
    await page.getByTestId('command-input').waitFor();
    await playLine(page, line, true);
    expect(await nextSaid(page, before, /^Race over\. You are 1st\.$/)).toBeTruthy();
  }, 300_000);
});
