// Renders the app icons' PNG sizes from their SVG sources (public/icons/*.svg) with Debian's chromium through
// playwright-core: `node scripts/make-icons.mjs`. The PNGs are committed; run this again after changing an SVG.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const dir = new URL('../public/icons/', import.meta.url).pathname;
const jobs = [
  ['icon.svg', 'icon-192.png', 192],
  ['icon.svg', 'icon-512.png', 512],
  ['maskable.svg', 'maskable-512.png', 512],
];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless'],
});
try {
  for (const [svg, png, size] of jobs) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const src = `data:image/svg+xml;base64,${readFileSync(dir + svg).toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`,
    );
    await page.screenshot({ path: dir + png, omitBackground: true });
    await page.close();
    console.log(`${png} ${size}×${size}`);
  }
} finally {
  await browser.close();
}
