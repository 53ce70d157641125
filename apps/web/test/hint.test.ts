import type { HintResponse } from '@klondike/protocol';
import type { Move, PileId, PlayerView } from '@klondike/rules';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, ref, shallowRef, type EffectScope } from 'vue';
import { useHint, WINNABLE_KEY, type HintGame, type HintOptions } from '../src/composables/useHint';
import { useNotify } from '../src/composables/useNotify';
import { ApiError } from '../src/lib/api';
import { describeHint, hintHighlight, spokenCard, verdictText } from '../src/lib/hint';
import { makeView } from './fixtures';

const move = (from: PileId, to: PileId, count = 1): Move => ({ type: 'move', from, to, count });

/** A table with something of every kind to hint at. */
const view = makeView({
  tableau: [
    [0, ['7H']],
    [2, ['8S']],
    [0, []],
    [1, ['9C', '8D', '7S']],
    [0, ['KS']],
    [3, ['TD']],
    [0, ['AC']],
  ],
  foundations: { fH: 'AH' },
  waste: ['4D', '2H'],
  stock: 5,
});

describe('describeHint: a hinted move in words', () => {
  it('names the cards and where they go', () => {
    expect(spokenCard('7H')).toBe('the 7 of hearts');
    expect(spokenCard('QS')).toBe('the queen of spades');
    expect(spokenCard('AC')).toBe('the ace of clubs');
    expect(spokenCard('TD')).toBe('the 10 of diamonds');
    expect(describeHint(move('t1', 't2'), view)).toBe('Move the 7 of hearts onto the 8 of spades');
    expect(describeHint(move('waste', 'fH'), view)).toBe('Move the 2 of hearts to its foundation');
    expect(describeHint(move('t7', 'fC'), view)).toBe('Move the ace of clubs to its foundation');
    expect(describeHint(move('t5', 't3'), view)).toBe('Move the king of spades to empty pile 3');
  });

  it('counts the cards riding on a moved run', () => {
    expect(describeHint(move('t4', 't3', 2), view)).toBe(
      'Move the 8 of diamonds and the card on it to empty pile 3',
    );
    expect(describeHint(move('t4', 't6', 3), view)).toBe(
      'Move the 9 of clubs and the 2 cards on it onto the 10 of diamonds',
    );
  });

  it('says draw and recycle plainly', () => {
    expect(describeHint({ type: 'draw' }, view)).toBe('Draw from the stock');
    expect(describeHint({ type: 'recycle' }, view)).toBe('Turn the waste over');
    expect(describeHint({ type: 'last-pass' }, view)).toBe('Take the last pass, one card at a time');
  });

  it('R16: a hinted last pass lights up the stock, only where it is legal', () => {
    const ready = makeView({ preset: 'draw3-last-pass', waste: ['2C'] });
    expect(hintHighlight({ type: 'last-pass' }, ready)).toMatchObject({
      sourcePile: 'stock',
      targetPile: null,
    });
    expect(hintHighlight({ type: 'last-pass' }, makeView({ waste: ['2C'] }))).toBeNull();
  });

  it('falls back to pile numbers when the view lacks the cards', () => {
    expect(describeHint(move('t3', 't1', 2), view)).toBe('Move 2 cards from pile 3 to pile 1');
    expect(describeHint(move('waste', 'fS'), makeView())).toBe(
      'Move 1 card from the waste to the foundation',
    );
  });

  it('has badge words for each verdict', () => {
    expect(verdictText('won')).toBe('Winnable');
    expect(verdictText('impossible')).toBe('No win');
    expect(verdictText('unknown')).toBe('?');
  });
});

describe('hintHighlight: what a hinted move lights up', () => {
  it('a tableau move: the run of `count` top cards, and the target pile', () => {
    expect(hintHighlight(move('t4', 't6', 3), view)).toEqual({
      move: move('t4', 't6', 3),
      sourcePile: 't4',
      sourceCards: ['9C', '8D', '7S'],
      targetPile: 't6',
    });
    const two = makeView({
      tableau: [
        [0, ['9C', '8D', '7S']],
        [0, ['9S']],
      ],
    });
    expect(hintHighlight(move('t1', 't2', 2), two)?.sourceCards).toEqual(['8D', '7S']);
  });

  it('the waste: its top card; a foundation: its top card', () => {
    expect(hintHighlight(move('waste', 'fH'), view)).toMatchObject({
      sourcePile: 'waste',
      sourceCards: ['2H'],
      targetPile: 'fH',
    });
    const back = makeView({ tableau: [[0, ['3C']]], foundations: { fH: '2H' } });
    expect(hintHighlight(move('fH', 't1'), back)).toMatchObject({ sourceCards: ['2H'], targetPile: 't1' });
  });

  it('draw and recycle: the stock, no target', () => {
    expect(hintHighlight({ type: 'draw' }, view)).toEqual({
      move: { type: 'draw' },
      sourcePile: 'stock',
      sourceCards: [],
      targetPile: null,
    });
    const empty = makeView({ waste: ['4D'], stock: 0 });
    expect(hintHighlight({ type: 'recycle' }, empty)).toMatchObject({
      sourcePile: 'stock',
      targetPile: null,
    });
  });

  it('null for a move that does not fit the view (a stale hint)', () => {
    expect(hintHighlight(move('t1', 't6'), view)).toBeNull();
    expect(hintHighlight({ type: 'recycle' }, view)).toBeNull();
    expect(hintHighlight(move('t1', 't2'), { ...view, status: 'blocked' })).toBeNull();
  });
});

