/**
 * The think-time profile (features/signals/think-time.ts) and the thresholds' pure rules
 * (features/signals/thresholds.ts): properties over random logs, the documented edge cases, and the flags
 * a game's signals pass — as a player trying to slip under them would test them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAST_GAP_MS, gapsOf, thinkTime } from '../../../src/features/signals/think-time.js';
import { THRESHOLDS, binomialTail, flagsOf, isSuspect } from '../../../src/features/signals/thresholds.js';

/** Moves `gaps` apart, from t = 1000. */
const timed = (gaps: readonly number[]): { at: number }[] => {
  let at = 1_000;
  return [{ at }, ...gaps.map((g) => ({ at: (at += g) }))];
};

describe('think-time profile', () => {
  it('fastShare is in [0, 1], the median within the gaps, the variation non-negative', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 200 }), (gaps) => {
        const t = thinkTime(timed(gaps));
        expect(t.moves).toBe(gaps.length + 1);
        expect(t.fastShare).toBeGreaterThanOrEqual(0);
        expect(t.fastShare).toBeLessThanOrEqual(1);
        expect(t.medianGapMs).toBeGreaterThanOrEqual(Math.min(...gaps));
        expect(t.medianGapMs).toBeLessThanOrEqual(Math.max(...gaps));
        if (gaps.length >= 2) expect(t.gapVariation).toBeGreaterThanOrEqual(0);
        expect(t.fastShare).toBe(gaps.filter((g) => g < FAST_GAP_MS).length / gaps.length);
      }),
    );
  });

  it('the median, share and variation do not depend on the order of the gaps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 2, maxLength: 100 }),
        fc.integer(),
        (gaps, seed) => {
          const shuffled = [...gaps].sort((a, b) => ((a * 31 + seed) % 97) - ((b * 31 + seed) % 97));
          const a = thinkTime(timed(gaps));
          const b = thinkTime(timed(shuffled));
          expect(b.medianGapMs).toBe(a.medianGapMs);
          expect(b.fastShare).toBe(a.fastShare);
          expect(b.gapVariation).toBeCloseTo(a.gapVariation ?? 0, 9);
        },
      ),
    );
  });

  it('edge cases: no move, one move, equal gaps, an even count, auto-completion left out', () => {
    expect(thinkTime([])).toEqual({ moves: 0, medianGapMs: null, fastShare: 0, gapVariation: null });
    expect(thinkTime([{ at: 5 }])).toEqual({ moves: 1, medianGapMs: null, fastShare: 0, gapVariation: null });
    expect(thinkTime(timed([100]))).toMatchObject({
      moves: 2,
      medianGapMs: 100,
      fastShare: 1,
      gapVariation: null,
    });
    expect(thinkTime(timed([500, 500, 500]))).toMatchObject({ medianGapMs: 500, gapVariation: 0 });
    expect(thinkTime(timed([100, 200, 300, 400])).medianGapMs).toBe(250);
    // A clock that went backwards (another node) never makes a negative gap.
    expect(gapsOf([{ at: 1_000 }, { at: 900 }])).toEqual([0]);
    // A burst of auto-completion moves at the end of a slow game is not counted.
    const slow = timed(Array.from({ length: 40 }, () => 2_000));
    const last = slow[slow.length - 1]?.at ?? 0;
    const auto = Array.from({ length: 30 }, (_, i) => ({ at: last + 20 * (i + 1), auto: true }));
    expect(thinkTime([...slow, ...auto])).toMatchObject({ moves: 41, medianGapMs: 2_000, fastShare: 0 });
  });
});

describe('thresholds', () => {
  const game = {
    moves: 40,
    medianGapMs: 1_500,
    fastShare: 0,
    gapVariation: 0.7,
    solverAgreement: 0.6,
    agreementMoves: 30,
    hiddenChoices: 3,
    hiddenHits: 2,
  };

  it('an honest-looking game passes none', () => {
    expect(flagsOf(game, false)).toEqual([]);
  });

  it('machine speed: 30 moves with a median gap under 150 ms flag one game; 29 moves or 150 ms do not', () => {
    const fast = { ...game, medianGapMs: 149, fastShare: 0.9 };
    expect(flagsOf(fast, false).map((f) => f.reason)).toEqual(['machine-speed']);
    expect(flagsOf(fast, false)[0]?.evidence).toMatchObject({ moves: 40, medianGapMs: 149, threshold: 150 });
    expect(flagsOf({ ...fast, moves: 29 }, false)).toEqual([]);
    expect(flagsOf({ ...fast, medianGapMs: THRESHOLDS['machine-speed'].medianGapMs }, false)).toEqual([]);
    // A bot is allowed to be fast and regular.
    expect(flagsOf({ ...fast, gapVariation: 0 }, true)).toEqual([]);
  });

  it('regular timing and solver agreement need enough moves', () => {
    expect(flagsOf({ ...game, gapVariation: 0.1 }, false).map((f) => f.reason)).toEqual(['regular-timing']);
    expect(flagsOf({ ...game, gapVariation: 0.1, moves: 20 }, false)).toEqual([]);
    const agree = { ...game, solverAgreement: 0.97, agreementMoves: 45 };
    expect(flagsOf(agree, false).map((f) => f.reason)).toEqual(['solver-agreement']);
    expect(flagsOf({ ...agree, agreementMoves: 39 }, false)).toEqual([]);
    expect(flagsOf(agree, true)).toEqual([]);
  });

  it('hidden knowledge: the binomial tail against the honest hit rate, for bots too', () => {
    expect(binomialTail(0, 10, 0.5)).toBe(1);
    expect(binomialTail(11, 10, 0.5)).toBe(0);
    expect(binomialTail(10, 10, 0.5)).toBeCloseTo(1 / 1024, 12);
    expect(binomialTail(8, 10, 0.5)).toBeCloseTo(56 / 1024, 12);
    // Against an honest hit rate of 0.65: 16 of 16 (0.65^16 ≈ 0.00102) is not enough, 17 of 17 flags;
    // 20 of 21 does not; a human tie (half the choices) never does.
    const p = THRESHOLDS['hidden-knowledge'].nullHitRate;
    expect(binomialTail(17, 17, p)).toBeCloseTo(p ** 17, 12);
    expect(flagsOf({ ...game, hiddenChoices: 17, hiddenHits: 17 }, true).map((f) => f.reason)).toEqual([
      'hidden-knowledge',
    ]);
    expect(flagsOf({ ...game, hiddenChoices: 16, hiddenHits: 16 }, false)).toEqual([]);
    expect(flagsOf({ ...game, hiddenChoices: 21, hiddenHits: 20 }, false)).toEqual([]);
    expect(flagsOf({ ...game, hiddenChoices: 40, hiddenHits: 20 }, false)).toEqual([]);
  });

  it('binomialTail is a probability that falls as the hits rise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 200 }), (n, k0) => {
        const k = Math.min(k0, n);
        const t = binomialTail(k, n, 0.5);
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(1);
        expect(binomialTail(k + 1, n, 0.5)).toBeLessThanOrEqual(t);
      }),
    );
  });

  it('the account rule’s softer line', () => {
    expect(isSuspect({ moves: 40, medianGapMs: 290, solverAgreement: null })).toBe(true);
    expect(isSuspect({ moves: 20, medianGapMs: 100, solverAgreement: null })).toBe(false);
    expect(isSuspect({ moves: 40, medianGapMs: 900, solverAgreement: 0.96 })).toBe(true);
    expect(isSuspect({ moves: 40, medianGapMs: 900, solverAgreement: 0.9 })).toBe(false);
  });
});
