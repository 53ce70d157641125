/**
 * Race commitments hide, and `pnpm verify --race` checks them (issue 53 item 7, docs/fairness.md "Race
 * commitments are salted"), on PGlite and on Postgres. Written as the attacker: a numbered race's commitment
 * is brute-forced from its public code and small deal numbers; then the verifier passes an honest race,
 * fails a tampered reveal and a tampered result with the check named, still verifies a race stored before
 * salts, and the `pnpm verify` program runs the race mode.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { type RaceCheckName, verifyRace } from '@klondike/client/verify';
import { RaceResultsSchema, StateResponseSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WsClient, describeEachDatabase, testApp } from '../../support/helpers.js';
import { type TestPlayer, call, isRace, newPlayer, raceOf, raceSocket } from '../../support/race-helpers.js';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const CLIENT_DIR = resolve(import.meta.dirname, '../../../../../packages/client');
/** Deal numbers the brute force tries: every number a host is likely to type, and more. */
const GUESSES = 200_000;

describeEachDatabase('race commitments hide, and the race verifier', (db) => {
  let app: FastifyInstance;
  let base = '';
  let host: TestPlayer;
  let guest: TestPlayer;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    app = await testApp(db, { config: { raceCountdownMs: 30 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${addr.port}`;
    host = await newPlayer(app, 'salthost');
    guest = await newPlayer(app, 'saltguest');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    await db.cleanup();
  });

  /** Plays `moves` draws (and one undo after the second) in `gameId` as `as`, then resigns. */
  async function playAndResign(as: TestPlayer, gameId: string, draws: number): Promise<void> {
    let version = 0;
    for (let i = 0; i < draws; i++) {
      const m = await call(app, 'POST', `/api/games/${gameId}/moves`, {
        as,
        payload: { move: { type: 'draw' }, version },
      });
      expect(m.statusCode, m.body).toBe(200);
      version = StateResponseSchema.parse(m.json()).version;
      if (i === 1) {
        const u = await call(app, 'POST', `/api/games/${gameId}/undo`, { as, payload: { version } });
        expect(u.statusCode, u.body).toBe(200);
        version = StateResponseSchema.parse(u.json()).version;
      }
    }
    const r = await call(app, 'POST', `/api/games/${gameId}/resign`, { as, payload: {} });
    expect(r.statusCode, r.body).toBe(200);
  }

  /** A 2-racer race (body `payload`) run to its end: both racers play a little and resign. */
  async function finishedRace(payload: object): Promise<{ code: string; commitment: string }> {
    const r = raceOf(await call(app, 'POST', '/api/races', { as: host, payload }), 201);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/join`, { as: guest }));
    const hs = await raceSocket(app, r.code, host, clients);
    await raceSocket(app, r.code, guest, clients);
    raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: guest, payload: { ready: true } }));
    raceOf(await call(app, 'POST', `/api/races/${r.code}/ready`, { as: host, payload: { ready: true } }));
    const started = await call(app, 'POST', `/api/races/${r.code}/start`, { as: host });
    expect([200, 409]).toContain(started.statusCode); // all ready may have started it already
    await hs.waitFor(isRace((x) => x.code === r.code && x.status === 'running'));
    const hostGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: host })).yourGameId;
    const guestGame = raceOf(await call(app, 'GET', `/api/races/${r.code}`, { as: guest })).yourGameId;
    await playAndResign(host, hostGame ?? '', 3);
    await playAndResign(guest, guestGame ?? '', 1);
    await hs.waitFor(isRace((x) => x.code === r.code && x.status === 'finished'));
    return { code: r.code, commitment: r.dealCommitment ?? '' };
  }

  it("a numbered race's commitment is not found by trying its code with small deal numbers", async () => {
    const r = raceOf(
      await call(app, 'POST', '/api/races', { as: host, payload: { deal: { dealNumber: 617 } } }),
      201,
    );
    expect(r.dealCommitment).toMatch(/^[0-9a-f]{64}$/);
    let found: number | null = null;
    for (let n = 1; n <= GUESSES && found === null; n++)
      if (sha256(`klondike-race|${r.code}|deal-v1|${n}`) === r.dealCommitment) found = n;
    expect(found, 'the deal number was recovered from the commitment').toBeNull();
    // Nor is the salt to be read before the end: not in the room, not as results.
    const { dealSalt } = await app.prisma.race.findUniqueOrThrow({ where: { code: r.code } });
    expect(dealSalt).toMatch(/^[0-9a-f]{64}$/);
    for (const url of [`/api/races/${r.code}`, `/api/races/${r.code}/results`]) {
      const body = (await call(app, 'GET', url, { as: host })).body;
      expect(body.includes(dealSalt ?? 'none'), `the salt in ${url}`).toBe(false);
    }
  });

  it('every commitment carries its own 256-bit salt, revealed with the results', async () => {
    const a = await finishedRace({});
    const b = await finishedRace({ deal: { dealNumber: 617 } });
    const revealA = RaceResultsSchema.parse(
      (await call(app, 'GET', `/api/races/${a.code}/results`)).json(),
    ).dealReveal;
    const revealB = RaceResultsSchema.parse(
      (await call(app, 'GET', `/api/races/${b.code}/results`)).json(),
    ).dealReveal;
    expect(revealA?.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(revealB?.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(revealA?.salt).not.toBe(revealB?.salt);
    expect(revealA?.preimage).toBe(`klondike-race|${a.code}|deal-v2|${revealA?.key}|${revealA?.salt}`);
    expect(revealB?.preimage).toBe(`klondike-race|${b.code}|deal-v1|617|${revealB?.salt}`);
    expect(sha256(revealA?.preimage ?? '')).toBe(a.commitment);
    expect(sha256(revealB?.preimage ?? '')).toBe(b.commitment);
  });

  let honest = { code: '', commitment: '' };

  it('the race verifier passes every check on an honest race', async () => {
    honest = await finishedRace({});
    const report = await verifyRace({ server: base, code: honest.code, commitment: honest.commitment });
    for (const c of report.checks) expect(c.ok, `${c.check}: ${c.detail}`).toBe(true);
    expect(report.checks.map((c) => c.check)).toEqual([
      'commitment-before',
      'preimage-hash',
      'preimage-fields',
      'key-deals-deal',
      'race-options',
      'racer-replay',
    ]);
    expect(report.ok).toBe(true);
  });

  /**
   * The failed checks when the verifier reads race `code`'s results (or, with `what` = 'room', its room)
   * rewritten by `tamper`.
   */
  async function failing(
    tamper: (body: Record<string, unknown>) => void,
    what: 'results' | 'room' = 'results',
    race = honest,
  ): Promise<RaceCheckName[]> {
    const path = what === 'results' ? `/api/races/${race.code}/results` : `/api/races/${race.code}`;
    const doFetch: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const r = await fetch(url, init);
      let text = await r.text();
      if (url.pathname === path) {
        const j = JSON.parse(text) as Record<string, unknown>;
        tamper(j);
        text = JSON.stringify(j);
      }
      return new Response(text, { status: r.status, headers: r.headers });
    };
    const report = await verifyRace({
      server: base,
      code: race.code,
      commitment: race.commitment,
      fetch: doFetch,
    });
    expect(report.ok).toBe(false);
    return report.checks.filter((c) => !c.ok).map((c) => c.check);
  }
  type Reveal = { preimage: string; key: string; salt: string; dealCommitment: string };
  const flip = (hex: string): string => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

  it('a tampered reveal (another salt) fails preimage-hash', async () => {
    const failed = await failing((j) => {
      const reveal = j.dealReveal as Reveal;
      const salt = flip(reveal.salt);
      reveal.preimage = reveal.preimage.replace(reveal.salt, salt);
      reveal.salt = salt;
    });
    expect(failed).toEqual(['preimage-hash']);
  });

  it('a tampered reveal (the salt left out of the preimage) fails preimage-hash and preimage-fields', async () => {
    const failed = await failing((j) => {
      const reveal = j.dealReveal as Reveal;
      reveal.preimage = reveal.preimage.replace(`|${reveal.salt}`, '');
    });
    expect(failed).toEqual(['preimage-hash', 'preimage-fields']);
  });

  it('a tampered result (more cards on the foundations) fails racer-replay', async () => {
    const failed = await failing((j) => {
      const first = (j.results as { progress: { foundationCards: number } }[])[0];
      if (first) first.progress.foundationCards += 4;
    });
    expect(failed).toEqual(['racer-replay']);
  });

  it('an unrated race with hints on, shown as rated: race-options fails, and only it', async () => {
    const aided = await finishedRace({ options: { hints: true } });
    const honestReport = await verifyRace({ server: base, code: aided.code, commitment: aided.commitment });
    expect(honestReport.ok, JSON.stringify(honestReport.checks)).toBe(true);
    const failed = await failing(
      (room) => {
        room.rated = true;
      },
      'room',
      aided,
    );
    expect(failed).toEqual(['race-options']);
  });

  it('a race stored before salts keeps its unsalted commitment, and still verifies', async () => {
    const old = await finishedRace({});
    await app.prisma.race.update({ where: { code: old.code }, data: { dealSalt: null } });
    const view = raceOf(await call(app, 'GET', `/api/races/${old.code}`));
    const reveal = RaceResultsSchema.parse(
      (await call(app, 'GET', `/api/races/${old.code}/results`)).json(),
    ).dealReveal;
    expect(reveal?.salt).toBeNull();
    expect(reveal?.preimage).toBe(`klondike-race|${old.code}|deal-v2|${reveal?.key}`);
    expect(sha256(reveal?.preimage ?? '')).toBe(view.dealCommitment);
    const report = await verifyRace({ server: base, code: old.code });
    for (const c of report.checks) expect(c.ok, `${c.check}: ${c.detail}`).toBe(true);
    expect(report.checks.find((c) => c.check === 'preimage-fields')?.detail).toContain('unsalted');
  });

  it('pnpm verify --race prints every check and exits 0 on the honest race, 1 on a wrong commitment', async () => {
    const run = (args: string[]): Promise<{ status: number | null; out: string }> => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bin/verify.ts', '--', ...args], {
        cwd: CLIENT_DIR,
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
      return new Promise((done) => child.on('close', (status) => done({ status, out })));
    };
    const good = await run(['--server', base, '--race', honest.code, '--commitment', honest.commitment]);
    expect(good.status, good.out).toBe(0);
    for (const check of ['commitment-before', 'preimage-hash', 'key-deals-deal', 'racer-replay'])
      expect(good.out).toContain(`ok   ${check}:`);
    const bad = await run(['--server', base, '--race', honest.code, '--commitment', flip(honest.commitment)]);
    expect(bad.status).toBe(1);
    expect(bad.out).toContain('FAIL commitment-before:');
  }, 60_000);
});
