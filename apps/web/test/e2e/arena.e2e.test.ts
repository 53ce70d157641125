/**
 * Browser test of an arena (docs/arenas.md): Ann and Ben (players made over the API, each in their own
 * browser context) open an arena and press Join; they are paired and both land in the same race room. Ben
 * resigns (through the API), both open the arena from the race table, then Ann resigns: Ben places first (the
 * arena's win) and both open pages see the standings change live (Ben's 2 points arrive in an `arena` frame). axe-core finds no serious violation on
 * the arenas list and the arena page.
 */
import { ArenaSchema, LegalMovesResponseSchema, RaceSchema } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  ensureBuilt,
  launchChromium,
  seriousViolations,
  skipReason,
  startServer,
  type Browser,
  type Page,
  type RunningServer,
} from './harness';

const SKIP = skipReason();
describe.skipIf(SKIP !== null)(`browser: an arena${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  const pages: Record<string, Page> = {};
  const tokens: Record<string, string> = {};
  let arenaId = '';

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, {
      DAILY_SCHEDULE: 'off',
      DAILY_ARCHIVE_DAYS: '0',
      PLAYER_CREATE_RATE_MAX: '0',
      RACE_RATE_MAX: '0',
      RACE_COUNTDOWN_MS: '1500',
    });
    browser = await launchChromium();
    for (const name of ['Arena Ann', 'Arena Ben']) {
      const p = await apiCall(
        server.url,
        'POST',
        '/api/players',
        { parse: (v) => v as { token: string } },
        { name },
      );
      tokens[name] = p.token;
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript((t) => localStorage.setItem('klondike.token', t), p.token);
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      pages[name] = page;
    }
    const a = await apiCall(
      server.url,
      'POST',
      '/api/arenas',
      ArenaSchema,
      { preset: 'classic-draw1', durationMs: 30 * 60_000, name: 'Browser arena' },
      tokens['Arena Ann'],
    );
    arenaId = a.id;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('the arenas list shows the running arena; no serious axe finding', async () => {
    const ann = pages['Arena Ann'] as Page;
    await ann.goto(`${server.url}/arenas`);
    await ann.getByTestId(`arena-${arenaId}`).waitFor();
    expect(await seriousViolations(ann)).toEqual([]);
  }, 60_000);

  it('both join and land in the same race room', async () => {
    for (const page of Object.values(pages)) {
      await page.goto(`${server.url}/arenas/${arenaId}`);
      await page.getByTestId('arena-join').waitFor();
    }
    expect(await seriousViolations(pages['Arena Ben'] as Page)).toEqual([]);
    for (const page of Object.values(pages)) await page.getByTestId('arena-join').click();
    await Promise.all(
      Object.values(pages).map((p) => p.waitForURL(/\/race\/[A-Z0-9]{10}$/, { timeout: 20_000 })),
    );
    expect(pages['Arena Ann']?.url()).toBe(pages['Arena Ben']?.url());
  }, 60_000);

  it('Ben wins; at the arena page both see the standings change live', async () => {
    const code = (pages['Arena Ann'] as Page).url().split('/').pop() as string;
    const race = await apiCall(
      server.url,
      'GET',
      `/api/races/${code}`,
      RaceSchema,
      undefined,
      tokens['Arena Ann'],
    );
    expect(race.arenaId).toBe(arenaId);
    /** `name`'s game in the race (once the countdown has ended). */
    async function gameOf(name: string): Promise<string> {
      for (let i = 0; i < 100; i++) {
        const r = await apiCall(server.url, 'GET', `/api/races/${code}`, RaceSchema, undefined, tokens[name]);
        if (r.yourGameId) return r.yourGameId;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`${name} has no game`);
    }
    async function resign(name: string): Promise<void> {
      const gameId = await gameOf(name);
      await apiCall(server.url, 'POST', `/api/games/${gameId}/resign`, { parse: (v) => v }, {}, tokens[name]);
    }
    /**
     * Plays `name`'s game until a move scores (standard scoring: a card to a foundation or from the waste to
     * the tableau), drawing meanwhile: progress, which ranks racers who did not win (time ranks winners only).
     */
    async function scoreOnce(name: string): Promise<void> {
      const gameId = await gameOf(name);
      for (let i = 0; i < 200; i++) {
        const legal = await apiCall(
          server.url,
          'GET',
          `/api/games/${gameId}/legal-moves`,
          LegalMovesResponseSchema,
          undefined,
          tokens[name],
        );
        const scoring = legal.moves.find(
          (m) => m.type === 'move' && (m.to.startsWith('f') || m.from === 'waste'),
        );
        const move = scoring ?? legal.moves.find((m) => m.type === 'draw' || m.type === 'recycle');
        if (move === undefined) throw new Error(`${name} has no move left`);
        await apiCall(
          server.url,
          'POST',
          `/api/games/${gameId}/moves`,
          { parse: (v) => v },
          { move, version: legal.version },
          tokens[name],
        );
        if (scoring !== undefined) return;
      }
      throw new Error(`${name} found no scoring move`);
    }
    // Ben scores, then resigns (the race goes on: Ann still plays); both go to the arena from the race table.
    await scoreOnce('Arena Ben');
    await resign('Arena Ben');
    for (const page of Object.values(pages)) {
      await page.getByTestId('race-arena').click({ timeout: 20_000 });
      await page.getByTestId('arena-standings').waitFor();
      expect(
        await page.getByTestId('standing-Arena Ben').getByTestId('standing-points').textContent(),
      ).toContain('0');
    }
    // Then Ann, with nothing: both out, Ben ahead on progress (time ranks winners only), so Ben places first
    // (the arena's win). The standings change on both open pages by the arena frame alone.
    await new Promise((res) => setTimeout(res, 500));
    await resign('Arena Ann');
    for (const page of Object.values(pages))
      await page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid="standing-Arena Ben"] [data-testid=standing-points]')
            ?.textContent?.trim() === '2',
        undefined,
        { timeout: 15_000 },
      );
    expect(
      await (pages['Arena Ann'] as Page)
        .getByTestId('standing-Arena Ann')
        .getByTestId('standing-points')
        .textContent(),
    ).toContain('0');
  }, 90_000);
});
