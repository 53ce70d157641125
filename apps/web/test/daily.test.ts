import {
  PRESETS,
  applyMove,
  dealFromNumber,
  formatDeal,
  legalMoves,
  newGame,
  type GameState,
} from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { nameProblem } from '../src/lib/playerName';
import {
  formatCountdown,
  formatDate,
  formatRate,
  offsetOfPage,
  movesVsPar,
  offsetOfRank,
  pageCount,
  pageIndex,
  pageWindow,
  parLabel,
  rangeText,
  shareText,
} from '../src/lib/daily';
import { buildReplay, clampFrame, stepDelay, type ReplayStep } from '../src/lib/replay';
import { dailyLeaderboardPath, playerPath, replayPath, takeSignIn } from '../src/lib/route';

describe('countdown', () => {
  it('formats h:mm:ss, rounding partial seconds up, never negative', () => {
    expect(formatCountdown(0)).toBe('0:00:00');
    expect(formatCountdown(-5000)).toBe('0:00:00');
    expect(formatCountdown(1)).toBe('0:00:01');
    expect(formatCountdown(59_001)).toBe('0:01:00');
    expect(formatCountdown(3_600_000)).toBe('1:00:00');
    expect(formatCountdown(23 * 3_600_000 + 59 * 60_000 + 59_000)).toBe('23:59:59');
    expect(formatCountdown(86_400_000 + 3_723_000)).toBe('1d 1:02:03');
  });

  it('formats UTC dates in fixed English', () => {
    expect(formatDate('2026-11-21')).toBe('Sat 21 Nov 2026');
    expect(formatDate('2026-01-01', false)).toBe('Thu 1 Jan');
    expect(formatDate('nonsense')).toBe('nonsense');
    expect(formatRate(0.666)).toBe('67%');
  });
});

describe('share text', () => {
  const base = {
    date: '2026-11-21',
    preset: 'classic-draw1',
    status: 'won',
    timeMs: 252_000,
    moves: 131,
    par: 98,
  } as const;

  it('says date, preset, won in so many moves against par, and the time', () => {
    const t = shareText(base);
    expect(t.split('\n')).toEqual([
      'Klondike Daily 2026-11-21 · Draw 1',
      '★ Won in 131 moves, par 98 · 4:12',
    ]);
  });

  it('says lost for a resignation or a blocked game, and adds rank and link when known', () => {
    const t = shareText({
      ...base,
      preset: 'classic-draw3',
      status: 'resigned',
      moves: 1,
      rank: 3,
      total: 40,
      url: 'https://x/daily',
    });
    expect(t).toContain('Draw 3');
    expect(t).toContain('Lost (resigned) after 1 move ·');
    expect(t).not.toContain('par'); // par is the length of a win: beside a loss it means nothing
    expect(t).toContain('Rank #3 of 40');
    expect(t.endsWith('https://x/daily')).toBe(true);
    expect(shareText({ ...base, status: 'blocked' })).toContain('Lost (no moves left)');
    expect(shareText({ ...base, par: null })).not.toContain('par');
  });

  it('never names a card', () => {
    for (const status of ['won', 'resigned', 'blocked'] as const)
      expect(shareText({ ...base, status, rank: 7, total: 9 })).not.toMatch(/\b[A2-9TJQK][CDHS]\b/);
  });
});

describe('leaderboard paging', () => {
  it('counts pages and finds the page of an offset or a rank', () => {
    expect(pageCount({ total: 0, offset: 0, limit: 20 })).toBe(1);
    expect(pageCount({ total: 41, offset: 0, limit: 20 })).toBe(3);
    expect(pageIndex({ total: 41, offset: 40, limit: 20 })).toBe(2);
    expect(offsetOfRank(1, 20)).toBe(0);
    expect(offsetOfRank(20, 20)).toBe(0);
    expect(offsetOfRank(21, 20)).toBe(20);
    expect(offsetOfRank(0, 20)).toBe(0);
  });

  it('clamps a page to the pages that exist', () => {
    expect(offsetOfPage(1, { total: 41, limit: 20 })).toBe(20);
    expect(offsetOfPage(9, { total: 41, limit: 20 })).toBe(40);
    expect(offsetOfPage(-1, { total: 41, limit: 20 })).toBe(0);
    expect(offsetOfPage(3, { total: 0, limit: 20 })).toBe(0);
  });

  it('shows first, last and neighbours, with gaps', () => {
    expect(pageWindow(0, 1)).toEqual([0]);
    expect(pageWindow(0, 3)).toEqual([0, 1, 2]);
    expect(pageWindow(5, 10)).toEqual([0, null, 4, 5, 6, null, 9]);
    expect(pageWindow(2, 10)).toEqual([0, 1, 2, 3, null, 9]); // a gap of one page shows that page
    expect(pageWindow(9, 10)).toEqual([0, null, 8, 9]);
  });

  it('describes the range shown', () => {
    expect(rangeText({ total: 0, offset: 0, limit: 20 }, 0)).toBe('No results yet');
    expect(rangeText({ total: 57, offset: 40, limit: 20 }, 17)).toBe('41–57 of 57');
  });
});

