/**
 * Pure helpers of the daily challenge pages: labels, the countdown, the spoiler-free share text and
 * leaderboard paging.
 */
import { formatTime } from './format';
import type { DailyPreset } from './route';

/** Short name of a daily preset. */
export const DAILY_PRESET_LABEL: Record<DailyPreset, string> = {
  'classic-draw1': 'Draw 1',
  'classic-draw3': 'Draw 3',
};

/** A result or leaderboard status as shown. */
export const RESULT_LABEL: Record<string, string> = {
  won: 'Won',
  resigned: 'Resigned',
  blocked: 'Blocked',
  unfinished: 'Unfinished',
  playing: 'In progress',
};

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
  return d > 0 ? `${d}d ${hms}` : hms;
}

/** `2026-11-21` → `Sat 21 Nov 2026` (UTC, fixed English so it reads the same everywhere). */
export function formatDate(date: string, withYear = true): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (!Number.isFinite(ms)) return date;
  const d = new Date(ms);
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
  return `par ${parValue(par, proven)}`;
}

/** The value part of `parLabel`: `104 (proven shortest)` or `≤ 118`. */
export function parValue(par: number, proven: boolean): string {
  return proven ? `${par} (proven shortest)` : `≤ ${par}`;
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
  const head = `Klondike Daily ${r.date} · ${DAILY_PRESET_LABEL[r.preset]}`;
  const moves = `${r.moves} move${r.moves === 1 ? '' : 's'}`;
  const outcome = won
    ? `★ Won in ${moves}${r.par !== null ? `, par ${r.par}` : ''}`
    : `${r.status === 'blocked' ? '✗ Lost (no moves left)' : '✗ Lost (resigned)'} after ${moves}`;
  const lines = [head, `${outcome} · ${formatTime(r.timeMs)}`];
  if (r.rank) lines.push(`Rank #${r.rank}${r.total ? ` of ${r.total}` : ''}`);
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
  if (p.total === 0 || shown === 0) return 'No results yet';
  return `${p.offset + 1}–${p.offset + shown} of ${p.total}`;
}

/** A win rate 0…1 as a whole percentage. */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}
