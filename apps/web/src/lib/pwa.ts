/**
 * The service worker (dist/sw.js, made by vite-plugin-pwa with Workbox): registered after the first page has
 * loaded (this module is loaded on demand, not with the first page). A new build's worker installs beside the
 * old one and waits; `updateReady` turns true, and the update prompt (UpdatePrompt.vue) offers the reload
 * while no ranked game or race is under way (`updateSafe`, lib/updateGuard.ts). Accepting it lets the new
 * worker take over (skip waiting), which then drops the old build's files; every tab on the old build then
 * reloads as soon as it is safe there. The worker is checked for updates hourly and whenever the tab comes back.
 */
import { watch } from 'vue';
import { registerSW } from 'virtual:pwa-register';
import { updateReady, updateSafe } from './updateGuard';

const CHECK_MS = 60 * 60 * 1000;
let accept: ((reload?: boolean) => Promise<void>) | null = null;

/** Reloads now if that is safe, else as soon as it is. */
function reloadWhenSafe(): void {
  if (updateSafe.value) location.reload();
  else {
    const stop = watch(updateSafe, (safe) => {
      if (!safe) return;
      stop();
      location.reload();
    });
  }
}

/** Registers the worker (once; a production build only). */
export function startServiceWorker(): void {
  if (accept || !('serviceWorker' in navigator)) return;
  accept = registerSW({
    onNeedRefresh: () => (updateReady.value = true),
    onNeedReload: reloadWhenSafe,
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      const check = () => void registration.update().catch(() => undefined);
      setInterval(check, CHECK_MS);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    },
  });
}

/** The player accepted the update: the new worker takes over, and the page reloads (when safe). */
export function applyUpdate(): void {
  updateReady.value = false;
  void accept?.(true);
}
