/**
 * The x axis of a chart over days (uPlot time scales count seconds since the epoch): its range and its tick
 * steps, so that a player with one day of games sees that day in the middle of a short week, labelled once,
 * not a point among ticks years apart.
 */

/** Seconds in a day. */
export const DAY_S = 86_400;

/**
 * A chart's x range (uPlot `scales.x.range`, which must not be given uPlot's own min and max: for one point
 * uPlot makes them a thousand days apart) from the chart's days, seconds, oldest first: from the first to the
 * last, widened evenly to span at least `minDays` days. No days: `minDays` days around the epoch.
 */
export function dayRange(days: readonly number[], minDays = 6): [number, number] {
  const min = days[0] ?? 0;
  const max = days[days.length - 1] ?? min;
  const pad = Math.max(0, (minDays * DAY_S - (max - min)) / 2);
  return [min - pad, max + pad];
}

/** Tick steps of a day axis (uPlot `axes[0].incrs`), seconds: whole days only, so no date is labelled twice. */
export const DAY_INCRS: readonly number[] = [1, 2, 7, 14, 30, 61, 91, 182, 365, 730].map((d) => d * DAY_S);
