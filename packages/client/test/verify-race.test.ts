/**
 * `verifyRace` (`pnpm verify -- --race CODE`, docs/fairness.md "Race commitments are salted") against the real
 * server as a deployment runs it: a race played over REST to its end verifies, with the commitment the
 * lobby showed; a reveal whose salt was changed fails `preimage-hash`, one whose key was changed fails
 * `preimage-hash` and `key-deals-deal`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RaceCheckName, verifyRace } from '../src/verify.js';
import { type TestServer, startServer } from './server.js';

describe('verifyRace against the real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RACE_COUNTDOWN_MS: '0' });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A JSON request to the server (with `token` as bearer when given); fails the test on a non-2xx answer. */
  async function api(method: string, path: string, body?: object, token?: string): Promise<unknown> {
    const r = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    expect(r.ok, `${method} ${path} → ${r.status} ${text}`).toBe(true);
    return JSON.parse(text) as unknown;
  }
  type Room = { code: string; status: string; dealCommitment: string; yourGameId: string | null };

  /** Polls the room until `status` (a countdown of 0 ms still passes through the server's sweeper). */
  async function until(code: string, status: string, token: string): Promise<Room> {
    for (let i = 0; i < 200; i++) {
      const room = (await api('GET', `/api/races/${code}`, undefined, token)) as Room;
      if (room.status === status) return room;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error(`race ${code} never reached ${status}`);
  }

  let code = '';
  let commitment = '';

  it('a race played to its end passes every check', async () => {
    const [a, b] = await Promise.all(
      ['VerifyHost', 'VerifyGuest'].map(
        async (name) => ((await api('POST', '/api/players', { name })) as { token: string }).token,
      ),
    );
    const host = a ?? '';
    const guest = b ?? '';
    const room = (await api('POST', '/api/races', {}, host)) as Room;
    code = room.code;
    commitment = room.dealCommitment;
    await api('POST', `/api/races/${code}/join`, undefined, guest);
    await api('POST', `/api/races/${code}/ready`, { ready: true }, guest);
    await api('POST', `/api/races/${code}/ready`, { ready: true }, host);
    const r = await fetch(`${server.url}/api/races/${code}/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host}` },
    });
    expect([200, 409]).toContain(r.status); // everyone ready may have started it already
    for (const token of [host, guest]) {
      const game = (await until(code, 'running', token)).yourGameId ?? '';
      await api('POST', `/api/games/${game}/moves`, { move: { type: 'draw' }, version: 0 }, token);
      await api('POST', `/api/games/${game}/resign`, {}, token);
    }
    await until(code, 'finished', host);
    const report = await verifyRace({ server: server.url, code, commitment });
    for (const c of report.checks) expect(c.ok, `${c.check}: ${c.detail}`).toBe(true);
    expect(report.ok).toBe(true);
  });

  /** The failed checks when the results' `dealReveal` is rewritten by `tamper`. */
  async function failing(
    tamper: (reveal: { preimage: string; key: string; salt: string }) => void,
  ): Promise<RaceCheckName[]> {
    const doFetch: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const r = await fetch(url, init);
      let text = await r.text();
      if (url.pathname === `/api/races/${code}/results`) {
        const j = JSON.parse(text) as { dealReveal: { preimage: string; key: string; salt: string } };
        tamper(j.dealReveal);
        text = JSON.stringify(j);
      }
      return new Response(text, { status: r.status, headers: r.headers });
    };
    const report = await verifyRace({ server: server.url, code, commitment, fetch: doFetch });
    expect(report.ok).toBe(false);
    return report.checks.filter((c) => !c.ok).map((c) => c.check);
  }
  const flip = (hex: string): string => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

  it('a reveal with another salt fails preimage-hash', async () => {
    const failed = await failing((reveal) => {
      const salt = flip(reveal.salt);
      reveal.preimage = reveal.preimage.replace(reveal.salt, salt);
      reveal.salt = salt;
    });
    expect(failed).toEqual(['preimage-hash']);
  });

  it('a reveal with another key fails preimage-hash and key-deals-deal', async () => {
    const failed = await failing((reveal) => {
      const key = flip(reveal.key);
      reveal.preimage = reveal.preimage.replace(reveal.key, key);
      reveal.key = key;
    });
    expect(failed).toEqual(['preimage-hash', 'key-deals-deal']);
  });
});
