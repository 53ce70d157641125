/**
 * The client's URLs: `/game/<id>` shows a game (a reload shows the same position); `/?deal=<n>&preset=<name>`
 * deals a new game of that deal (the share link); `/` deals a new random game. Pure.
 */
import { isPresetName, type PresetName } from '@klondike/rules';

export type Route =
  | { readonly kind: 'game'; readonly id: string }
  | { readonly kind: 'deal'; readonly dealNumber: number; readonly preset: PresetName | null }
  | { readonly kind: 'new'; readonly preset: PresetName | null };

const MAX_DEAL = 0xffff_ffff;

/** Reads a route from a location's path and query string. */
export function parseRoute(pathname: string, search: string): Route {
  const game = /^\/game\/([A-Za-z0-9_-]{1,64})\/?$/.exec(pathname);
  if (game) return { kind: 'game', id: game[1] as string };
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

/** Path of a game's page. */
export function gamePath(id: string): string {
  return `/game/${encodeURIComponent(id)}`;
}

/** Share link of a numbered deal under a preset. */
export function shareLink(origin: string, dealNumber: number, preset: PresetName | null): string {
  const q = new URLSearchParams({ deal: String(dealNumber) });
  if (preset) q.set('preset', preset);
  return `${origin}/?${q.toString()}`;
}
