/** UTC calendar dates as `YYYY-MM-DD` text (the daily's key). */

/** One UTC day in ms. */
export const DAY_MS = 86_400_000;

/** The UTC date of a time (ms since the epoch). */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether `date` is a real calendar date in `YYYY-MM-DD` form. */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const ms = Date.parse(`${date}T00:00:00.000Z`);
  return Number.isFinite(ms) && utcDate(ms) === date;
}

/** Start of a UTC date (its midnight), ms since the epoch. */
export function startOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

/** When a date's daily closes: the UTC midnight after it, ms since the epoch. */
export function closesAt(date: string): number {
  return startOfDate(date) + DAY_MS;
}

/** `date` plus `days` (may be negative). */
export function addDays(date: string, days: number): string {
  return utcDate(startOfDate(date) + days * DAY_MS);
}

/**
 * Streaks over a set of dates with a won daily: `current` counts back from `today` (or from yesterday when
 * today has no win yet, so an unplayed today does not break a streak); `best` is the longest run ever.
 */
export function streaks(wonDates: Iterable<string>, today: string): { current: number; best: number } {
  const set = new Set(wonDates);
  const sorted = [...set].sort();
  let best = 0;
  let run = 0;
  let prev: string | undefined;
  for (const d of sorted) {
    run = prev !== undefined && addDays(prev, 1) === d ? run + 1 : 1;
    best = Math.max(best, run);
    prev = d;
  }
  let day = set.has(today) ? today : addDays(today, -1);
  let current = 0;
  while (set.has(day)) {
    current++;
    day = addDays(day, -1);
  }
  return { current, best };
}
