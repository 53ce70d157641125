/**
 * The installable app's files (issue 12, item 7): the web app manifest and the service worker are served with
 * their content types and revalidated on every load (`no-cache`: a new build's worker is found at once), as
 * their compressed copies too; hashed assets stay long-lived. Only the static plugin is under test (one
 * database is enough: PGlite).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase, testApp, type TestDatabase } from '../support/helpers.js';

describe('web app manifest and service worker', () => {
  let db: TestDatabase;
  let app: FastifyInstance;
  let dir: string;
  const manifest = JSON.stringify({ name: 'Klondike Solitaire', display: 'standalone', icons: [] }).padEnd(
    900,
  );
  const worker = `self.addEventListener('fetch', () => {});${' '.repeat(900)}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-pwa-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Klondike</title>');
    writeFileSync(join(dir, 'manifest.webmanifest'), manifest);
    writeFileSync(join(dir, 'manifest.webmanifest.br'), brotliCompressSync(manifest));
    writeFileSync(join(dir, 'sw.js'), worker);
    writeFileSync(join(dir, 'sw.js.br'), brotliCompressSync(worker));
    mkdirSync(join(dir, 'icons'));
    writeFileSync(join(dir, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'export {}');
    db = pgliteDatabase();
    app = await testApp(db, { config: { webDist: dir } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['identity', undefined],
    ['br, gzip', 'br'],
  ])('the manifest: application/manifest+json, no-cache (accept-encoding %s)', async (enc, expected) => {
    const r = await app.inject({
      method: 'GET',
      url: '/manifest.webmanifest',
      headers: { 'accept-encoding': enc },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['content-encoding']).toBe(expected);
  });

  it.each([
    ['identity', undefined],
    ['br, gzip', 'br'],
  ])('the worker: JavaScript, no-cache, never immutable (accept-encoding %s)', async (enc, expected) => {
    const r = await app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': enc } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['content-encoding']).toBe(expected);
  });

  it('index.html is revalidated, icons are images, hashed assets are kept a year', async () => {
    const index = await app.inject({ method: 'GET', url: '/' });
    expect(index.headers['cache-control']).toBe('no-cache');
    const icon = await app.inject({ method: 'GET', url: '/icons/icon-192.png' });
    expect(icon.headers['content-type']).toBe('image/png');
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
