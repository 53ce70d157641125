// @vitest-environment happy-dom
/**
 * The daily leaderboard page shows the board's distribution (docs/features.md "Statistics"): one bar per winning-time
 * bucket, the caller's bucket marked, and "better than N %" from the server's `youBeat`. The API answer is
 * a fixture served through a stubbed fetch (the page, not the server, is under test here).
 */
import { flushPromises, mount } from '@vue/test-utils';
import { loadSchemas } from '../../src/lib/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory } from 'vue-router';
import DailyLeaderboardPage from '../../src/pages/DailyLeaderboardPage.vue';
import { createAppRouter } from '../../src/router';

const entry = (rank: number, status: string, timeMs: number) => ({
  rank,
  playerId: `p${rank}`,
  name: `Player ${rank}`,
  bot: false,
  status,
  score: 100 - rank,
  timeMs,
  moves: 120,
  finishedAt: '2026-03-10T12:00:00.000Z',
  gameId: `g${rank}`,
  provisional: false,
});

function board(distribution: object) {
  return {
    date: '2026-03-10',
    preset: 'classic-draw1',
    board: 'humans',
    par: 100,
    parProven: false,
    total: 3,
    offset: 0,
    limit: 20,
    nextCursor: null,
    entries: [entry(1, 'won', 95_000), entry(2, 'won', 150_000), entry(3, 'resigned', 20_000)],
    me: entry(2, 'won', 150_000),
    distribution,
  };
}

async function mountWith(distribution: object) {
  // The page parses answers with the protocol's schemas, which load on first use (lib/schemas.ts).
  await loadSchemas();
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(JSON.stringify(board(distribution)), { status: 200 }))),
  );
  const router = createAppRouter(createMemoryHistory());
  await router.push('/daily/2026-03-10/classic-draw1/leaderboard');
  await router.isReady();
  const w = mount(DailyLeaderboardPage, {
    props: { date: '2026-03-10', preset: 'classic-draw1' },
    global: { plugins: [router] },
  });
  await flushPromises();
  return w;
}

afterEach(() => vi.unstubAllGlobals());

describe('daily leaderboard distribution', () => {
  it('bars per bucket, yours marked, and the share you beat', async () => {
    const w = await mountWith({
      finished: 3,
      wins: 2,
      winTimes: {
        bucketMs: 30_000,
        buckets: [
          { fromMs: 90_000, toMs: 120_000, count: 1 },
          { fromMs: 120_000, toMs: 150_000, count: 0 },
          { fromMs: 150_000, toMs: 180_000, count: 1 },
        ],
      },
      yourTimeMs: 150_000,
      youBeat: 0.5,
    });
    const d = w.get('[data-testid="distribution"]');
    expect(d.text()).toContain('2 of 3 won.');
    expect(w.get('[data-testid="you-beat"]').text()).toBe('You did better than 50 % of the other players.');
    const bars = d.findAll('.hist li');
    expect(bars.map((b) => b.attributes('data-count'))).toEqual(['1', '0', '1']);
    expect(bars.map((b) => b.classes().includes('you'))).toEqual([false, false, true]);
    expect(d.text()).toContain('your time, 2:30');
    w.unmount();
  });

  it('no standing without your row; no panel when nobody finished', async () => {
    const w = await mountWith({
      finished: 3,
      wins: 0,
      winTimes: { bucketMs: 60_000, buckets: [] },
      yourTimeMs: null,
      youBeat: null,
    });
    expect(w.find('[data-testid="you-beat"]').exists()).toBe(false);
    expect(w.find('.hist').exists()).toBe(false);
    w.unmount();
    const empty = await mountWith({
      finished: 0,
      wins: 0,
      winTimes: { bucketMs: 60_000, buckets: [] },
      yourTimeMs: null,
      youBeat: null,
    });
    expect(empty.find('[data-testid="distribution"]').exists()).toBe(false);
    empty.unmount();
  });
});