// ---------- the composable ----------

interface Deferred {
  readonly id: string;
  resolve(h: HintResponse): void;
  reject(e: unknown): void;
}

function setup(start: PlayerView = view, opts: Partial<HintOptions> = {}) {
  const game = {
    gameId: ref<string | null>('g1'),
    version: ref(0),
    view: shallowRef<PlayerView | null>(start),
  } satisfies HintGame;
  const calls: Deferred[] = [];
  const asked = (id: string) =>
    new Promise<HintResponse>((resolve, reject) => {
      calls.push({ id, resolve, reject });
    });
  // The button asks the hint route, the badge its own route (the same answer, its own allowance).
  const fetchHint = vi.fn(asked);
  const fetchWinnable = vi.fn(asked);
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
  };
  const scope: EffectScope = effectScope();
  const hint = scope.run(() => useHint(game, { fetchHint, fetchWinnable, storage, ...opts })) as ReturnType<
    typeof useHint
  >;
  /** Moves the game on to `version` with a new view object. */
  const advance = (version: number, v: PlayerView = { ...game.view.value! }) => {
    game.version.value = version;
    game.view.value = v;
  };
  return { game, hint, calls, fetchHint, fetchWinnable, store, storage, scope, advance };
}

const settle = () => vi.advanceTimersByTimeAsync(40);

describe('useHint: the Hint button', () => {
  const notify = useNotify();
  let scope: EffectScope | null = null;
  beforeEach(() => {
    vi.useFakeTimers();
    notify.toasts.splice(0);
  });
  afterEach(() => {
    scope?.stop();
    scope = null;
    vi.useRealTimers();
  });

  it('shows a winning move: spinner while waiting, then the highlight and the words, for ~2.5 s', async () => {
    const t = setup();
    scope = t.scope;
    expect(t.hint.available.value).toBe(true);
    const done = t.hint.request();
    expect(t.hint.pending.value).toBe(true);
    expect(t.fetchHint).toHaveBeenCalledWith('g1');
    t.calls[0]!.resolve({ version: 0, verdict: 'won', move: move('t1', 't2'), lineLength: 40 });
    await done;
    await settle();
    expect(t.hint.pending.value).toBe(false);
    expect(t.hint.highlight.value).toMatchObject({ sourcePile: 't1', sourceCards: ['7H'], targetPile: 't2' });
    expect(notify.announcement.value).toBe('Hint: Move the 7 of hearts onto the 8 of spades.');
    await vi.advanceTimersByTimeAsync(2500);
    expect(t.hint.highlight.value).toBeNull();
  });

  it('a new position ends the highlight at once', async () => {
    const t = setup();
    scope = t.scope;
    const done = t.hint.request();
    t.calls[0]!.resolve({ version: 0, verdict: 'won', move: move('t1', 't2') });
    await done;
    await settle();
    expect(t.hint.highlight.value).not.toBeNull();
    t.advance(1);
    await nextTick();
    expect(t.hint.highlight.value).toBeNull();
  });

  it('drops an answer for a version that is no longer current', async () => {
    const t = setup();
    scope = t.scope;
    const done = t.hint.request();
    t.advance(1); // the player moved while the solver thought
    t.calls[0]!.resolve({ version: 0, verdict: 'won', move: move('t1', 't2') });
    await done;
    await settle();
    expect(t.hint.highlight.value).toBeNull();
    expect(t.hint.notice.value).toBeNull();
    expect(t.hint.pending.value).toBe(false);
    expect(notify.announcement.value).toBe('The position changed; ask for a hint again.');
  });

  it('waits briefly for a state the server already has', async () => {
    const t = setup();
    scope = t.scope;
    const done = t.hint.request();
    t.calls[0]!.resolve({ version: 1, verdict: 'won', move: move('t1', 't2') });
    await vi.advanceTimersByTimeAsync(100);
    t.advance(1);
    await done;
    await settle();
    expect(t.hint.highlight.value).toMatchObject({ targetPile: 't2' });
  });

  it('impossible and unknown become notices (gone with the next version)', async () => {
    const t = setup();
    scope = t.scope;
    let done = t.hint.request();
    t.calls[0]!.resolve({ version: 0, verdict: 'impossible' });
    await done;
    await settle();
    expect(t.hint.notice.value).toEqual({ kind: 'impossible', version: 0 });
    expect(notify.announcement.value).toMatch(/^No win from here/);
    t.advance(1);
    await nextTick();
    expect(t.hint.notice.value).toBeNull();
    done = t.hint.request();
    t.calls[1]!.resolve({ version: 1, verdict: 'unknown' });
    await done;
    await settle();
    expect(t.hint.notice.value).toEqual({ kind: 'unknown', version: 1 });
    expect(notify.announcement.value).toMatch(/^Couldn't decide in time/);
  });

  it('errors go to a toast', async () => {
    const t = setup();
    scope = t.scope;
    const done = t.hint.request();
    t.calls[0]!.reject(new ApiError('solver-busy', 'busy', 503));
    await done;
    expect(notify.toasts.map((x) => x.text)).toEqual(['The solver is busy; try again in a moment.']);
    expect(t.hint.pending.value).toBe(false);
  });

  it('never asks when the game has hints off, or is over', async () => {
    const ranked = { ...view, options: { ...view.options, hints: false } };
    const t = setup(ranked);
    scope = t.scope;
    t.hint.badgeEnabled.value = true;
    expect(t.hint.available.value).toBe(false);
    await t.hint.request();
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.fetchHint).not.toHaveBeenCalled();
    expect(t.hint.badge.value).toBeNull();
    expect(notify.announcement.value).toBe('Hints are off for this game.');
    t.advance(1, { ...view, status: 'won' });
    await t.hint.request();
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.fetchHint).not.toHaveBeenCalled();
  });
});

