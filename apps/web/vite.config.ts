import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import vue from '@vitejs/plugin-vue';
import VueI18nPlugin from '@intlify/unplugin-vue-i18n/vite';
import { compression } from 'vite-plugin-compression2';

// The Fastify server (apps/server) serves `dist/` on port 3000; in dev, Vite proxies /api (REST and the
// /api/ws WebSocket) to it. The build also writes brotli (.br) and gzip (.gz) copies of every text asset,
// which the server sends to browsers that accept them (no compression work per request).
const target = process.env.KLONDIKE_API ?? 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    vue(),
    // The messages (src/i18n/locales/*.json) compiled to functions at build time, and vue-i18n's runtime-only
    // build with the message compiler dropped (messages arrive compiled).
    VueI18nPlugin({
      include: [fileURLToPath(new URL('./src/i18n/locales/**', import.meta.url))],
      runtimeOnly: true,
      dropMessageCompiler: true,
      compositionOnly: true,
      fullInstall: false,
      strictMessage: true,
    }),
    // The service worker (dist/sw.js, Workbox): every built file precached with its revision; pages from the
    // network first, else the cached shell; /api never. The first worker takes control of the page at once (no
    // older build to disturb: the shell works offline from the first visit). A new build's worker waits until the player accepts
    // the update (src/lib/pwa.ts), then takes over, and only then drops the old build's files.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      filename: 'sw.js',
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        // The precache is the shell; a page outside /api that the server cannot serve gets it.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/docs/],
        cleanupOutdatedCaches: true,
        inlineWorkboxRuntime: true,
        skipWaiting: false,
        clientsClaim: true,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 512 }),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': { target, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
    rolldownOptions: {
      output: {
        // The small modules the first page shares with lazy pages, in one chunk rather than one file each
        // (each file costs the first page a request and its own compression): the first page's budget.
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              test: /src[\\/](composables[\\/](useNotify|usePlayer|useConfirm|useSelection)|lib[\\/](cards|route|updateGuard))\.ts$/,
            },
          ],
        },
      },
    },
  },
});
