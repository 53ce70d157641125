/**
 * Fair play in words and figures (docs/fair-play.md): the report reasons in the order the report dialog lists
 * them, the signals of a game as a moderator reads them (gaps in seconds, shares in per cent, hidden-knowledge
 * hits out of choices), the published figures' months and totals, and the sentence for a refused fair-play
 * call (by the error's code, never the server's own message). Pure but for the current language.
 */
import type { ReportReason } from '@klondike/protocol';
import { i18n, num, tr } from '../i18n';
import { ApiError } from './errors';

/**
 * The report reasons, as the protocol's REPORT_REASONS (packages/protocol/src/fair-play.ts; a test checks they
 * are the same), kept here so the pages do not load the protocol's schemas to list them.
 */
export const REPORT_REASONS = [
  'assistance',
  'boosting',
  'name',
  'abuse',
  'other',
] as const satisfies readonly ReportReason[];
export type { ReportReason };

/** The longest text a report carries (ReportBodySchema). */
export const REPORT_TEXT_MAX = 500;
/** An appeal's shortest text, characters after trimming (AppealBodySchema). */
export const APPEAL_MIN = 10;
/** An appeal's longest text, characters after trimming (AppealBodySchema). */
export const APPEAL_MAX = 2000;
/** A moderator's shortest reason (ModReasonBodySchema); an appeal's answer has the same minimum. */
export const MOD_REASON_MIN = 3;
/** A moderator's longest reason (ModReasonBodySchema). */
export const MOD_REASON_MAX = 500;

/** A gap between moves, ms → `0.42 s`; `—` when unknown. */
export function formatGap(ms: number | null): string {
  if (ms === null) return '—';
  return `${num(Math.round(ms / 10) / 100)} s`;
}

/** A share 0…1 → `42 %` (the language's way); `—` when unknown. */
export function formatShare(share: number | null): string {
  if (share === null) return '—';
  return new Intl.NumberFormat(i18n.global.locale.value, {
    style: 'percent',
    maximumFractionDigits: 0,
  }).format(share);
}

/** Hidden-knowledge hits out of the choices that depended on face-down cards: `3/5`; `—` without a choice. */
export function formatHidden(hits: number, choices: number): string {
  return choices === 0 ? '—' : `${hits}/${choices}`;
}

/** A flag's evidence as `key: value` pairs (numbers rounded to 3 places, anything else as JSON). */
export function formatEvidence(evidence: Record<string, unknown>): string {
  return Object.entries(evidence)
    .map(([k, v]) => `${k}: ${typeof v === 'number' ? Math.round(v * 1000) / 1000 : JSON.stringify(v)}`)
    .join(', ');
}

/** A `YYYY-MM` month in the current language's words (`December 2026`). */
export function formatMonth(month: string, locale: string = i18n.global.locale.value): string {
  const [y, m] = month.split('-').map(Number);
  const date = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, 1));
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** An ISO timestamp as a short date and time (UTC) in the current language (`6 Dec 2026, 10:13`). */
export function formatWhen(iso: string, locale: string = i18n.global.locale.value): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

/** The figures' columns, in the order the fair-play page shows them. */
export const FIGURE_COLUMNS = [
  'reportsReceived',
  'reportsClosed',
  'flags',
  'marks',
  'unmarks',
  'appeals',
  'appealsGranted',
] as const;
/** One column of the figures. */
export type FigureColumn = (typeof FIGURE_COLUMNS)[number];

/** The sum of every column over `months`. */
export function figureTotals(months: readonly Record<FigureColumn, number>[]): Record<FigureColumn, number> {
  const totals = Object.fromEntries(FIGURE_COLUMNS.map((c) => [c, 0])) as Record<FigureColumn, number>;
  for (const m of months) for (const c of FIGURE_COLUMNS) totals[c] += m[c];
  return totals;
}

/** What a fair-play call was doing when refused (the sentence for a 409 depends on it). */
export type FairPlayStep = 'report' | 'appeal' | 'mod';

/**
 * A person's sentence for a refused fair-play call: `conflict` (409) says "already reported" / "already
 * appealed" / "already done", `rate-limited` (429) "too many", `forbidden` (403) the step's refusal, and the
 * network, a missing token and bad input their own; anything else a general failure.
 */
export function fairPlayErrorText(e: unknown, step: FairPlayStep): string {
  if (!(e instanceof ApiError)) return tr('fairPlay.error.failed');
  switch (e.code) {
    case 'conflict':
      return tr(`fairPlay.error.conflict.${step}`);
    case 'rate-limited':
      return tr('fairPlay.error.rateLimited');
    case 'forbidden':
      return tr(`fairPlay.error.forbidden.${step}`);
    case 'unauthorized':
      return tr('fairPlay.error.signIn');
    case 'not-found':
      return tr('fairPlay.error.notFound');
    case 'bad-request':
      return tr('fairPlay.error.badRequest');
    case 'network':
      return tr('api.network');
    default:
      return tr('fairPlay.error.failed');
  }
}
