/**
 * Provably fair dailies and open data (docs/fairness.md, docs/data.md), with an injected clock, on PGlite and
 * on Postgres: tomorrow's commitment is public today and the same once the day opens and closes; nothing of
 * an open day but its commitment is published, in a response or in a log line (debug level, through the
 * day's generation and its attempts); the reveal hashes to the commitment; the day's export lists
 * every ranked attempt; the independent verifier (`@klondike/client/verify`) passes on the real server and
 * names the failing check when one byte of the key, the deal or a move of the export is changed; the
 * `pnpm verify` program exits 0 on a good day and 1 on a wrong commitment.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type CheckName, verifyDaily } from '@klondike/client/verify';
import {
  DailyArchiveSchema,
  DailyRevealSchema,
  DailyTodaySchema,
  ErrorBodySchema,
  ExportGameSchema,
  ExportListSchema,
  GameResponseSchema,
  MoveSchema,
  PlayerCreatedSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dailyPreimage } from '../../../src/features/daily/commitment.js';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

const SECRET = 'test-fairness-secret-0123456789abcdef';
const DAY1 = '2025-05-01';
const DAY2 = '2025-05-02';
const DAY3 = '2025-05-03';
const PRESETS = ['classic-draw1', 'classic-draw3'] as const;
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);
const sha256 = (b: string | Uint8Array): string => createHash('sha256').update(b).digest('hex');
const CLIENT_DIR = resolve(import.meta.dirname, '../../../../../packages/client');

describeEachDatabase('provably fair dailies and open data', (db) => {
  let clock = at(DAY1);
  let app: FastifyInstance;
  let base = '';
  /** Every response body while DAY2 is tomorrow or open (the leak scan). */
  const texts: string[] = [];
  /** Every log line the server wrote (debug level and up). */
  const logs: string[] = [];
  const tokens: Record<string, string> = {};
  /** DAY2's commitments as published on DAY1, by preset. */
  const seen: Record<string, string> = {};

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => clock,
      logStream: { write: (line) => void logs.push(line) },
      config: { dailySecret: SECRET, dailyArchiveDays: 2, logLevel: 'debug' },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function call(
    method: 'GET' | 'POST',
    url: string,
    opts: { as?: string; payload?: object } = {},
  ): Promise<LightMyRequestResponse> {
    const token = opts.as !== undefined ? tokens[opts.as] : undefined;
    const r = await app.inject({
      method,
      url,
      ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
    texts.push(r.body);
    return r;
  }
  const row = (date: string, preset: string) =>
    app.prisma.dailyDeal.findUniqueOrThrow({ where: { date_preset: { date, preset } } });

  /** Starts `as`'s ranked attempt at DAY2 `preset` and plays `moves`, one server second apart. */
  async function attempt(as: string, preset: string, moves: readonly Move[]): Promise<string> {
    const r = await call('POST', `/api/daily/${DAY2}/${preset}/attempt`, { as });
    expect(r.statusCode, r.body).toBe(201);
    const game = GameResponseSchema.parse(r.json());
    let version = game.version;
    for (const move of moves) {
      clock += 1000;
      const m = await call('POST', `/api/games/${game.id}/moves`, { as, payload: { move, version } });
      expect(m.statusCode, m.body).toBe(200);
      version = StateResponseSchema.parse(m.json()).version;
    }
    return game.id;
  }

  it("tomorrow's commitment is public today, and nothing else of tomorrow", async () => {
    clock = at('2025-04-30');
    for (const [name, bot] of [
      ['Alice', false],
      ['Bob', false],
      ['Carol', false],
      ['Robo', true],
    ] as const) {
      const r = await call('POST', '/api/players', { payload: { name, bot } });
      expect(r.statusCode, r.body).toBe(201);
      tokens[name.toLowerCase()] = PlayerCreatedSchema.parse(r.json()).token;
    }
    clock = at(DAY1);
    await app.daily.tick();
    const today = DailyTodaySchema.parse((await call('GET', '/api/daily')).json());
    expect(today.date).toBe(DAY1);
    expect(today.tomorrow.map((t) => t.preset)).toEqual([...PRESETS]);
    for (const t of today.tomorrow) {
      const r = await row(DAY2, t.preset);
      expect(t).toEqual({
        date: DAY2,
        preset: t.preset,
        opensAt: `${DAY2}T00:00:00.000Z`,
        commitment: sha256(
          `klondike-daily|${DAY2}|${t.preset}|deal-v2|${r.candidate}|${r.dealKey ?? 'no key'}`,
        ),
      });
      seen[t.preset] = t.commitment;
    }
    // Today's challenges carry theirs too.
    for (const c of today.challenges) {
      const r = await row(DAY1, c.preset);
      expect(c.commitment).toBe(
        sha256(dailyPreimage({ date: DAY1, preset: c.preset, candidate: r.candidate, key: r.dealKey ?? '' })),
      );
    }
    // Tomorrow itself stays unknown.
    const refused = await call('GET', `/api/daily/${DAY2}/classic-draw1`);
    expect(refused.statusCode).toBe(404);
    expect(ErrorBodySchema.parse(refused.json()).error.code).toBe('not-found');
  });

  it('the day opens with the same commitment; ranked attempts of people and a bot are played', async () => {
    clock = at(DAY2, '08:00:00.000');
    await app.daily.tick();
    const today = DailyTodaySchema.parse((await call('GET', '/api/daily')).json());
    for (const c of today.challenges) expect(c.commitment).toBe(seen[c.preset]);
    const line = MoveSchema.array().parse((await row(DAY2, 'classic-draw1')).line);
    await attempt('alice', 'classic-draw1', line); // won
    const bob = await attempt('bob', 'classic-draw1', line.slice(0, 3));
    clock += 5000;
    expect((await call('POST', `/api/games/${bob}/resign`, { as: 'bob', payload: {} })).statusCode).toBe(200);
    await attempt('carol', 'classic-draw1', line.slice(0, 2)); // unfinished at the close
    await attempt('robo', 'classic-draw1', line); // the bot board
    const line3 = MoveSchema.array().parse((await row(DAY2, 'classic-draw3')).line);
    await attempt('alice', 'classic-draw3', line3.slice(0, 4)); // unfinished
    // Open-day reads a client could make.
    for (const as of ['alice', undefined]) {
      const opts = as !== undefined ? { as } : {};
      await call('GET', '/api/daily', opts);
      await call('GET', '/api/daily/archive', opts);
      await call('GET', '/api/exports', opts);
      await call('GET', `/api/exports/${DAY2}`, opts);
      for (const preset of PRESETS) {
        await call('GET', `/api/daily/${DAY2}/${preset}`, opts);
        await call('GET', `/api/daily/${DAY2}/${preset}/leaderboard?include=provisional`, opts);
      }
    }
    expect((await call('GET', `/api/exports/${DAY2}`)).statusCode).toBe(404);
  });

  it('leak scan: while a day is tomorrow or open, only its commitment is published', async () => {
    expect(texts.length).toBeGreaterThan(40);
    for (const preset of PRESETS) {
      const r = await row(DAY2, preset);
      const key = r.dealKey ?? '';
      const preimage = dailyPreimage({ date: DAY2, preset, candidate: r.candidate, key });
      for (const t of texts) {
        expect(t.includes(key), `key in ${t.slice(0, 200)}`).toBe(false);
        expect(t.includes(Buffer.from(key, 'hex').toString('base64'))).toBe(false);
        expect(t.includes(preimage)).toBe(false);
        expect(t.includes(r.deal)).toBe(false);
        expect(/candidate|preimage|klondike-daily\|/i.test(t), `a reveal field in ${t.slice(0, 200)}`).toBe(
          false,
        );
      }
      expect(texts.some((t) => t.includes(seen[preset] ?? 'none'))).toBe(true);
    }
  });

  it('leak scan: no log line of the generation and the open day holds its key, candidate or preimage', async () => {
    const lines = logs.slice(); // written so far: DAY2 was made on DAY1, then opened and played
    const entries = lines.map((l) => JSON.parse(l) as { msg?: string; date?: string; preset?: string });
    for (const preset of PRESETS)
      expect(
        entries.some((e) => e.msg === 'daily ready' && e.date === DAY2 && e.preset === preset),
        `the generation of ${DAY2} ${preset} was logged`,
      ).toBe(true);
    expect(entries.filter((e) => e.msg === 'request completed').length).toBeGreaterThan(40);
    for (const preset of PRESETS) {
      const r = await row(DAY2, preset);
      const key = r.dealKey ?? '';
      const secrets = [
        key,
        key.toUpperCase(),
        Buffer.from(key, 'hex').toString('base64'),
        Buffer.from(key, 'hex').toString('base64url'),
        dailyPreimage({ date: DAY2, preset, candidate: r.candidate, key }),
        `${DAY2}|${preset}|${r.candidate}`, // the HMAC message: names the candidate
        r.deal,
        SECRET,
      ];
      for (const line of lines) {
        for (const s of secrets) expect(line.includes(s), `${s.slice(0, 12)}… logged: ${line}`).toBe(false);
        expect(
          /candidate|preimage|dealKey|klondike-daily\|/i.test(line),
          `a reveal field logged: ${line}`,
        ).toBe(false);
      }
    }
  });

  it('after the close: the same commitment, the reveal hashes to it and deals the day', async () => {
    clock = at(DAY3, '00:00:01.000');
    await app.daily.tick();
    const archive = DailyArchiveSchema.parse((await call('GET', '/api/daily/archive')).json());
    for (const preset of PRESETS) {
      expect(archive.days.find((d) => d.date === DAY2 && d.preset === preset)?.commitment).toBe(seen[preset]);
      const reveal = DailyRevealSchema.parse((await call('GET', `/api/daily/${DAY2}/${preset}`)).json());
      const r = await row(DAY2, preset);
      expect(reveal.commitment).toBe(seen[preset]);
      expect(reveal.reveal).toEqual({
        preimage: `klondike-daily|${DAY2}|${preset}|deal-v2|${r.candidate}|${r.dealKey ?? ''}`,
        key: r.dealKey,
        algorithm: 'deal-v2',
        candidate: r.candidate,
      });
      expect(sha256(reveal.reveal?.preimage ?? '')).toBe(seen[preset]);
    }
  });

  it('the export lists every ranked attempt of the day, and is made once', async () => {
    const list = ExportListSchema.parse((await call('GET', '/api/exports')).json());
    expect(list.license).toBe('CC0-1.0');
    const file = list.files.find((f) => f.date === DAY2);
    expect(file).toBeDefined();
    const r = await fetch(`${base}/api/exports/${DAY2}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect(sha256(bytes)).toBe(file?.sha256);
    expect(r.headers.get('x-content-sha256')).toBe(file?.sha256);
    expect(bytes.byteLength).toBe(file?.bytes);
    const games = gunzipSync(bytes)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => ExportGameSchema.parse(JSON.parse(l)));
    const attempts = await app.prisma.dailyAttempt.findMany({ where: { daily: { date: DAY2 } } });
    expect(attempts).toHaveLength(5);
    expect(games.map((g) => g.gameId).sort()).toEqual(attempts.map((a) => a.gameId).sort());
    expect(file?.games).toBe(5);
    const alice = games.find((g) => g.name === 'Alice' && g.preset === 'classic-draw1');
    expect(alice?.result).toMatchObject({ status: 'won', rank: 1 });
    expect(alice?.moves.length).toBe(alice?.result.moves);
    expect(games.find((g) => g.name === 'Robo')).toMatchObject({ bot: true, result: { rank: 1 } });
    expect(games.find((g) => g.name === 'Carol')?.result.status).toBe('unfinished');
    // Made once: a second pass stores nothing new, the same bytes are served.
    await app.daily.tick();
    expect(await app.prisma.dailyExport.count()).toBe(list.files.length);
    const again = ExportListSchema.parse((await call('GET', '/api/exports')).json());
    expect(again.files.find((f) => f.date === DAY2)?.sha256).toBe(file?.sha256);
    // Bad input: typed errors.
    for (const [url, status, code] of [
      [`/api/exports/${DAY3}`, 404, 'not-found'],
      ['/api/exports/2025-02-30', 404, 'not-found'],
      ['/api/exports/not-a-date', 400, 'bad-request'],
    ] as const) {
      const e = await call('GET', url);
      expect(e.statusCode, url).toBe(status);
      expect(ErrorBodySchema.parse(e.json()).error.code).toBe(code);
    }
  });

  it('the verifier passes every check on the real server, for both presets', async () => {
    for (const preset of PRESETS) {
      const report = await verifyDaily({ server: base, date: DAY2, preset, commitment: seen[preset] ?? '' });
      for (const c of report.checks) expect(c.ok, `${preset} ${c.check}: ${c.detail}`).toBe(true);
      expect(report.checks.map((c) => c.check)).toContain('leaderboard');
      expect(report.ok).toBe(true);
    }
  });

  /** A fetch that hands the verifier the real server's answers, rewritten by `tamper`. */
  function tampering(
    tamper: (path: string, body: Uint8Array) => Uint8Array | string | undefined,
  ): typeof fetch {
    return async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const r = await fetch(url, init);
      const body = new Uint8Array(await r.arrayBuffer());
      const out = tamper(url.pathname, body) ?? body;
      return new Response(typeof out === 'string' ? out : Buffer.from(out), {
        status: r.status,
        headers: r.headers,
      });
    };
  }
  async function failing(tamper: Parameters<typeof tampering>[0]): Promise<CheckName[]> {
    const report = await verifyDaily({
      server: base,
      date: DAY2,
      preset: 'classic-draw1',
      commitment: seen['classic-draw1'] ?? '',
      fetch: tampering(tamper),
    });
    expect(report.ok).toBe(false);
    return report.checks.filter((c) => !c.ok).map((c) => c.check);
  }
  const revealPath = `/api/daily/${DAY2}/classic-draw1`;
  /** Flips the last hex digit of `hex`. */
  const flip = (hex: string): string => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

  it('one byte of the key changed: the preimage and the deal checks fail', async () => {
    const failed = await failing((path, body) => {
      if (path !== revealPath) return undefined;
      const j = JSON.parse(Buffer.from(body).toString('utf8')) as {
        reveal: { key: string; preimage: string };
      };
      const key = flip(j.reveal.key);
      j.reveal.preimage = j.reveal.preimage.replace(j.reveal.key, key);
      j.reveal.key = key;
      return JSON.stringify(j);
    });
    expect(failed).toEqual(['preimage-hash', 'key-deals-deal']);
  });

  it('the deal changed (two cards swapped): key-deals-deal fails', async () => {
    const failed = await failing((path, body) => {
      if (path !== revealPath) return undefined;
      const j = JSON.parse(Buffer.from(body).toString('utf8')) as { deal: string };
      const cards = j.deal.split(' ');
      [cards[0], cards[1]] = [cards[1] ?? '', cards[0] ?? ''];
      j.deal = cards.join(' ');
      return JSON.stringify(j);
    });
    expect(failed).toContain('key-deals-deal');
    expect(failed).not.toContain('preimage-hash');
  });

  it('a wrong commitment seen before: commitment-before fails', async () => {
    const report = await verifyDaily({
      server: base,
      date: DAY2,
      preset: 'classic-draw1',
      commitment: flip(seen['classic-draw1'] ?? ''),
    });
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['commitment-before']);
  });

  /** The day's export with Alice's `classic-draw1` game rewritten by `change`. */
  function editExport(body: Uint8Array, change: (moves: { move: Move; atMs: number }[]) => void): Buffer {
    const lines = gunzipSync(body).toString('utf8').trim().split('\n');
    const out = lines.map((l) => {
      const g = ExportGameSchema.parse(JSON.parse(l));
      if (g.name === 'Alice' && g.preset === 'classic-draw1') change(g.moves);
      return JSON.stringify(g);
    });
    return gzipSync(`${out.join('\n')}\n`);
  }
  /** Alice's winning move becomes a draw from the stock. */
  const changeLastMove = (moves: { move: Move; atMs: number }[]): void => {
    const last = moves.at(-1);
    if (last) last.move = { type: last.move.type === 'draw' ? 'recycle' : 'draw' };
  };

  it('a move of the export changed: its file hash fails; re-hashed by a forger, the replay fails', async () => {
    const edited = editExport(
      new Uint8Array(await (await fetch(`${base}/api/exports/${DAY2}`)).arrayBuffer()),
      changeLastMove,
    );
    // Served as is: the listed SHA-256 no longer matches.
    expect(await failing((path) => (path === `/api/exports/${DAY2}` ? edited : undefined))).toContain(
      'export-file',
    );
    // A consistent forger also rewrites the listing: the moves no longer give the result.
    const failed = await failing((path, body) => {
      if (path === `/api/exports/${DAY2}`) return edited;
      if (path !== '/api/exports') return undefined;
      const list = ExportListSchema.parse(JSON.parse(Buffer.from(body).toString('utf8')));
      for (const f of list.files)
        if (f.date === DAY2) Object.assign(f, { sha256: sha256(edited), bytes: edited.byteLength });
      return JSON.stringify(list);
    });
    expect(failed).toContain('export-replay');
    expect(failed).not.toContain('export-file');
  });

  /** Runs the `pnpm verify` program (bin/verify.ts of @klondike/client) without blocking this server. */
  function runVerify(commitment: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const args = ['--server', base, '--date', DAY2, '--preset', 'classic-draw1', '--commitment', commitment];
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/verify.ts', '--', ...args], {
      cwd: CLIENT_DIR,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })));
  }

  it('pnpm verify prints every check and exits 0 on the good day, 1 on a wrong commitment', async () => {
    const good = await runVerify(seen['classic-draw1'] ?? '');
    expect(good.status, good.stderr + good.stdout).toBe(0);
    for (const check of [
      'commitment-before',
      'preimage-hash',
      'key-deals-deal',
      'export-replay',
      'leaderboard',
    ])
      expect(good.stdout).toContain(`ok   ${check}:`);
    const bad = await runVerify(flip(seen['classic-draw1'] ?? ''));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('FAIL commitment-before:');
  }, 60_000);
});
