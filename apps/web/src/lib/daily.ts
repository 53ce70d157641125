/**
 * Helpers of the daily challenge pages: labels, the countdown, the spoiler-free share text and leaderboard
 * paging. Words are in the current language (src/i18n).
 */
import { i18n, tr } from '../i18n';
import { formatTime } from './format';
import type { DailyPreset } from './route';

/** Short name of a daily preset, in the current language (each read goes through vue-i18n, so it is reactive). */
export const DAILY_PRESET_LABEL: Readonly<Record<DailyPreset, string>> = {
  get 'classic-draw1'() {
    return tr('preset.classic-draw1');
  },
  get 'classic-draw3'() {
    return tr('preset.classic-draw3');
  },
};

const RESULTS = ['won', 'resigned', 'blocked', 'unfinished', 'playing'] as const;
/** A result or leaderboard status as shown, in the current language (read through vue-i18n, reactive). */
export const RESULT_LABEL: Readonly<Record<string, string>> = Object.defineProperties(
  {},
  Object.fromEntries(RESULTS.map((r) => [r, { enumerable: true, get: () => tr(`result.${r}`) }])),
);

/**
 * Countdown to a moment `ms` away: `h:mm:ss` (always with hours, so it does not jump in width), `0:00:00`
 * once reached; past a day `1d 3:04:05`.
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const hms = `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return d > 0 ? tr('daily.days', { d, hms }) : hms;
}

/**
 * `2026-11-21` → `Sat 21 Nov 2026` in English (UTC, the same everywhere), or the current language's short
 * date (`sam. 21 nov. 2026`).
 */
export function formatDate(date: string, withYear = true): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (!Number.isFinite(ms)) return date;
  const d = new Date(ms);
  const locale = i18n.global.locale.value;
  if (locale !== 'en')
    return new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      ...(withYear ? { year: 'numeric' } : {}),
      timeZone: 'UTC',
    }).format(d);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const base = `${days[d.getUTCDay()]} ${d.getUTCDate()} ${months[d.getUTCMonth()]}`;
  return withYear ? `${base} ${d.getUTCFullYear()}` : base;
}

/**
 * How a daily's par reads: `par 104 (proven shortest)` when the solver proved no winning line is shorter,
 * else `par ≤ 118` (a line of that length exists; a shorter one may).
 */
export function parLabel(par: number, proven: boolean): string {
  return tr('daily.par', { value: parValue(par, proven) });
}

/** The value part of `parLabel`: `104 (proven shortest)` or `≤ 118`. */
export function parValue(par: number, proven: boolean): string {
  return proven ? tr('daily.parProven', { par }) : `≤ ${par}`;
}

/** A result's moves against par: `+12` over, `−3` under (U+2212), `±0` on par. */
export function movesVsPar(moves: number, par: number): string {
  const d = moves - par;
  return d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : '±0';
}

/** What a share text says about one ranked result. */
export interface ShareInput {
  readonly date: string;
  readonly preset: DailyPreset;
  readonly status: 'won' | 'resigned' | 'blocked' | 'unfinished' | 'playing';
  readonly timeMs: number;
  readonly moves: number;
  readonly par: number | null;
  readonly rank?: number | null;
  readonly total?: number | null;
  /** Link to add on the last line (e.g. the daily page), or null. */
  readonly url?: string | null;
}

/**
 * The spoiler-free share text of a ranked daily result, as a person says it: date and rules, then "Won in 131
 * moves, par 98" (par only beside a win: it is the length of a winning line) or "Lost (resigned) after 8 moves",
 * the time, and the rank when known. It names no card.
 */
export function shareText(r: ShareInput): string {
  const won = r.status === 'won';
  const head = tr('share.head', { date: r.date, preset: DAILY_PRESET_LABEL[r.preset] });
  const moves = tr('common.moves', {}, r.moves);
  const outcome = won
    ? r.par !== null
      ? tr('share.wonPar', { moves, par: r.par })
      : tr('share.won', { moves })
    : tr(r.status === 'blocked' ? 'share.lostBlocked' : 'share.lostResigned', { moves });
  const lines = [head, `${outcome} · ${formatTime(r.timeMs)}`];
  if (r.rank)
    lines.push(
      r.total ? tr('share.rankOf', { rank: r.rank, total: r.total }) : tr('share.rank', { rank: r.rank }),
    );
  if (r.url) lines.push(r.url);
  return lines.join('\n');
}

/** One page of a leaderboard: where it starts and how big it is. */
export interface Paging {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
}

/** Number of pages (at least 1). */
export function pageCount(p: Paging): number {
  return Math.max(1, Math.ceil(p.total / p.limit));
}

/** 0-based index of the page that starts at (or holds) `offset`. */
export function pageIndex(p: Paging): number {
  return Math.floor(p.offset / p.limit);
}

/** Offset of 0-based page `page`, clamped to the pages that exist. */
export function offsetOfPage(page: number, p: Pick<Paging, 'total' | 'limit'>): number {
  const last = Math.max(0, Math.ceil(p.total / p.limit) - 1);
  return Math.min(Math.max(0, Math.floor(page)), last) * p.limit;
}

/** Offset of the page that holds 1-based `rank`. */
export function offsetOfRank(rank: number, limit: number): number {
  return Math.floor((Math.max(1, rank) - 1) / limit) * limit;
}

/**
 * The page buttons to show: the first and last page, the current one with `around` neighbours on each side, and
 * `null` for each gap. 0-based page indexes.
 */
export function pageWindow(current: number, count: number, around = 1): (number | null)[] {
  const keep = new Set<number>([0, count - 1]);
  for (let i = current - around; i <= current + around; i++) if (i >= 0 && i < count) keep.add(i);
  const sorted = [...keep].filter((i) => i >= 0 && i < count).sort((a, b) => a - b);
  const out: (number | null)[] = [];
  let prev = -1;
  for (const i of sorted) {
    if (prev >= 0 && i - prev === 2) out.push(prev + 1);
    else if (prev >= 0 && i - prev > 2) out.push(null);
    out.push(i);
    prev = i;
  }
  return out;
}

/** "1–20 of 57" (or "No results"). */
export function rangeText(p: Paging, shown: number): string {
  if (p.total === 0 || shown === 0) return tr('paging.none');
  return tr('paging.range', { from: p.offset + 1, to: p.offset + shown, total: p.total });
}

/** A win rate 0…1 as a whole percentage. */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}
