/** The HTTP plumbing around the routes: unknown routes, the API docs, rate limits, the web client's files. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { ErrorBodySchema } from '@klondike/protocol';
import { describe, expect, it } from 'vitest';
import { testApp } from '../support/helpers.js';

describe('HTTP plumbing', () => {
  const memory = {
    kind: 'pglite' as const,
    config: () => ({ databaseUrl: undefined, dataDir: 'memory://' }),
    cleanup: async () => {},
  };

  it('unknown /api route → 404 not-found error body; GET /docs → 200 UI; GET /docs/json → OpenAPI with every route', async () => {
    const app = await testApp(memory);
    try {
      const r = await app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(r.statusCode).toBe(404);
      expect(ErrorBodySchema.parse(r.json()).error.code).toBe('not-found');
      const other = await app.inject({ method: 'GET', url: '/game/abc' });
      expect(other.statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
      const doc = await app.inject({ method: 'GET', url: '/docs/json' });
      expect(doc.statusCode).toBe(200);
      const openapi = doc.json<{
        openapi: string;
        paths: Record<string, Record<string, unknown>>;
        components: { schemas: Record<string, unknown> };
      }>();
      expect(openapi.openapi).toMatch(/^3\./);
      expect(Object.keys(openapi.paths).sort()).toEqual(
        [
          '/api/health',
          '/api/games',
          '/api/games/import',
          '/api/games/{id}',
          '/api/games/{id}/moves',
          '/api/games/{id}/undo',
          '/api/games/{id}/resign',
          '/api/games/{id}/legal-moves',
          '/api/games/{id}/hint',
          '/api/games/{id}/winnable',
          '/api/solve',
          '/api/games/{id}/deal',
          '/api/games/{id}/replay',
          '/api/players',
          '/api/players/{id}',
          '/api/players/{id}/stats',
          '/api/players/{id}/games',
          '/api/players/transfer',
          '/api/me',
          '/api/me/games/current',
          '/api/me/sign-out-everywhere',
          '/api/me/token',
          '/api/me/transfer',
          '/api/daily',
          '/api/daily/archive',
          '/api/daily/{date}/{preset}',
          '/api/daily/{date}/{preset}/attempt',
          '/api/daily/{date}/{preset}/practice',
          '/api/daily/{date}/{preset}/leaderboard',
          '/api/daily/{date}/{preset}/fair-play',
          '/api/leaderboard',
          '/api/races',
          '/api/races/{code}',
          '/api/races/{code}/join',
          '/api/races/{code}/ready',
          '/api/races/{code}/start',
          '/api/ready',
          '/api/status',
          '/api/races/{code}/results',
          '/api/races/{code}/rematch',
          '/api/pairing',
          '/api/arenas',
          '/api/arenas/{id}',
          '/api/arenas/{id}/join',
          '/api/arenas/{id}/leave',
          '/api/arenas/{id}/berserk',
          '/api/ratings/{pool}',
          '/api/players/{id}/ratings',
          '/api/exports',
          '/api/exports/{date}',
          '/api/games/{id}/review',
          '/api/reports',
          '/api/me/fair-play',
          '/api/appeals',
          '/api/fair-play/stats',
          '/api/mod/queue',
          '/api/mod/players/{id}',
          '/api/mod/players/{id}/mark',
          '/api/mod/players/{id}/unmark',
          '/api/mod/players/{id}/rename',
          '/api/mod/players/{id}/close',
          '/api/mod/players/{id}/dismiss',
          '/api/mod/appeals/{id}/decide',
          '/api/mod/log',
          '/api/stream/games/{id}',
          '/api/stream/events',
          '/api/stream/races/{code}/games',
          '/api/stream/daily/{date}/{preset}/games',
          '/api/players/{id}/games/export',
          '/api/puzzles/next',
          '/api/puzzles/daily',
          '/api/puzzles/me',
          '/api/puzzles/runs',
          '/api/puzzles/runs/board',
          '/api/puzzles/runs/{id}',
          '/api/puzzles/runs/{id}/answer',
          '/api/puzzles/{id}',
          '/api/puzzles/{id}/attempt',
          '/api/tokens',
          '/api/tokens/{id}',
        ].sort(),
      );
      expect(Object.keys(openapi.paths['/api/games/{id}/moves'] ?? {})).toEqual(['post']);
      expect(Object.keys(openapi.components.schemas)).toEqual(
        expect.arrayContaining([
          'Move',
          'PlayerView',
          'Error',
          'DailyToday',
          'Leaderboard',
          'Replay',
          'CurrentGame',
        ]),
      );
    } finally {
      await app.close();
    }
  });

  it('rate limit → 429 rate-limited error body (GET /api/games/:id), health exempt', async () => {
    const app = await testApp(memory, { config: { rateLimitMax: 3, rateLimitWindowMs: 60_000 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await app.inject({ method: 'GET', url: '/api/games/nope123' })).statusCode);
      expect(codes).toEqual([404, 404, 404, 429, 429]);
      const r = await app.inject({ method: 'GET', url: '/api/games/nope123' });
      expect(ErrorBodySchema.parse(r.json()).error.code).toBe('rate-limited');
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("rate limit counts the API only: the web client's files and pages are served past it, the API still refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Klondike</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    const app = await testApp(memory, {
      config: { webDist: dir, rateLimitMax: 3, rateLimitWindowMs: 60_000 },
    });
    try {
      // Far past the limit on the site's own files and pages (a client-side route and a query string too).
      for (let i = 0; i < 10; i++)
        for (const url of ['/', '/app.js', '/game/abc123', '/daily?x=1']) {
          const r = await app.inject({ method: 'GET', url });
          expect(r.statusCode, url).toBe(200);
          expect(r.headers['ratelimit-limit'], url).toBeUndefined();
        }
      // The API's own count starts untouched by them: 3 answered, then refused (query strings count too).
      const codes: number[] = [];
      for (const url of ['/api/games/nope123', '/api/games/nope123?x=1', '/api', '/api/games/nope123'])
        codes.push((await app.inject({ method: 'GET', url })).statusCode);
      expect(codes).toEqual([404, 404, 404, 429]);
      // An API-looking prefix that is not the API (`/apix`) is a page like any other.
      expect((await app.inject({ method: 'GET', url: '/apix' })).statusCode).toBe(200);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the built web client: GET / and SPA fallback GET /game/:id → index.html; /api stays JSON 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Klondike</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    const app = await testApp(memory, { config: { webDist: dir } });
    try {
      const root = await app.inject({ method: 'GET', url: '/' });
      expect(root.statusCode).toBe(200);
      expect(root.body).toContain('Klondike');
      expect((await app.inject({ method: 'GET', url: '/app.js' })).body).toBe('console.log(1)');
      const spa = await app.inject({ method: 'GET', url: '/game/abc123' });
      expect(spa.statusCode).toBe(200);
      expect(spa.headers['content-type']).toMatch(/text\/html/);
      expect(spa.body).toContain('Klondike');
      const api = await app.inject({ method: 'GET', url: '/api/unknown' });
      expect(api.statusCode).toBe(404);
      expect(ErrorBodySchema.parse(api.json()).error.code).toBe('not-found');
      // A rebuild adds new hashed assets while the server runs: they are served without a restart, cached
      // for a year, while index.html is revalidated.
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'assets', 'page-abc123.js'), 'export {}');
      const asset = await app.inject({ method: 'GET', url: '/assets/page-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('export {}');
      expect(asset.headers['cache-control']).toContain('immutable');
      expect(root.headers['cache-control']).toBe('no-cache');
      const missing = await app.inject({ method: 'GET', url: '/assets/gone-000.js' });
      expect(missing.statusCode).toBe(404);

      // The build's compressed copies go to browsers that accept them, with the same cache rule; others
      // get the plain file.
      const plain = 'export const table = "felt";'.repeat(40);
      writeFileSync(join(dir, 'assets', 'big-def456.js'), plain);
      writeFileSync(join(dir, 'assets', 'big-def456.js.br'), brotliCompressSync(plain));
      writeFileSync(join(dir, 'assets', 'big-def456.js.gz'), gzipSync(plain));
      const url = '/assets/big-def456.js';
      const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toContain('immutable');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
      const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
      const none = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(none.headers['content-encoding']).toBeUndefined();
      expect(none.body).toBe(plain);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
