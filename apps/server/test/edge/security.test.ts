/**
 * Security headers, the proxy setting and what the request log may hold (issue: hardening).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/edge/config.js';
import { LOG_REDACT_PATHS, REDACTED, logSerializers, redactUrl } from '../../src/infra/http/logging.js';
import { HSTS } from '../../src/edge/plugins/security.js';
import { pgliteDatabase, testApp } from '../support/helpers.js';

const memory = pgliteDatabase();

describe('security headers', () => {
  it('every response carries a CSP that forbids framing, nosniff, and no HSTS over plain HTTP', async () => {
    const app = await testApp(memory);
    try {
      for (const url of ['/api/health', '/api/games/nope123', '/docs']) {
        const r = await app.inject({ method: 'GET', url });
        const csp = String(r.headers['content-security-policy']);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).not.toContain('unsafe-eval');
        expect(r.headers['x-content-type-options']).toBe('nosniff');
        expect(r.headers['strict-transport-security']).toBeUndefined();
      }
    } finally {
      await app.close();
    }
  });

  it('HSTS only when the request came over TLS through a trusted proxy', async () => {
    const trusted = await testApp(memory, { config: { trustProxy: true } });
    const untrusted = await testApp(memory);
    try {
      const headers = { 'x-forwarded-proto': 'https' };
      const a = await trusted.inject({ method: 'GET', url: '/api/health', headers });
      expect(a.headers['strict-transport-security']).toBe(HSTS);
      const b = await untrusted.inject({ method: 'GET', url: '/api/health', headers });
      expect(b.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await trusted.close();
      await untrusted.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  it('parses false (default), true, a hop count and an address list; refuses garbage', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone!' })).toThrow(/TRUST_PROXY/);
  });

  it('behind a trusted proxy each client gets its own rate-limit bucket; untrusted, they share one', async () => {
    const limits = { rateLimitMax: 2, rateLimitWindowMs: 60_000 };
    const trusted = await testApp(memory, { config: { ...limits, trustProxy: 1 } });
    const untrusted = await testApp(memory, { config: limits });
    try {
      const get = (app: typeof trusted, client: string) =>
        app
          .inject({ method: 'GET', url: '/api/games/nope123', headers: { 'x-forwarded-for': client } })
          .then((r) => r.statusCode);
      const seen = async (app: typeof trusted) => [
        await get(app, '203.0.113.1'),
        await get(app, '203.0.113.1'),
        await get(app, '203.0.113.2'),
        await get(app, '203.0.113.1'),
      ];
      expect(await seen(trusted)).toEqual([404, 404, 404, 429]);
      expect(await seen(untrusted)).toEqual([404, 404, 429, 429]);
    } finally {
      await trusted.close();
      await untrusted.close();
    }
  });
});

describe('rate limits come first', () => {
  it('requests with made-up bearer tokens are counted (429) before they cost a token look-up', async () => {
    const app = await testApp(memory, { config: { rateLimitMax: 3, rateLimitWindowMs: 60_000 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await app.inject({
          method: 'GET',
          url: '/api/games/nope123',
          headers: { authorization: `Bearer made-up-token-${i}` },
        });
        codes.push(r.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await app.close();
    }
  });

  it('a stricter limit set to 0 leaves the global limit in force on its routes', async () => {
    const app = await testApp(memory, {
      config: { rateLimitMax: 2, solveRateMax: 0, playerCreateRateMax: 0, raceRateMax: 0 },
    });
    try {
      const solve = async () =>
        (await app.inject({ method: 'POST', url: '/api/solve', payload: { nonsense: true } })).statusCode;
      expect([await solve(), await solve(), await solve()]).toEqual([400, 400, 429]);
      // The client's global bucket is spent: the other routes with a 0 stricter limit refuse it too.
      const create = await app.inject({ method: 'POST', url: '/api/players', payload: { name: '!' } });
      expect(create.statusCode).toBe(429);
      const race = await app.inject({ method: 'GET', url: '/api/races/ABCDEFGHJK' });
      expect(race.statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });
});

describe('the request log holds no secrets', () => {
  it('redactUrl hides secret-named and token-like query values and keeps the rest', () => {
    expect(redactUrl('/?token=abc')).toBe(`/?token=${REDACTED}`);
    expect(redactUrl('/transfer?code=K7Q2')).toBe(`/transfer?code=${REDACTED}`);
    expect(redactUrl('/x?t=0123456789abcdefghij_-XY&page=2')).toBe(`/x?t=${REDACTED}&page=2`);
    expect(redactUrl('/api/daily/2026-11-22/classic-draw1/leaderboard?offset=0&limit=20')).toBe(
      '/api/daily/2026-11-22/classic-draw1/leaderboard?offset=0&limit=20',
    );
    expect(redactUrl('/api/games/abc')).toBe('/api/games/abc');
  });

  it('a logged request shows neither its Authorization header nor a token in its URL', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = pino({ serializers: logSerializers, redact: LOG_REDACT_PATHS }, sink);
    const secret = 'kq3Vx9Zr0Pm2Lw8Ty6Ub4Nc1';
    log.info(
      {
        req: {
          method: 'GET',
          url: `/?token=${secret}`,
          hostname: 'x',
          ip: '127.0.0.1',
          headers: { authorization: `Bearer ${secret}` },
        },
        headers: { authorization: `Bearer ${secret}` },
      },
      'incoming request',
    );
    const text = lines.join('');
    expect(text).toContain('incoming request');
    expect(text).not.toContain(secret);
  });
});
