// @vitest-environment happy-dom
/**
 * The Puzzles page and the timed run against stubbed API answers (the page and its composables are under
 * test here, not the server): a puzzle is played with the keyboard as on the table, its answer is sent once
 * complete, and the verdict with the rating before → after and the solution are shown; a player who wants
 * to cheat gets nothing from an illegal move (nothing is sent); no puzzle left and a network failure say
 * so; the run's clock is the server's `remainingMs` (a wrong answer's penalty shows at once), and a stale
 * run puzzle (409) ends the run with a clear message.
 */
import type { Puzzle, PuzzleRun } from '@klondike/protocol';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick } from 'vue';
import { createMemoryHistory } from 'vue-router';
import { usePlayer } from '../../src/composables/usePlayer';
import { usePuzzleRun } from '../../src/composables/usePuzzleRun';
import { loadMessageSection } from '../../src/i18n';
import { loadSchemas } from '../../src/lib/schemas';
import PuzzleResult from '../../src/components/PuzzleResult.vue';
import PuzzlesPage from '../../src/pages/PuzzlesPage.vue';
import { createAppRouter } from '../../src/router';
import { clearGoal, clearLine, clearView, onlyView, servedPuzzle } from '../puzzleFixtures';

interface Call {
  method: string;
  path: string;
  body: unknown;
}
type Answer = { status: number; body: unknown };

/** Stubs fetch: `answer(method, path, body)` answers each call; every call is recorded. */
function stubApi(answer: (method: string, path: string, body: unknown) => Answer): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const path = new URL(url, 'http://localhost').pathname;
      calls.push({ method, path, body });
      const a = answer(method, path, body);
      return Promise.resolve(
        new Response(JSON.stringify(a.body), {
          status: a.status,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }),
  );
  return calls;
}

const notFound = (message = 'no'): Answer => ({
  status: 404,
  body: { error: { code: 'not-found', message } },
});
const ok = (body: unknown): Answer => ({ status: 200, body });

const clearPuzzle = servedPuzzle('p1', clearView, clearGoal);
const profile = {
  playerId: 'me1',
  rating: 1512,
  deviation: 180,
  attempts: 1,
  solved: 1,
  history: [{ at: '2026-12-06T10:00:00.000Z', rating: 1512 }],
  themes: [{ theme: 'clear-the-table', attempts: 1, solved: 1 }],
  bestRun: { today: null, allTime: 7 },
};

function key(k: string): void {
  window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
}

async function mountPage() {
  const router = createAppRouter(createMemoryHistory());
  await router.push('/puzzles');
  await router.isReady();
  const w = mount(PuzzlesPage, { props: {}, global: { plugins: [router] }, attachTo: document.body });
  await flushPromises();
  return w;
}

beforeAll(async () => {
  await loadSchemas();
  await loadMessageSection('puzzles');
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('the Puzzles page', () => {
  it('states the goal, takes the answer from the keyboard, sends it once complete and shows the verdict', async () => {
    usePlayer().token.value = 'tok';
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/api/puzzles/next') return ok(clearPuzzle);
      if (method === 'GET' && path === '/api/puzzles/daily')
        return ok({
          date: '2026-12-06',
          puzzle: servedPuzzle('d1', onlyView, { type: 'only-move', moves: 1 }),
        });
      if (method === 'GET' && path === '/api/puzzles/me') return ok(profile);
      if (method === 'POST' && path === '/api/puzzles/p1/attempt')
        return ok({
          correct: true,
          solution: clearLine,
          rating: { before: 1500, after: 1512 },
          puzzleRating: { before: 1480, after: 1474 },
          rated: true,
        });
      return notFound();
    });
    const w = await mountPage();
    expect(w.get('[data-testid=puzzle-goal]').text()).toBe('Clear the table in 5 moves.');
    expect(w.get('[data-testid=puzzle-daily-card]').text()).toContain('Puzzle of the day');
    expect(w.get('[data-testid=puzzle-my-rating]').text()).toBe('1512');

    // A cheat's try first: a king under its queen cannot go home (R8); nothing is sent.
    key('4');
    key('f');
    await flushPromises();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    key('Escape');

    // The answer: 1 F (QH home), then each king.
    for (const pile of ['1', '1', '2', '3', '4']) {
      key(pile);
      key('f');
      await nextTick();
    }
    await flushPromises();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ moves: clearLine });
    const verdict = w.get('[data-testid=puzzle-verdict]');
    expect(verdict.text()).toBe('Correct!');
    expect(w.get('[data-testid=puzzle-rating-change]').text()).toContain('1500 → 1512');
    expect(w.find('[data-testid=puzzle-result] [role=status]').exists()).toBe(true);
    expect(w.get('[data-testid=solution-step]').text()).toBe('Move 0 of 5');
    w.unmount();
  });

  it('no puzzle left (404) and a network failure are said in words, with a way to try again', async () => {
    usePlayer().token.value = 'tok';
    let fail: 'none-left' | 'network' = 'none-left';
    stubApi((_method, path) => {
      if (path === '/api/puzzles/next' && fail === 'network') throw new TypeError('Failed to fetch');
      return notFound();
    });
    const w = await mountPage();
    expect(w.get('[data-testid=puzzle-load-error]').text()).toContain('No puzzle left for you here');
    fail = 'network';
    await w.get('[data-testid=puzzle-retry]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid=puzzle-load-error]').text()).toContain('The server cannot be reached');
    w.unmount();
  });
});

