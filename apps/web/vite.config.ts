import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import vue from '@vitejs/plugin-vue';
import VueI18nPlugin from '@intlify/unplugin-vue-i18n/vite';
import { compression } from 'vite-plugin-compression2';

// The Fastify server (apps/server) serves `dist/` on port 3000; in dev, Vite proxies /api (REST and the
// /api/ws WebSocket) to it. The build also writes brotli (.br) and gzip (.gz) copies of every text asset,
// which the server sends to browsers that accept them (no compression work per request).
const target = process.env.KLONDIKE_API ?? 'http://localhost:3000';

/**
 * Writes dist/sw.js from sw/service-worker.js with the build's file list (every script, stylesheet and the
 * public files: manifest, icons) to precache and a version that changes with them, so a new build replaces
 * the old shell. The worker is not hashed (browsers check /sw.js itself for updates; the server sends it
 * with `no-cache`).
 */
function serviceWorker(): Plugin {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const publicFiles = (dir: string, prefix = ''): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? publicFiles(`${dir}/${e.name}`, `${prefix}${e.name}/`) : [`/${prefix}${e.name}`],
    );
  return {
    name: 'klondike-service-worker',
    apply: 'build',
    // After Vite's own plugins have dropped the chunks they empty (CSS-only pages' JavaScript).
    enforce: 'post',
    generateBundle(_options, bundle) {
      const built = Object.keys(bundle)
        .filter((f) => /\.(js|css|svg|png|woff2?)$/.test(f))
        .map((f) => `/${f}`);
      const files = [...built, ...publicFiles(`${root}public`)].sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
      const source = readFileSync(`${root}sw/service-worker.js`, 'utf8')
        .replace('__SW_VERSION__', version)
        .replace('/* __SW_PRECACHE__ */ []', JSON.stringify(files));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

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
    serviceWorker(),
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
  },
});
