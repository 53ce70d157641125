/**
 * The client's URLs (a small router, no library). Pure.
 * - `/game/<id>` shows a game (a reload shows the same position);
 * - `/?deal=<n>&preset=<name>` deals a new game of that deal (the share link); `/` deals a new random game;
 * - `/daily` today's challenges and the archive; `/daily/<date>/<preset>/leaderboard` a daily's leaderboard;
 * - `/leaderboard` the all-time leaderboard; `/players/<id>` a player's page; `/replay/<gameId>` a replay;
 * - `/race` sets up a live race; `/race/<code>` a race room (lobby, race, results).
 * Any of them may carry a sign-in link's `#signin=…` code (or an older link's `?token=…`): `takeToken` reads and
 * strips it.
 */
import { DAILY_PRESETS } from '@klondike/protocol';
import { isPresetName, type PresetName } from '@klondike/rules';

/** A daily preset (`classic-draw1` | `classic-draw3`). */
export type DailyPreset = (typeof DAILY_PRESETS)[number];

export type Route =
  | { readonly kind: 'game'; readonly id: string }
  | { readonly kind: 'deal'; readonly dealNumber: number; readonly preset: PresetName | null }
  | { readonly kind: 'new'; readonly preset: PresetName | null }
  | { readonly kind: 'daily' }
  | { readonly kind: 'daily-leaderboard'; readonly date: string; readonly preset: DailyPreset }
  | { readonly kind: 'leaderboard' }
  | { readonly kind: 'player'; readonly id: string }
  | { readonly kind: 'replay'; readonly gameId: string }
  | { readonly kind: 'race-new' }
  | { readonly kind: 'race'; readonly code: string };

/** Routes that show a page instead of the card table. */
export type PageRoute = Exclude<Route, { kind: 'game' | 'deal' | 'new' }>;

const MAX_DEAL = 0xffff_ffff;
const ID = '([A-Za-z0-9_-]{1,64})';

/** Whether `p` is a daily preset. */
export function isDailyPreset(p: string): p is DailyPreset {
  return (DAILY_PRESETS as readonly string[]).includes(p);
}

/** Reads a route from a location's path and query string. */
export function parseRoute(pathname: string, search: string): Route {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const game = new RegExp(`^/game/${ID}$`).exec(path);
  if (game) return { kind: 'game', id: game[1] as string };
  if (path === '/daily') return { kind: 'daily' };
  const board = /^\/daily\/(\d{4}-\d{2}-\d{2})\/([a-z0-9-]+)\/leaderboard$/.exec(path);
  if (board && isDailyPreset(board[2] as string))
    return { kind: 'daily-leaderboard', date: board[1] as string, preset: board[2] as DailyPreset };
  if (path === '/leaderboard') return { kind: 'leaderboard' };
  const player = new RegExp(`^/players/${ID}$`).exec(path);
  if (player) return { kind: 'player', id: player[1] as string };
  const replay = new RegExp(`^/replay/${ID}$`).exec(path);
  if (replay) return { kind: 'replay', gameId: replay[1] as string };
  if (path === '/race') return { kind: 'race-new' };
  // Invite codes are upper case; a link typed in lower case still finds its room.
  const race = /^\/race\/([A-Za-z0-9]{10})$/.exec(path);
  const code = race?.[1]?.toUpperCase();
  if (code && /^[A-HJ-NP-Z2-9]{10}$/.test(code)) return { kind: 'race', code };
  const params = new URLSearchParams(search);
  const presetText = params.get('preset');
  const preset = presetText && isPresetName(presetText) ? presetText : null;
  const dealText = params.get('deal');
  if (dealText && /^\d{1,10}$/.test(dealText)) {
    const dealNumber = Number(dealText);
    if (dealNumber >= 1 && dealNumber <= MAX_DEAL) return { kind: 'deal', dealNumber, preset };
  }
  return { kind: 'new', preset };
}

/** Whether a route shows a page (not the table). */
export function isPageRoute(r: Route): r is PageRoute {
  return r.kind !== 'game' && r.kind !== 'deal' && r.kind !== 'new';
}

/**
 * What a sign-in link carries, and the same URL without it: a single-use code in the fragment
 * (`#signin=…`, today's links: a fragment never reaches a server or its logs) or, from older links, a token in
 * the query (`?token=…`). `cleanUrl` is path + remaining query + remaining fragment.
 */
export function takeToken(
  pathname: string,
  search: string,
  hash = '',
): { token: string | null; code: string | null; cleanUrl: string } {
  const params = new URLSearchParams(search);
  const token = params.get('token');
  params.delete('token');
  const q = params.toString();
  const m = /^#signin=([A-Za-z0-9]{1,64})$/.exec(hash);
  return {
    token: token && token.trim() ? token.trim() : null,
    code: m ? (m[1] as string) : null,
    cleanUrl: `${pathname}${q ? `?${q}` : ''}${m ? '' : hash}`,
  };
}

/** Path of a game's page. */
export function gamePath(id: string): string {
  return `/game/${encodeURIComponent(id)}`;
}

/** Path of a daily's leaderboard. */
export function dailyLeaderboardPath(date: string, preset: DailyPreset): string {
  return `/daily/${date}/${preset}/leaderboard`;
}

/** Path of a player's page. */
export function playerPath(id: string): string {
  return `/players/${encodeURIComponent(id)}`;
}

/** Path of a game's replay. */
export function replayPath(gameId: string): string {
  return `/replay/${encodeURIComponent(gameId)}`;
}

/** Share link of a numbered deal under a preset. */
export function shareLink(origin: string, dealNumber: number, preset: PresetName | null): string {
  const q = new URLSearchParams({ deal: String(dealNumber) });
  if (preset) q.set('preset', preset);
  return `${origin}/?${q.toString()}`;
}