describe('a guest on the Puzzles page', () => {
  it('is shown the public puzzle of the day (the next puzzle is for players) and offered the sign-up', async () => {
    usePlayer().token.value = null;
    const daily = servedPuzzle('d1', onlyView, { type: 'only-move', moves: 1 });
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/api/puzzles/daily') return ok({ date: '2026-12-06', puzzle: daily });
      return { status: 401, body: { error: { code: 'unauthorized', message: 'a player token is needed' } } };
    });
    const w = await mountPage();
    expect(w.get('[data-testid=puzzle-table]').attributes('data-puzzle-id')).toBe('d1');
    expect(w.get('[data-testid=puzzle-goal]').text()).toBe(
      'Find the only move that keeps the deal winnable.',
    );
    expect(w.get('[data-testid=puzzle-is-daily]').text()).toContain('2026-12-06');
    expect(w.find('[data-testid=puzzle-sign-up]').exists()).toBe(true);
    expect(calls.some((c) => c.path === '/api/puzzles/next' || c.path === '/api/puzzles/me')).toBe(false);
    // The answer of a guest waits for the sign-up: the dialog opens, nothing is sent.
    key('1');
    key('2');
    await flushPromises();
    expect(usePlayer().dialog.value).toBe('signup');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    usePlayer().closeDialog();
    await flushPromises();
    expect(w.get('[data-testid=puzzle-table]').attributes('data-done')).toBe('false');
    w.unmount();
  });
});

describe('the verdict', () => {
  it('a wrong, unrated answer says so and keeps the rating', () => {
    const w = mount(PuzzleResult, {
      props: {
        result: {
          correct: false,
          solution: [],
          rating: { before: 1500, after: 1500 },
          puzzleRating: { before: 1480, after: 1480 },
          rated: false,
        },
        step: 0,
        steps: 0,
        caption: '',
      },
    });
    expect(w.get('[data-testid=puzzle-verdict]').attributes('data-correct')).toBe('false');
    expect(w.get('[data-testid=puzzle-verdict]').text()).toBe('Not this time.');
    expect(w.find('[data-testid=puzzle-rating-change]').exists()).toBe(false);
    expect(w.get('[data-testid=puzzle-unrated]').text()).toContain('Not rated');
  });
});

describe('the timed run', () => {
  function run(over: Partial<PuzzleRun>, puzzle: Puzzle | null): PuzzleRun {
    return {
      id: 'r1',
      startedAt: '2026-12-06T10:00:00.000Z',
      endsAt: '2026-12-06T10:03:00.000Z',
      remainingMs: 180_000,
      solved: 0,
      wrong: 0,
      score: 0,
      finished: false,
      puzzle,
      ...over,
    };
  }

  it('counts down from the server’s remainingMs; a wrong answer costs time at once; a stale puzzle (409) ends it', async () => {
    usePlayer().token.value = 'tok';
    const only = servedPuzzle('q1', onlyView, { type: 'only-move', moves: 1 });
    let answers = 0;
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === '/api/puzzles/runs') return ok(run({}, only));
      if (method === 'POST' && path === '/api/puzzles/runs/r1/answer') {
        answers++;
        if (answers === 1)
          return ok({
            correct: false,
            solution: [{ type: 'move', from: 't1', to: 't2', count: 1 }],
            run: run(
              { remainingMs: 160_000, wrong: 1 },
              servedPuzzle('q2', onlyView, { type: 'only-move', moves: 1 }),
            ),
          });
        return { status: 409, body: { error: { code: 'conflict', message: 'not the current puzzle' } } };
      }
      return ok({ period: 'day', date: '2026-12-06', entries: [], me: null, nextCursor: null });
    });
    let now = 1_000;
    const scope = effectScope();
    const r = scope.run(() => usePuzzleRun(() => now)) as ReturnType<typeof usePuzzleRun>;
    r.start();
    await flushPromises();
    expect(r.phase.value).toBe('running');
    expect(r.remainingMs.value).toBe(180_000);
    now += 5_000;
    r.tick();
    expect(r.remainingMs.value).toBe(175_000);

    // A draw is legal but not the answer: the server says wrong and moves the end 10 s (plus the time spent).
    r.board.move({ type: 'draw' });
    await flushPromises();
    expect(calls.filter((c) => c.path.endsWith('/answer'))[0]?.body).toEqual({
      puzzleId: 'q1',
      moves: [{ type: 'draw' }],
    });
    expect(r.last.value).toEqual({ correct: false });
    expect(r.remainingMs.value).toBe(160_000);
    expect(r.board.puzzle.value?.id).toBe('q2');

    r.board.move({ type: 'move', from: 't1', to: 't2', count: 1 });
    await flushPromises();
    expect(r.phase.value).toBe('error');
    expect(r.error.value).toContain('no longer the run');

    scope.stop();
  });

  it('the run is over at 0 by the clock: the final score and the boards', async () => {
    usePlayer().token.value = 'tok';
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === '/api/puzzles/runs')
        return ok(
          run(
            { remainingMs: 2_000, solved: 4, score: 4 },
            servedPuzzle('q1', onlyView, { type: 'only-move', moves: 1 }),
          ),
        );
      return ok({ period: 'day', date: '2026-12-06', entries: [], me: null, nextCursor: null });
    });
    let now = 0;
    const scope = effectScope();
    const r = scope.run(() => usePuzzleRun(() => now)) as ReturnType<typeof usePuzzleRun>;
    r.start();
    await flushPromises();
    now += 2_000;
    r.tick();
    await flushPromises();
    expect(r.phase.value).toBe('over');
    expect(r.run.value?.score).toBe(4);
    expect(r.remainingMs.value).toBe(0);
    expect(calls.filter((c) => c.path === '/api/puzzles/runs/board')).toHaveLength(2);
    scope.stop();
  });
});
