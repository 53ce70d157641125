// Prints what the first page costs a browser: index.html and every script, module preload and stylesheet
// it names, as stored (raw) and as sent compressed (the build's brotli and gzip copies, which the server
// serves to browsers that accept them). Run after `vite build`: `pnpm --filter @klondike/web size`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const index = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [
  'index.html',
  ...[...index.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]),
];
const size = (f) => (existsSync(join(dist, f)) ? statSync(join(dist, f)).size : null);
const kb = (n) => (n / 1024).toFixed(1);
let raw = 0;
let br = 0;
let gz = 0;
for (const f of files) {
  const r = size(f);
  if (r === null) throw new Error(`${f} is named by index.html but not in dist/`);
  // A file too small to be worth compressing is sent as it is.
  const b = size(`${f}.br`) ?? r;
  const g = size(`${f}.gz`) ?? r;
  raw += r;
  br += b;
  gz += g;
  console.log(
    `${f.padEnd(40)} ${kb(r).padStart(8)} KB raw ${kb(b).padStart(8)} KB br ${kb(g).padStart(8)} KB gzip`,
  );
}
const js = files.filter((f) => f.endsWith('.js'));
const jsBr = js.reduce((a, f) => a + (size(`${f}.br`) ?? size(f)), 0);
console.log(
  `first page: ${kb(raw)} KB raw, ${kb(br)} KB brotli, ${kb(gz)} KB gzip; JavaScript ${kb(jsBr)} KB brotli`,
);
