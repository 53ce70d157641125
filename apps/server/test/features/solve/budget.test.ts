/**
 * What a POST /api/solve request may spend (solve/budget.ts), without a clock: the time limit and its cap,
 * the minimal search's time mode, and the deterministic mode of `maxNodes`.
 */
import { dealFromNumber, resolveOptions } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { solveTaskOf } from '../../../src/features/solve/budget.js';

const d = dealFromNumber(5);
if (!d.ok) throw new Error('deal');
const deal = d.value;
const options = resolveOptions('classic-draw1');
const config = { solveMaxMs: 30_000 };

describe('solveTaskOf', () => {
  it('a larger time limit gets a larger budget, up to SOLVE_MAX_MS; none given means the cap', () => {
    const short = solveTaskOf({ minimal: true, timeLimitMs: 5_000 }, deal, options, config);
    const long = solveTaskOf({ minimal: true, timeLimitMs: 20_000 }, deal, options, config);
    expect(short).toMatchObject({ minimal: true, minimalTimed: true, timeLimitMs: 5_000 });
    expect(long.timeLimitMs).toBeGreaterThan(short.timeLimitMs);
    expect(long.minimalNodes).toBeUndefined(); // the minimal search checks the clock, no fixed node count
    expect(solveTaskOf({ minimal: true, timeLimitMs: 60_000 }, deal, options, config).timeLimitMs).toBe(
      30_000,
    );
    expect(solveTaskOf({ minimal: true }, deal, options, config).timeLimitMs).toBe(30_000);
    expect(solveTaskOf({ timeLimitMs: 60_000 }, deal, options, { solveMaxMs: 10_000 }).timeLimitMs).toBe(
      10_000,
    );
  });

  it('without minimal the search is time-limited as before; shorten is passed on', () => {
    const t = solveTaskOf({ shorten: true, timeLimitMs: 2_000 }, deal, options, config);
    expect(t).toMatchObject({ kind: 'deal', minimal: false, shorten: true, timeLimitMs: 2_000 });
    expect(t.minimalTimed).toBeUndefined();
    expect(t.deterministic).toBeUndefined();
  });

  it('maxNodes: node limits only, no clock, no shortening, with or without minimal', () => {
    const plain = solveTaskOf({ maxNodes: 500_000, shorten: true }, deal, options, config);
    expect(plain).toMatchObject({ deterministic: true, maxNodes: 500_000, shorten: false, minimal: false });
    const min = solveTaskOf({ maxNodes: 500_000, minimal: true }, deal, options, config);
    expect(min).toMatchObject({ deterministic: true, minimalNodes: 500_000, minimal: true });
    expect(min.minimalTimed).toBeUndefined();
  });
});