describe('useHint: the winnable badge', () => {
  let scope: EffectScope | null = null;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    scope?.stop();
    scope = null;
    vi.useRealTimers();
  });

  it('is off by default, remembered when turned on', async () => {
    const t = setup();
    scope = t.scope;
    expect(t.hint.badgeEnabled.value).toBe(false);
    expect(t.hint.badge.value).toBeNull();
    t.hint.badgeEnabled.value = true;
    await settle();
    expect(t.store.get(WINNABLE_KEY)).toBe('1');
    const again = effectScope();
    const h2 = again.run(() =>
      useHint(t.game, { fetchHint: t.fetchHint, fetchWinnable: t.fetchWinnable, storage: t.storage }),
    );
    expect(h2?.badgeEnabled.value).toBe(true);
    again.stop();
  });

  it('asks once per version after a quiet ~800 ms, spinner meanwhile', async () => {
    const t = setup();
    scope = t.scope;
    t.hint.badgeEnabled.value = true;
    await vi.advanceTimersByTimeAsync(500);
    expect(t.hint.badge.value).toBe('checking');
    t.advance(1);
    await vi.advanceTimersByTimeAsync(500);
    t.advance(2);
    await vi.advanceTimersByTimeAsync(700);
    expect(t.fetchWinnable).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(t.fetchWinnable).toHaveBeenCalledTimes(1);
    expect(t.hint.badge.value).toBe('checking');
    t.calls[0]!.resolve({ version: 2, verdict: 'won', move: move('t1', 't2') });
    await settle();
    expect(t.hint.badge.value).toBe('won');
    // The button reuses the badge's answer: the hint route is not asked (its allowance is kept).
    await t.hint.request();
    await settle();
    expect(t.fetchWinnable).toHaveBeenCalledTimes(1);
    expect(t.fetchHint).not.toHaveBeenCalled();
    expect(t.hint.highlight.value).toMatchObject({ targetPile: 't2' });
    // A new version: checking again.
    t.advance(3);
    expect(t.hint.badge.value).toBe('checking');
    await vi.advanceTimersByTimeAsync(800);
    t.calls[1]!.resolve({ version: 3, verdict: 'impossible' });
    await settle();
    expect(t.hint.badge.value).toBe('impossible');
  });

  it('shows unknown and errors, and ignores an answer for an old version', async () => {
    const t = setup();
    scope = t.scope;
    t.hint.badgeEnabled.value = true;
    await vi.advanceTimersByTimeAsync(800);
    t.calls[0]!.resolve({ version: 0, verdict: 'unknown' });
    await settle();
    expect(t.hint.badge.value).toBe('unknown');
    t.advance(1);
    await vi.advanceTimersByTimeAsync(800);
    t.advance(2);
    t.calls[1]!.resolve({ version: 1, verdict: 'impossible' });
    await settle();
    expect(t.hint.badge.value).toBe('checking');
    await vi.advanceTimersByTimeAsync(800);
    t.calls[2]!.reject(new ApiError('rate-limited', 'slow down', 429));
    await settle();
    expect(t.hint.badge.value).toBe('error');
  });

  it('hides once the game is over', async () => {
    const t = setup();
    scope = t.scope;
    t.hint.badgeEnabled.value = true;
    t.advance(1, { ...view, status: 'blocked' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(t.hint.badge.value).toBeNull();
    expect(t.fetchWinnable).not.toHaveBeenCalled();
  });
});
