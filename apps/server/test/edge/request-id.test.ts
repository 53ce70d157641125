/**
 * Issue 58, request ids: each request's id is in every log line of that request and in its response's
 * `X-Request-Id`; it is a fresh UUID unless a trusted proxy (TRUST_PROXY) sent a well-formed one. A client
 * that is not a trusted proxy cannot choose its id (it could pin its requests on another's id), and a
 * malformed id (too long, control characters, a log-injection attempt) is replaced. A socket's log lines
 * carry its connection id.
 */
import { MAX_FRAME_BYTES } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/infra/config.js';
import { WsClient, pgliteDatabase, testApp, wsUrl } from '../support/helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface LogLine {
  readonly reqId?: string;
  readonly connId?: string;
  readonly msg?: string;
}

/** A test app whose log lines are kept. */
async function loggedApp(config: Partial<AppConfig>): Promise<{ app: FastifyInstance; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const app = await testApp(pgliteDatabase(), {
    config: { logLevel: 'debug', ...config },
    logStream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) },
  });
  return { app, lines };
}

describe('request ids', () => {
  it('generated when absent: a UUID in the response header and in every log line of the request', async () => {
    const { app, lines } = await loggedApp({});
    try {
      const r = await app.inject({ method: 'GET', url: '/api/health' });
      const id = r.headers['x-request-id'];
      expect(id).toMatch(UUID);
      const own = lines.filter((l) => l.reqId === id);
      // Fastify logs "incoming request" and "request completed", both with the id.
      expect(own.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['incoming request', 'request completed']),
      );
      const other = await app.inject({ method: 'GET', url: '/api/health' });
      expect(other.headers['x-request-id']).not.toBe(id);
      // Errors carry it too.
      const missing = await app.inject({ method: 'GET', url: '/api/games/nope' });
      expect(missing.headers['x-request-id']).toMatch(UUID);
    } finally {
      await app.close();
    }
  });

  it('a client that is not a trusted proxy cannot choose its id (TRUST_PROXY unset)', async () => {
    const { app, lines } = await loggedApp({});
    try {
      const r = await app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': 'someone-elses-request' },
      });
      expect(r.headers['x-request-id']).toMatch(UUID);
      expect(lines.some((l) => l.reqId === 'someone-elses-request')).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('kept from a trusted proxy (address list and hop count), echoed and logged', async () => {
    for (const trustProxy of [['127.0.0.1'], 1] as const) {
      const { app, lines } = await loggedApp({ trustProxy: Array.isArray(trustProxy) ? [...trustProxy] : 1 });
      try {
        const r = await app.inject({
          method: 'GET',
          url: '/api/health',
          remoteAddress: '127.0.0.1',
          headers: { 'x-request-id': 'nginx-5f2b7c9e1a' },
        });
        expect(r.headers['x-request-id']).toBe('nginx-5f2b7c9e1a');
        expect(lines.filter((l) => l.reqId === 'nginx-5f2b7c9e1a').length).toBeGreaterThanOrEqual(2);
      } finally {
        await app.close();
      }
    }
  });

  it('a proxy not in the list is not trusted', async () => {
    const { app } = await loggedApp({ trustProxy: ['10.0.0.1'] });
    try {
      const r = await app.inject({
        method: 'GET',
        url: '/api/health',
        remoteAddress: '203.0.113.9',
        headers: { 'x-request-id': 'forged-by-a-client' },
      });
      expect(r.headers['x-request-id']).toMatch(UUID);
    } finally {
      await app.close();
    }
  });

  it('a malformed id from a trusted proxy is replaced', async () => {
    const { app, lines } = await loggedApp({ trustProxy: true });
    try {
      for (const bad of ['x'.repeat(129), 'a b', 'id"},"level":60,"msg":"forged', 'é']) {
        const r = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
        expect(r.headers['x-request-id']).toMatch(UUID);
        expect(lines.some((l) => l.reqId === bad)).toBe(false);
      }
    } finally {
      await app.close();
    }
  });

  it("a socket's log lines carry its connection id", async () => {
    const { app, lines } = await loggedApp({});
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const c = await WsClient.connect(wsUrl(app));
      const big = JSON.stringify({ type: 'ping', pad: 'x'.repeat(MAX_FRAME_BYTES) });
      await c.request(big, (f) => f.type === 'error');
      c.close();
      const line = lines.find((l) => /frame too large/.test(l.msg ?? ''));
      expect(line?.connId).toMatch(UUID);
      expect(line?.reqId).toBe(line?.connId);
    } finally {
      await app.close();
    }
  });
});
