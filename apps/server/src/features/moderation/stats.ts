/**
 * The published fair-play figures (GET /api/fair-play/stats; docs/moderation.md "Published figures"): counts
 * by UTC month of reports received and closed, flags, marks, unmarks, appeals and appeals granted. Pure.
 */
import type { FairPlayStats } from '@klondike/protocol';

/** What is counted. */
export type FairPlayCountKind =
  'reportReceived' | 'reportClosed' | 'flag' | 'mark' | 'unmark' | 'appeal' | 'appealGranted';

/** How many events of one kind happened in one UTC month (`YYYY-MM`). */
export interface FairPlayCount {
  readonly kind: FairPlayCountKind;
  readonly month: string;
  readonly count: number;
}

/** The figures of `counts` (several counts of one kind and month add up), one entry per month, newest first. */
export function fairPlayStats(events: readonly FairPlayCount[]): FairPlayStats {
  const months = new Map<string, FairPlayStats['months'][number]>();
  for (const e of events) {
    const month = e.month;
    let m = months.get(month);
    if (m === undefined) {
      m = {
        month,
        reportsReceived: 0,
        reportsClosed: 0,
        flags: 0,
        marks: 0,
        unmarks: 0,
        appeals: 0,
        appealsGranted: 0,
      };
      months.set(month, m);
    }
    const key = {
      reportReceived: 'reportsReceived',
      reportClosed: 'reportsClosed',
      flag: 'flags',
      mark: 'marks',
      unmark: 'unmarks',
      appeal: 'appeals',
      appealGranted: 'appealsGranted',
    } as const;
    m[key[e.kind]] += e.count;
  }
  return { months: [...months.values()].sort((a, b) => (a.month < b.month ? 1 : -1)) };
}
