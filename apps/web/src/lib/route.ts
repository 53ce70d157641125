/**
 * The client's URLs as paths (the routes themselves are in router.ts), and the sign-in link's code, which any
 * URL may carry (`#signin=…`): `takeSignIn` reads and strips it. Pure.
 */
import { DAILY_PRESETS } from '@klondike/protocol/constants';
import { isPresetName, type PresetName } from '@klondike/rules';

/** A daily preset (`classic-draw1` | `classic-draw3`). */
export type DailyPreset = (typeof DAILY_PRESETS)[number];

/**
 * What a sign-in link carries, and the same URL without it: a single-use code in the fragment (`#signin=…`: a
 * fragment never reaches a server or its logs). A token in the query (`?token=…`, what very old links carried,
 * or what someone may send to swap this device's account) is never taken: it is only stripped from the
 * address (`hadToken` says there was one). `cleanUrl` is path + remaining query + remaining fragment.
 */
export function takeSignIn(
  pathname: string,
  search: string,
  hash = '',
): { code: string | null; hadToken: boolean; cleanUrl: string } {
  const params = new URLSearchParams(search);
  const hadToken = params.has('token');
  params.delete('token');
  const q = params.toString();
  const m = /^#signin=([A-Za-z0-9]{1,64})$/.exec(hash);
  return {
    code: m ? (m[1] as string) : null,
    hadToken,
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

/** Path of a closed daily's winning line, played as a replay. */
export function dailySolutionPath(date: string, preset: DailyPreset): string {
  return `/daily/${date}/${preset}/solution`;
}

/** Path of a player's page. */
export function playerPath(id: string): string {
  return `/players/${encodeURIComponent(id)}`;
}

/** Path of a player's statistics page. */
export function playerStatsPath(id: string): string {
  return `/players/${encodeURIComponent(id)}/stats`;
}

/** Path of a game's replay. */
export function replayPath(gameId: string): string {
  return `/replay/${encodeURIComponent(gameId)}`;
}

/** The review page of a finished game: its replay with where the deal died (docs/review.md). */
export function reviewPath(gameId: string): string {
  return `/review/${encodeURIComponent(gameId)}`;
}

/** Share link of a numbered deal under a preset. */
export function shareLink(origin: string, dealNumber: number, preset: PresetName | null): string {
  const q = new URLSearchParams({ deal: String(dealNumber) });
  if (preset) q.set('preset', preset);
  return `${origin}/?${q.toString()}`;
}

/** What an address asks the card table to show (routes `game` and `new` of router.ts). */
export type TableRequest =
  | { readonly kind: 'game'; readonly id: string }
  | { readonly kind: 'deal'; readonly dealNumber: number; readonly preset: PresetName | null }
  | { readonly kind: 'new'; readonly preset: PresetName | null };

/** Highest deal number (docs/rules.md R2: 1 … 2^32−1). */
const MAX_DEAL = 0xffff_ffff;

/**
 * Reads the table's route: `/game/<id>` shows that game; `/` deals a new one, of deal `?deal=<n>` (1 … 2^32−1)
 * when given, under `?preset=<name>` when it is a preset (else the player's usual one: `preset` null).
 */
export function tableRequest(route: {
  readonly name?: unknown;
  readonly params: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
}): TableRequest {
  if (route.name === 'game') return { kind: 'game', id: String(route.params.id) };
  const presetText = typeof route.query.preset === 'string' ? route.query.preset : null;
  const preset = presetText && isPresetName(presetText) ? presetText : null;
  const dealText = typeof route.query.deal === 'string' ? route.query.deal : '';
  if (/^\d{1,10}$/.test(dealText)) {
    const dealNumber = Number(dealText);
    if (dealNumber >= 1 && dealNumber <= MAX_DEAL) return { kind: 'deal', dealNumber, preset };
  }
  return { kind: 'new', preset };
}

/** Path of a player's page for moderators (the player view with the actions). */
export function modPlayerPath(id: string): string {
  return `/mod/players/${encodeURIComponent(id)}`;
}
