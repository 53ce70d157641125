import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { compression } from 'vite-plugin-compression2';

// The Fastify server (apps/server) serves `dist/` on port 3000; in dev, Vite proxies /api (REST and the
// /api/ws WebSocket) to it. The build also writes brotli (.br) and gzip (.gz) copies of every text asset,
// which the server sends to browsers that accept them (no compression work per request).
const target = process.env.KLONDIKE_API ?? 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [vue(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 512 })],
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
