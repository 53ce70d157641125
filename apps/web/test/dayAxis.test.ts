/** The stats page's day axis (src/lib/dayAxis.ts): one day of games is not drawn among ticks years apart. */
import { describe, expect, it } from 'vitest';
import { DAY_INCRS, DAY_S, dayRange } from '../src/lib/dayAxis';

const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

describe('dayRange', () => {
  it('one day of data: that day in the middle of a six-day range', () => {
    const d = day('2026-12-07');
    expect(dayRange([d])).toEqual([d - 3 * DAY_S, d + 3 * DAY_S]);
  });

  it('two days: widened evenly to six days', () => {
    const [a, b] = [day('2026-12-06'), day('2026-12-07')];
    const [lo, hi] = dayRange([a, b]);
    expect(hi - lo).toBe(6 * DAY_S);
    expect(a - lo).toBe(hi - b);
  });

  it('a span longer than the least is kept as it is', () => {
    const [a, b] = [day('2026-09-01'), day('2026-12-07')];
    expect(dayRange([a, day('2026-10-01'), b])).toEqual([a, b]);
  });

  it('no days: six days around the epoch (nothing to draw, but a range)', () => {
    expect(dayRange([])).toEqual([-3 * DAY_S, 3 * DAY_S]);
  });
});

describe('DAY_INCRS', () => {
  it('whole days only, growing', () => {
    for (const step of DAY_INCRS) expect(step % DAY_S).toBe(0);
    expect([...DAY_INCRS].sort((x, y) => x - y)).toEqual([...DAY_INCRS]);
    expect(DAY_INCRS[0]).toBe(DAY_S);
  });
});
