/**
 * A lazy page or dialog whose file is gone (a new build was deployed while this tab kept the old one: its
 * hashed chunk names no longer exist) is recovered by loading the address again, which brings the new
 * build's index.html and chunk names. At most once per address within a minute (sessionStorage), so a chunk
 * that truly cannot be fetched (no network) shows its error instead of reloading in a loop.
 */

const KEY = 'klondike.chunkReload';
const WINDOW_MS = 60_000;
let reloading = false;
let routing = false;

/**
 * Marks a route navigation as under way (`true`, router.beforeEach) or over (`false`): a chunk that fails
 * meanwhile is the route's, and the router's error handler reloads at the route's address, not this one.
 */
export function routeLoading(on: boolean): void {
  routing = on;
}

/** True while a route navigation is under way (see `routeLoading`). */
export function isRouteLoading(): boolean {
  return routing;
}

/** True for the errors a failed dynamic import or module preload throws (Chromium, Firefox, Safari, Vite). */
export function isChunkLoadError(e: unknown): boolean {
  const m = e instanceof Error ? `${e.name} ${e.message}` : String(e);
  return /dynamically imported module|module script failed|importing a module script|preload CSS|Unable to preload/i.test(
    m,
  );
}

/**
 * Loads `path` (default: the current address) again, unless that was already tried within the minute;
 * returns whether it reloads.
 */
export function reloadOnce(path: string = location.pathname + location.search): boolean {
  if (reloading) return true;
  try {
    const last = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { path: string; at: number } | null;
    if (last && last.path === path && Date.now() - last.at < WINDOW_MS) return false;
    sessionStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    return false; // no storage: no guard against a loop, so no reload
  }
  reloading = true;
  location.assign(path);
  return true;
}
