/**
 * Glicko-2 (docs/ratings.md): Glickman's worked example, the placement rule's monotonicity (a better
 * placement on the same day never rates lower than a worse one from the same rating), and the deviation's
 * growth over rating periods without games.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GLICKO2,
  GLICKO2_SCALE,
  NEW_RATING,
  deckDifficulty,
  inactive,
  placementScores,
  rateBoard,
  ratePeriod,
} from '../../../src/features/ratings/glicko2.js';

describe('Glicko-2', () => {
  it("reproduces Glickman's worked example (1500/200/0.06 vs 1400/30 win, 1550/100 and 1700/300 losses, τ 0.5)", () => {
    expect(GLICKO2.tau).toBe(0.5);
    const [r] = ratePeriod(
      [{ rating: 1500, deviation: 200, volatility: 0.06 }],
      [
        [
          { opponent: { rating: 1400, deviation: 30 }, score: 1 },
          { opponent: { rating: 1550, deviation: 100 }, score: 0 },
          { opponent: { rating: 1700, deviation: 300 }, score: 0 },
        ],
      ],
    );
    // The paper, on Glicko-2's scale: μ' = −0.2069, φ' = 0.8722, σ' = 0.05999 (four decimals, as printed);
    // converted: r' = 1464.06, RD' = 151.52 (from the rounded μ', φ').
    const mu = ((r?.rating ?? 0) - 1500) / GLICKO2_SCALE;
    const phi = (r?.deviation ?? 0) / GLICKO2_SCALE;
    expect(mu).toBeCloseTo(-0.2069, 4);
    expect(phi).toBeCloseTo(0.8722, 4);
    expect(r?.volatility).toBeCloseTo(0.05999, 4);
    expect(r?.rating).toBeCloseTo(1464.06, 1);
    expect(r?.deviation).toBeCloseTo(151.52, 1);
  });

  it("grows the deviation over periods without games, up to a new player's", () => {
    const r = { rating: 1600, deviation: 60, volatility: 0.06 };
    const one = inactive(r, 1);
    const ten = inactive(r, 10);
    expect(one.deviation).toBeGreaterThan(r.deviation);
    expect(ten.deviation).toBeGreaterThan(one.deviation);
    // φ' = √(φ² + σ²) on Glicko-2's scale, per period.
    expect(one.deviation).toBeCloseTo(Math.sqrt((60 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178, 6);
    expect(inactive(r, 100_000).deviation).toBe(GLICKO2.deviation);
    expect(one.rating).toBe(r.rating);
    // A period without a game in ratePeriod is the same step.
    const [same] = ratePeriod([r], [[]]);
    expect(same?.deviation).toBeCloseTo(one.deviation, 9);
  });

  it('scores placements as the share of the field beaten, ties sharing', () => {
    expect(placementScores(['a', 'b', 'c'])).toEqual([1, 0.5, 0]);
    expect(placementScores(['a', 'a', 'c', 'd', 'd'])).toEqual([0.875, 0.875, 0.5, 0.125, 0.125]);
    expect(placementScores(['a'])).toEqual([0.5]);
  });

  it('never rates a better placement lower than a worse one from the same rating (property)', () => {
    const rated = fc.record({
      rating: fc.double({ min: 800, max: 2600, noNaN: true }),
      deviation: fc.double({ min: 40, max: 350, noNaN: true }),
      volatility: fc.double({ min: 0.03, max: 0.1, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(rated, { minLength: 2, maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 40, maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        (priors, tieGroups, a, b) => {
          const n = priors.length;
          // Sorted tie keys (non-decreasing groups: ties are adjacent, best first).
          const groups = tieGroups.slice(0, n).sort((x, y) => x - y);
          const keys = groups.map(String);
          const i = a % n;
          const j = b % n;
          if (i === j) return;
          const [better, worse] = i < j ? [i, j] : [j, i];
          // Give both the same prior rating.
          const same = priors.map((p, k) => (k === worse ? (priors[better] as typeof p) : p));
          const after = rateBoard(same, keys);
          expect((after[better]?.rating ?? 0) + 1e-9).toBeGreaterThanOrEqual(after[worse]?.rating ?? 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rates a deal harder the fewer players win it', () => {
    const field = Array.from({ length: 20 }, () => NEW_RATING);
    const easy = deckDifficulty(
      field,
      field.map((_, i) => i < 18),
    );
    const hard = deckDifficulty(
      field,
      field.map((_, i) => i < 2),
    );
    expect(hard?.rating ?? 0).toBeGreaterThan(easy?.rating ?? 0);
    expect(deckDifficulty([], [])).toBeNull();
  });
});
