/**
 * UTC calendar dates as `YYYY-MM-DD` text: the key of a daily, a rating period, an embargo's day. Shared by
 * every folder of the server (so that none of them imports another's for the clock's calendar).
 */

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

/** The UTC midnight after a date (when that date's daily closes), ms since the epoch. */
export function closesAt(date: string): number {
  return startOfDate(date) + DAY_MS;
}

/** `date` plus `days` (may be negative). */
export function addDays(date: string, days: number): string {
  return utcDate(startOfDate(date) + days * DAY_MS);
}