describe('routes of the daily pages', () => {
  it('builds the paths of the daily pages', () => {
    expect(dailyLeaderboardPath('2026-01-02', 'classic-draw1')).toBe(
      '/daily/2026-01-02/classic-draw1/leaderboard',
    );
    expect(playerPath('a b')).toBe('/players/a%20b');
    expect(replayPath('x')).toBe('/replay/x');
  });
  it('takes a sign-in code out of the URL; a token in the URL is stripped, never taken', () => {
    expect(takeSignIn('/', '?token=abc')).toEqual({ code: null, hadToken: true, cleanUrl: '/' });
    expect(takeSignIn('/daily', '?deal=5&token=t%2B1', '#x')).toEqual({
      code: null,
      hadToken: true,
      cleanUrl: '/daily?deal=5#x',
    });
    expect(takeSignIn('/', '?deal=5')).toEqual({ code: null, hadToken: false, cleanUrl: '/?deal=5' });
    expect(takeSignIn('/', '?token=')).toEqual({ code: null, hadToken: true, cleanUrl: '/' });
    // Sign-in links: a single-use code in the fragment.
    expect(takeSignIn('/', '', '#signin=0A1B2C')).toEqual({ code: '0A1B2C', hadToken: false, cleanUrl: '/' });
    expect(takeSignIn('/', '', '#signin=bad code')).toEqual({
      code: null,
      hadToken: false,
      cleanUrl: '/#signin=bad code',
    });
  });
});

describe('player names', () => {
  it('checks names like the server', () => {
    expect(nameProblem('')).toBe('Choose a name.');
    expect(nameProblem('ab')).toBe('At least 3 characters.');
    expect(nameProblem('x'.repeat(21))).toBe('At most 20 characters.');
    expect(nameProblem('a  b')).toBe('Only single spaces between words.');
    expect(nameProblem('no!pe')).toMatch(/Letters, digits/);
    expect(nameProblem('  Ada Lovelace ')).toBeNull();
    expect(nameProblem('Zoë_1.x-y')).toBeNull();
    expect(nameProblem('王小明')).toBeNull();
    // Deceptive names (issue 55): refused in the browser as by the server, with the characters' message.
    expect(nameProblem('\u3164\u3164\u3164')).toMatch(/Letters, digits/); // Hangul fillers
    expect(nameProblem('bo\u200Bb')).toMatch(/Letters, digits/); // zero-width space
    expect(nameProblem('b\u043Ebby')).toMatch(/Letters, digits/); // Cyrillic о in a Latin word
  });
});

describe('replay stepping', () => {
  const options = PRESETS['classic-draw1'];
  const dealt = dealFromNumber(617);
  if (!dealt.ok) throw new Error('deal 617');
  const deal = formatDeal(dealt.value);

  /** The first `n` legal moves of a greedy line, as logged steps 1 s apart. */
  function steps(n: number): ReplayStep[] {
    let s: GameState = newGame(dealt.ok ? dealt.value : [], options);
    const out: ReplayStep[] = [];
    for (let i = 0; i < n; i++) {
      const m = legalMoves(s)[0];
      if (!m) break;
      const r = applyMove(s, m);
      if (!r.ok) break;
      s = r.value;
      out.push({ type: 'move', move: m, atMs: (i + 1) * 1000 });
    }
    return out;
  }

  it('rebuilds one position per step from the deal', () => {
    const log = steps(12);
    const b = buildReplay(deal, options, log);
    expect(b.ok).toBe(true);
    expect(b.frames).toHaveLength(log.length + 1);
    expect(b.frames[0]?.view.moves).toBe(0);
    expect(b.frames[0]?.caption).toBe('The deal.');
    expect(b.frames.at(-1)?.view.moves).toBe(log.length);
    expect(b.frames.at(-1)?.atMs).toBe(log.length * 1000);
    // Face-down cards stay hidden: the table renders the same player view as a live game.
    expect(b.frames[0]?.view.tableau[6]?.faceDown).toBe(6);
    expect(b.frames[1]?.caption).toMatch(/^(Drew|Moved|Turned)/);
  });

  it('applies undo and resign steps', () => {
    const log = steps(2);
    const b = buildReplay(deal, { ...options, undo: true }, [
      ...log,
      { type: 'undo', atMs: 3000 },
      { type: 'resign', atMs: 4000 },
    ]);
    expect(b.ok).toBe(true);
    expect(b.frames[3]?.caption).toBe('Undid a move.');
    expect(b.frames[4]?.view.status).toBe('resigned');
  });

  it('stops at a step that does not apply', () => {
    const b = buildReplay(deal, options, [
      { type: 'move', move: { type: 'move', from: 't1', to: 'fS', count: 5 }, atMs: 0 },
    ]);
    expect(b.ok).toBe(false);
    expect(b.frames).toHaveLength(1);
    expect(buildReplay('nonsense', options, []).ok).toBe(false);
  });

  it('paces playback by the real gaps, clamped, and stops at the end', () => {
    const frames = [{ atMs: 0 }, { atMs: 1000 }, { atMs: 1050 }, { atMs: 60_000 }];
    expect(stepDelay(frames, 0, 1)).toBe(1000);
    expect(stepDelay(frames, 0, 2)).toBe(500);
    expect(stepDelay(frames, 1, 1)).toBe(160);
    expect(stepDelay(frames, 2, 1)).toBe(1400);
    expect(stepDelay(frames, 3, 1)).toBeNull();
    expect(clampFrame(-3, 4)).toBe(0);
    expect(clampFrame(9, 4)).toBe(3);
    expect(clampFrame(2.4, 4)).toBe(2);
    expect(clampFrame(5, 0)).toBe(0);
  });
});

describe('par labels', () => {
  it('a proven par reads "par N (proven shortest)", an unproven one "par ≤ N"', () => {
    expect(parLabel(104, true)).toBe('par 104 (proven shortest)');
    expect(parLabel(118, false)).toBe('par ≤ 118');
  });

  it("a row's moves against par: over, under and on par", () => {
    expect(movesVsPar(130, 118)).toBe('+12');
    expect(movesVsPar(115, 118)).toBe('\u22123');
    expect(movesVsPar(118, 118)).toBe('±0');
  });
});
