import { describe, expect, it } from 'vitest';
import { cardName, parseDealText } from '../src/lib/cards';
import { describeMove, formatTime } from '../src/lib/format';
import { backoffDelay } from '../src/composables/useSocket';
import { clockRunning } from '../src/composables/useElapsed';
import { makeView } from './fixtures';

describe('cards', () => {
  it('names cards as people say them', () => {
    expect(cardName('QD')).toBe('Queen of diamonds');
    expect(cardName('TH')).toBe('Ten of hearts');
  });

  it('validates a pasted deal', () => {
    const codes = 'A23456789TJQK'.split('').flatMap((r) => 'CDHS'.split('').map((s) => r + s));
    expect(parseDealText(codes.join(' ').toLowerCase())).toEqual({ ok: true, deal: codes.join(' ') });
    expect(parseDealText(codes.join(',\n'))).toMatchObject({ ok: true });
    expect(parseDealText(codes.slice(1).join(' '))).toMatchObject({ ok: false });
    expect(parseDealText([...codes.slice(1), 'AD'].join(' '))).toMatchObject({
      ok: false,
      error: 'Card AD appears twice.',
    });
  });
});

describe('formatting', () => {
  it('formats the timer', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(65_400)).toBe('1:05');
    expect(formatTime(3_725_000)).toBe('1:02:05');
  });

  it('describes moves for the live region', () => {
    const before = makeView({ tableau: [[0, ['9H', '8C']]], waste: ['AH'] });
    expect(describeMove({ type: 'move', from: 't1', to: 't2', count: 2 }, before, before)).toBe(
      'Moved Nine of hearts and 1 more to pile 2.',
    );
    expect(describeMove({ type: 'move', from: 'waste', to: 'fH', count: 1 }, before, before)).toBe(
      'Moved Ace of hearts to its foundation.',
    );
    expect(describeMove({ type: 'draw' }, before, makeView({ waste: ['5S'] }))).toBe('Drew Five of spades.');
    expect(describeMove({ type: 'last-pass' }, before, makeView({ stock: 1 }))).toBe(
      'Last pass: the waste is turned over. From now on each draw turns one card, and no redeal follows.',
    );
  });
});

describe('socket backoff and clock', () => {
  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelay(0, 300, 8000, () => 0)).toBe(150);
    expect(backoffDelay(0, 300, 8000, () => 1)).toBe(300);
    expect(backoffDelay(3, 300, 8000, () => 1)).toBe(2400);
    expect(backoffDelay(10, 300, 8000, () => 1)).toBe(8000);
    expect(backoffDelay(100, 300, 8000, () => 0.5)).toBe(6000);
  });

  it('the clock runs only in play after the first move (a ranked attempt: from its creation)', () => {
    expect(clockRunning(null)).toBe(false);
    expect(clockRunning({ version: 0, view: makeView() })).toBe(false);
    // A ranked attempt's clock runs from its creation (the server starts it when the cards are shown).
    const rankedView = makeView();
    const ranked = { ...rankedView, options: { ...rankedView.options, undo: false, hints: false } };
    expect(clockRunning({ version: 0, view: ranked })).toBe(true);
    expect(clockRunning({ version: 1, view: { ...makeView(), moves: 1 } })).toBe(true);
    expect(clockRunning({ version: 9, view: { ...makeView(), moves: 3, status: 'won' } })).toBe(false);
  });
});
