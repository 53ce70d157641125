import { createApp } from 'vue';
import App from './App.vue';
import { usePlayer } from './composables/usePlayer';
import { applySettingsToDocument, connectSettings } from './composables/useSettings';
import { useSocket } from './composables/useSocket';
import { patchMySettings } from './lib/api';
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
// The service worker (dist/sw.js, a build only): the app shell loads with no network.
if (import.meta.env.PROD && 'serviceWorker' in navigator)
  window.addEventListener(
    'load',
    () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined),
  );
