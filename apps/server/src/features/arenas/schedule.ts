/**
 * The server's arena schedule (docs/arenas.md "Schedule"): pure. Each entry makes one arena per hour or per
 * day; `slotsAhead` lists the slots that should exist now, each with a unique `scheduleKey` (so several
 * nodes, or a job run twice, make one arena per slot, never two).
 */

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** One recurring arena. */
export interface ScheduleEntry {
  /** Part of the slot key: stable across releases. */
  readonly id: string;
  readonly name: string;
  readonly preset: 'classic-draw1' | 'classic-draw3';
  readonly every: 'hour' | 'day';
  /** Start within its hour or day, ms (e.g. 18 h for a daily arena at 18:00 UTC). */
  readonly offsetMs: number;
  readonly durationMs: number;
}

/** The default schedule: an hourly 20-minute Draw 1 arena, a daily one-hour Draw 3 arena at 18:00 UTC. */
export const DEFAULT_SCHEDULE: readonly ScheduleEntry[] = [
  {
    id: 'hourly-draw1',
    name: 'Hourly Draw 1',
    preset: 'classic-draw1',
    every: 'hour',
    offsetMs: 0,
    durationMs: 20 * 60_000,
  },
  {
    id: 'daily-draw3',
    name: 'Daily Draw 3',
    preset: 'classic-draw3',
    every: 'day',
    offsetMs: 18 * HOUR_MS,
    durationMs: HOUR_MS,
  },
];

/** How far ahead scheduled arenas are made, ms. */
export const SCHEDULE_AHEAD_MS = 6 * HOUR_MS;

/** A slot of the schedule: the arena to make. */
export interface ScheduledSlot {
  readonly scheduleKey: string;
  readonly name: string;
  readonly preset: 'classic-draw1' | 'classic-draw3';
  readonly startsAt: number;
  readonly endsAt: number;
}

/** The slots of `entries` that have not ended at `now` and start within `aheadMs` of it. */
export function slotsAhead(
  entries: readonly ScheduleEntry[],
  now: number,
  aheadMs = SCHEDULE_AHEAD_MS,
): ScheduledSlot[] {
  const slots: ScheduledSlot[] = [];
  for (const e of entries) {
    const period = e.every === 'hour' ? HOUR_MS : DAY_MS;
    for (let base = Math.floor(now / period) * period - period; base <= now + aheadMs; base += period) {
      const startsAt = base + e.offsetMs;
      const endsAt = startsAt + e.durationMs;
      if (endsAt <= now || startsAt > now + aheadMs) continue;
      slots.push({
        scheduleKey: `${e.id}@${new Date(startsAt).toISOString()}`,
        name: e.name,
        preset: e.preset,
        startsAt,
        endsAt,
      });
    }
  }
  return slots.sort((a, b) => a.startsAt - b.startsAt);
}
