import { createApp } from 'vue';
import App from './App.vue';
import { usePlayer } from './composables/usePlayer';
import { applySettingsToDocument, connectSettings } from './composables/useSettings';
import { useSocket } from './composables/useSocket';
import { patchMySettings } from './lib/api';
import { isRouteLoading, reloadOnce } from './lib/chunkReload';
import { loadSchemas } from './lib/schemas';
import { i18n, setLanguage, startLanguage } from './i18n';
import { createAppRouter } from './router';
import './style.css';

// The protocol's schemas (not on the first page): fetched now, before the first answer or frame needs them.
void loadSchemas();
// The player first: a sign-in link's code is taken out of the address before the router reads it.
usePlayer().start(useSocket());
// The settings: applied to the page now, kept on the server for a signed-in player.
applySettingsToDocument();
connectSettings(usePlayer().me, patchMySettings);
// The language (English is built in; another one's messages are fetched before the first paint).
void setLanguage(startLanguage()).then(() => createApp(App).use(i18n).use(createAppRouter()).mount('#app'));
// The service worker (dist/sw.js, a build only; lib/pwa.ts, loaded after the first page): the app loads with no
// network, and a new build is taken at a safe moment.
if (import.meta.env.PROD)
  window.addEventListener('load', () => void import('./lib/pwa').then((m) => m.startServiceWorker()));
// A lazy chunk of an older build that is gone (a deploy since this tab loaded): load the address again, once.
// A route's chunk is the router's (router.ts reloads at the route's address); a dialog's is handled here.
window.addEventListener('vite:preloadError', (e) => {
  if (!isRouteLoading() && reloadOnce()) e.preventDefault();
});
