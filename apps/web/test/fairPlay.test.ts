/**
 * Fair play in words and figures (src/lib/fairPlay.ts): the report reasons are the protocol's, a refused call
 * is said for what was being done (409: already reported / already appealed / already done; 429: too many),
 * and the signals and figures read as a moderator and a visitor read them.
 */
import { REPORT_REASONS as PROTOCOL_REASONS } from '@klondike/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMessageSection, setLanguage } from '../src/i18n';
import { ApiError } from '../src/lib/errors';
import {
  REPORT_REASONS,
  fairPlayErrorText,
  figureTotals,
  formatGap,
  formatHidden,
  formatMonth,
  formatShare,
} from '../src/lib/fairPlay';

describe('fair play helpers', () => {
  // The app's routes load the section with their pages.
  beforeAll(() => loadMessageSection('fair-play'));

  it('lists the protocol’s report reasons, in its order', () => {
    expect([...REPORT_REASONS]).toEqual([...PROTOCOL_REASONS]);
  });

  it('a 409 says what was already done, a 429 says too many, never the server’s own words', () => {
    const conflict = new ApiError('conflict', 'open report exists (server words)', 409);
    expect(fairPlayErrorText(conflict, 'report')).toMatch(/already reported/);
    expect(fairPlayErrorText(conflict, 'appeal')).toMatch(/already appealed/);
    expect(fairPlayErrorText(conflict, 'mod')).toMatch(/already done/);
    const limited = new ApiError('rate-limited', 'slow down', 429);
    expect(fairPlayErrorText(limited, 'report')).toMatch(/Too many/);
    expect(fairPlayErrorText(new ApiError('forbidden', 'x', 403), 'mod')).toMatch(/Only moderators/);
    expect(fairPlayErrorText(new ApiError('unauthorized', 'x', 401), 'report')).toMatch(/Sign in/);
    for (const e of [conflict, limited]) expect(fairPlayErrorText(e, 'report')).not.toContain(e.message);
    expect(fairPlayErrorText(new Error('boom'), 'report')).toMatch(/did not work/);
  });

  it('the refusal follows the language', async () => {
    await setLanguage('fr');
    try {
      expect(fairPlayErrorText(new ApiError('conflict', 'x', 409), 'report')).toMatch(/déjà signalé/);
    } finally {
      await setLanguage('en');
    }
  });

  it('signals: gaps in seconds, shares in per cent, hidden hits out of choices, — when unknown', () => {
    expect(formatGap(420)).toBe('0.42 s');
    expect(formatGap(null)).toBe('—');
    expect(formatShare(0.5)).toBe('50%');
    expect(formatShare(null)).toBe('—');
    expect(formatHidden(3, 5)).toBe('3/5');
    expect(formatHidden(0, 0)).toBe('—');
  });

  it('figures: months in words, totals per column', () => {
    expect(formatMonth('2026-12', 'en')).toBe('December 2026');
    const month = (reportsReceived: number, marks: number) => ({
      reportsReceived,
      reportsClosed: 1,
      flags: 0,
      marks,
      unmarks: 0,
      appeals: 0,
      appealsGranted: 0,
    });
    expect(figureTotals([month(3, 1), month(4, 0)])).toMatchObject({
      reportsReceived: 7,
      reportsClosed: 2,
      marks: 1,
    });
    expect(figureTotals([]).flags).toBe(0);
  });
});
