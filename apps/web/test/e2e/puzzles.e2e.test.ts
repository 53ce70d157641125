/**
 * The Puzzles page in a real browser against the real server (docs/puzzles.md): three deals are won through
 * the API with POST /api/solve's line, the server cuts puzzles from those finished games, and then, as a
 * signed-in player in Chromium: a puzzle is solved with the keyboard on the table and the puzzle rating rises;
 * the next one is answered wrong and the rating falls; the timed run starts and its clock counts down.
 *
 * The answers come from an oracle the way a cheat would get them: a second account attempts the puzzle first
 * and reads the solution in the verdict (a second account's first attempt is its own; the player's rating is
 * still earned by the player's attempt). Moves are played with the table's keys (1–7 and W pick up, 1–7 and F
 * put down, D draws).
 */
import {
  PlayerCreatedSchema,
  PuzzleAttemptResultSchema,
  PuzzleSchema,
  SolveResponseSchema,
  GameResponseSchema,
  StateResponseSchema,
  type Puzzle,
} from '@klondike/protocol';
import {
  foundationMove,
  legalMoves,
  resolveCount,
  sameMove,
  stockMove,
  viewState,
  type Move,
  type PlayerView,
} from '@klondike/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playMove, startPlay, type PuzzlePlay } from '../../src/lib/puzzle';
import {
  apiCall,
  ensureBuilt,
  launchChromium,
  seriousViolations,
  skipReason,
  startServer,
  type Browser,
  type BrowserContext,
  type Page,
  type RunningServer,
} from './harness';

const SKIP = skipReason();
/**
 * Deals to win under classic draw-1 rules (those the solver does not win are left out). Not every won game
 * gives a puzzle (the waste may be empty when the last card turns up), so there are more than the two puzzles
 * needed; `WON` of them are played.
 */
const DEALS = [1, 4, 18, 2, 3, 5, 6, 7, 8, 9, 10, 11] as const;
const WON = 6;

/** The table's keys for `move` in `view`, or null when the keyboard cannot say exactly that move. */
function keysFor(view: PlayerView, move: Move): string[] | null {
  if (move.type === 'draw' || move.type === 'recycle') {
    const m = stockMove(view);
    return m && sameMove(m, move) ? ['d'] : null;
  }
  if (move.type === 'last-pass') return ['l'];
  const from = move.from === 'waste' ? 'w' : /^t[1-7]$/.test(move.from) ? move.from.slice(1) : null;
  if (from === null) return null;
  if (move.to.startsWith('f')) {
    const m = foundationMove(view, move.from);
    return m && sameMove(m, move) ? [from, 'f'] : null;
  }
  return resolveCount(view, move.from, move.to) === move.count ? [from, move.to.slice(1)] : null;
}

/** The keys of a whole answer played from the puzzle's position, or null when one move has none. */
function keysOf(p: Puzzle, moves: readonly Move[]): string[] | null {
  let play: PuzzlePlay = startPlay(p.view, p.goal);
  const keys: string[] = [];
  for (const m of moves) {
    const k = keysFor(play.view, m);
    const r = playMove(play, m);
    if (k === null || !r.ok) return null;
    keys.push(...k);
    play = r.play;
  }
  return keys;
}

/**
 * A complete wrong answer to `p` the keyboard can play: for `only-move` a legal move other than the solution's;
 * for `clear-the-table` a line of legal moves (depth-first) that ends the attempt without clearing the table.
 */
function wrongAnswer(p: Puzzle, solution: readonly Move[]): Move[] | null {
  const search = (play: PuzzlePlay, line: Move[]): Move[] | null => {
    if (play.done) return play.view.status === 'won' ? null : line;
    for (const m of legalMoves(viewState(play.view))) {
      if (p.goal.type === 'only-move' && solution[0] && sameMove(m, solution[0])) continue;
      if (keysFor(play.view, m) === null) continue;
      const r = playMove(play, m);
      if (!r.ok) continue;
      const found = search(r.play, [...line, m]);
      if (found) return found;
    }
    return null;
  };
  return search(startPlay(p.view, p.goal), []);
}

/** "Your puzzle rating: 1500 → 1512." → [1500, 1512]. */
function ratingChange(text: string): [number, number] {
  const m = /(-?\d+)\s*→\s*(-?\d+)/.exec(text);
  if (!m) throw new Error(`no rating change in "${text}"`);
  return [Number(m[1]), Number(m[2])];
}

