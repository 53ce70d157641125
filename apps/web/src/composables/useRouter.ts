/**
 * The current route (lib/route.ts) as app-wide state: `go(path)` pushes a history entry, the back and forward
 * buttons are followed. Links render as real `<a href>` (AppLink) so opening in a new tab still works.
 */
import { shallowRef } from 'vue';
import { parseRoute, type Route } from '../lib/route';

const route = shallowRef<Route>(parseRoute(location.pathname, location.search));
let listening = false;

function sync(): void {
  route.value = parseRoute(location.pathname, location.search);
}

/** Goes to `path` (pushes a history entry, or replaces the current one). */
function go(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else if (path !== location.pathname + location.search) history.pushState(null, '', path);
  sync();
  const main = document.querySelector('.page-main');
  if (main) main.scrollTop = 0;
}

export function useRouter() {
  if (!listening) {
    listening = true;
    window.addEventListener('popstate', sync);
  }
  return { route, go, sync };
}
