/* The service worker of the web client (a template: vite.config.ts's `serviceWorker` plugin fills in the
 * build's file list and version and writes it to dist/sw.js).
 *
 * - Install: caches the app shell — index.html, every built script and stylesheet (lazy pages included), the
 *   manifest and the icons — so the app loads with no network.
 * - Pages (navigations): the network first (a fresh index.html after a deploy); the cached shell when the
 *   network fails, or when the server answers with a server error (5xx: a node shutting down answers 503, a
 *   proxy in front of a stopped server 502/504) — the shell then says the server cannot be reached.
 * - /assets/* (hashed, never change): from the cache, else the network (and then cached).
 * - /api/* and the WebSocket: never cached or answered here; the app says it is offline.
 * - Activate: drops the shells of older builds.
 */
const VERSION = '__SW_VERSION__';
const PRECACHE = /* __SW_PRECACHE__ */ [];
const CACHE = `klondike-shell-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['/', ...PRECACHE]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('klondike-shell-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    const shell = () => caches.match('/', { cacheName: CACHE });
    event.respondWith(
      fetch(request).then(
        (response) => (response.status >= 500 ? shell().then((r) => r || response) : response),
        () => shell().then((r) => r || Response.error()),
      ),
    );
    return;
  }
  event.respondWith(
    caches.match(request, { cacheName: CACHE }).then(
      (hit) =>
        hit ||
        fetch(request).then((response) => {
          if (response.ok && url.pathname.startsWith('/assets/')) {
            const copy = response.clone();
            event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
          }
          return response;
        }),
    ),
  );
});