describe.skipIf(SKIP !== null)(`browser: puzzles${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let player = { id: '', token: '' };
  let oracle = { id: '', token: '' };

  /** Solutions the oracle has read, by puzzle id. */
  const solutions = new Map<string, Move[]>();

  /** The oracle's verdict on puzzle `id` after one legal move: the solution. */
  async function solutionOf(p: Puzzle): Promise<Move[]> {
    const known = solutions.get(p.id);
    if (known) return known;
    const first = legalMoves(viewState(p.view))[0];
    if (!first) throw new Error(`puzzle ${p.id} has no legal move`);
    const r = await apiCall(
      server.url,
      'POST',
      `/api/puzzles/${p.id}/attempt`,
      PuzzleAttemptResultSchema,
      { moves: [first] },
      oracle.token,
    );
    solutions.set(p.id, r.solution);
    return r.solution;
  }

  /**
   * The puzzle the page shows (another than `not`): while the server is still cutting puzzles the page may say
   * none is left; then it is asked again.
   */
  async function shownPuzzle(not?: string): Promise<Puzzle> {
    const shown = not
      ? `[data-testid=puzzle-table][data-puzzle-id]:not([data-puzzle-id="${not}"])`
      : '[data-testid=puzzle-table][data-puzzle-id]';
    for (let i = 0; ; i++) {
      const found = await page.waitForSelector(`${shown}, [data-testid=puzzle-load-error]`, {
        timeout: 60_000,
      });
      const id = await found.getAttribute('data-puzzle-id');
      if (id) {
        await page.waitForSelector('[data-testid=pile-t7]');
        return apiCall(server.url, 'GET', `/api/puzzles/${id}`, PuzzleSchema);
      }
      if (i > 240) throw new Error(await found.innerText());
      await new Promise((r) => setTimeout(r, 500));
      await page.click('[data-testid=puzzle-retry]');
    }
  }

  async function press(keys: readonly string[]): Promise<void> {
    for (const k of keys) await page.keyboard.press(k);
  }

  beforeAll(async () => {
    ensureBuilt();
    server = await startServer(undefined, { DAILY_ARCHIVE_DAYS: '0', PUZZLES_SWEEP_MS: '1000' });
    browser = await launchChromium();
    player = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, { name: 'Puzzler' });
    oracle = await apiCall(server.url, 'POST', '/api/players', PlayerCreatedSchema, { name: 'Oracle' });
    let won = 0;
    for (const dealNumber of DEALS) {
      if (won >= WON) break;
      const solved = await apiCall(server.url, 'POST', '/api/solve', SolveResponseSchema, {
        preset: 'classic-draw1',
        dealNumber,
        timeLimitMs: 30_000,
      });
      if (solved.verdict !== 'won') continue;
      won++;
      const game = await apiCall(server.url, 'POST', '/api/games', GameResponseSchema, {
        preset: 'classic-draw1',
        dealNumber,
      });
      let version = game.version;
      for (const move of solved.line ?? []) {
        const r = await apiCall(server.url, 'POST', `/api/games/${game.id}/moves`, StateResponseSchema, {
          move,
          version,
        });
        version = r.version;
      }
    }
    // The server cuts the won games on a background solver thread: the oracle asks for puzzles (and reads
    // each one's solution, so the next is another) until two exist.
    for (let i = 0; solutions.size < 2; i++) {
      const r = await fetch(`${server.url}/api/puzzles/next`, {
        headers: { authorization: `Bearer ${oracle.token}` },
      });
      if (r.ok) {
        await solutionOf(PuzzleSchema.parse(await r.json()));
        continue;
      }
      expect(r.status).toBe(404);
      if (i > 900) throw new Error(`${solutions.size} puzzle(s) cut`);
      await new Promise((res) => setTimeout(res, 500));
    }
    context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await context.addInitScript((t) => localStorage.setItem('klondike.token', t), player.token);
    page = await context.newPage();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  let firstId = '';

  it('a puzzle solved on the table: correct, the rating rises, the solution is there to play', async () => {
    await page.goto(`${server.url}/puzzles`);
    const p = await shownPuzzle();
    firstId = p.id;
    expect(await page.textContent('[data-testid=puzzle-goal]')).toMatch(
      p.goal.type === 'only-move' ? /only move/ : new RegExp(`in ${p.goal.moves} moves?`),
    );
    const keys = keysOf(p, await solutionOf(p));
    expect(keys, `the solution of ${p.id} can be played with the keys`).not.toBeNull();
    await press(keys ?? []);
    await page.waitForSelector('[data-testid=puzzle-verdict]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid=puzzle-verdict]')).toBe('Correct!');
    const [before, after] = ratingChange(
      (await page.textContent('[data-testid=puzzle-rating-change]')) ?? '',
    );
    expect(after).toBeGreaterThan(before);
    await page.waitForFunction(
      (r) => document.querySelector('[data-testid=puzzle-my-rating]')?.textContent === String(r),
      after,
    );
    expect(await page.textContent('[data-testid=solution-step]')).toMatch(/^Move \d+ of \d+$/);
    // The verdict, the solution's controls and the profile: nothing serious for assistive technology.
    expect(await seriousViolations(page)).toEqual([]);
  }, 180_000);

  it('the next puzzle answered wrong: not this time, the rating falls', async () => {
    await page.click('[data-testid=puzzle-next]');
    const p = await shownPuzzle(firstId);
    const wrong = wrongAnswer(p, await solutionOf(p));
    expect(wrong, `a wrong answer to ${p.id} exists`).not.toBeNull();
    const keys = keysOf(p, wrong ?? []);
    expect(keys).not.toBeNull();
    await press(keys ?? []);
    await page.waitForSelector('[data-testid=puzzle-verdict]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid=puzzle-verdict]')).toBe('Not this time.');
    const [before, after] = ratingChange(
      (await page.textContent('[data-testid=puzzle-rating-change]')) ?? '',
    );
    expect(after).toBeLessThan(before);
  }, 180_000);

  it('the timed run starts with a puzzle and its clock counts down', async () => {
    await page.goto(`${server.url}/puzzles/run`);
    await page.click('[data-testid=run-start]');
    await page.waitForSelector('[data-testid=run-clock]');
    await page.waitForSelector('[data-testid=puzzle-table][data-puzzle-id]');
    await page.waitForFunction(() => {
      const t = document.querySelector('[data-testid=run-clock]')?.textContent?.trim() ?? '';
      return /^[0-2]:[0-5]\d$/.test(t) && t !== '0:00';
    });
    const ms = Number(await page.getAttribute('[data-testid=run-clock]', 'data-ms'));
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(180_000);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
