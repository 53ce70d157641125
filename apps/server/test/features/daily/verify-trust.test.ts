/**
 * The verifier checks what it used to trust (issue 53 item 8, docs/fairness.md "What the verifier checks of
 * the export itself"), with an injected clock, on PGlite and on Postgres. A forger rewrites the day's export
 * and its listing consistently (so `export-file` passes) and changes only the options of a game (undo and
 * hints on; draw-3 rules on the draw-1 daily), only its players (two players swapped), or only `provisional`
 * (in the export; then in the export and the leaderboard together): each must fail with its check named.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type CheckName, verifyDaily } from '@klondike/client/verify';
import {
  DailyTodaySchema,
  type ExportGame,
  ExportGameSchema,
  ExportListSchema,
  GameResponseSchema,
  MoveSchema,
  PlayerCreatedSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

const DAY1 = '2025-06-01';
const DAY2 = '2025-06-02';
const DAY3 = '2025-06-03';
const PRESET = 'classic-draw1';
const at = (date: string, time = '12:00:00.000'): number => Date.parse(`${date}T${time}Z`);
const sha256 = (b: string | Uint8Array): string => createHash('sha256').update(b).digest('hex');

describeEachDatabase('the verifier checks the export against the rules and the players', (db) => {
  let clock = at(DAY1);
  let app: FastifyInstance;
  let base = '';
  const tokens: Record<string, string> = {};
  let commitment = '';

  async function attempt(as: string, moves: readonly Move[]): Promise<string> {
    const auth = { authorization: `Bearer ${tokens[as] ?? ''}` };
    const r = await app.inject({
      method: 'POST',
      url: `/api/daily/${DAY2}/${PRESET}/attempt`,
      headers: auth,
    });
    expect(r.statusCode, r.body).toBe(201);
    const game = GameResponseSchema.parse(r.json());
    let version = game.version;
    for (const move of moves) {
      clock += 1000;
      const m = await app.inject({
        method: 'POST',
        url: `/api/games/${game.id}/moves`,
        headers: auth,
        payload: { move, version },
      });
      expect(m.statusCode, m.body).toBe(200);
      version = StateResponseSchema.parse(m.json()).version;
    }
    return game.id;
  }

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => clock,
      config: { dailySecret: 'test-verify-trust-secret-0123456789' },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${addr.port}`;
    // Alice and Bob are established (created before the day); Robo is a bot.
    clock = at('2025-05-30');
    for (const [name, bot] of [
      ['Alice', false],
      ['Bob', false],
      ['Robo', true],
    ] as const) {
      const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name, bot } });
      expect(r.statusCode, r.body).toBe(201);
      tokens[name] = PlayerCreatedSchema.parse(r.json()).token;
    }
    clock = at(DAY1);
    await app.daily.tick();
    const today = DailyTodaySchema.parse((await app.inject({ method: 'GET', url: '/api/daily' })).json());
    commitment = today.tomorrow.find((t) => t.preset === PRESET)?.commitment ?? '';
    clock = at(DAY2, '08:00:00.000');
    await app.daily.tick();
    const row = await app.prisma.dailyDeal.findUniqueOrThrow({
      where: { date_preset: { date: DAY2, preset: PRESET } },
    });
    const line = MoveSchema.array().parse(row.line);
    await attempt('Alice', line); // won
    const bob = await attempt('Bob', line.slice(0, 3));
    clock += 5000;
    const resigned = await app.inject({
      method: 'POST',
      url: `/api/games/${bob}/resign`,
      headers: { authorization: `Bearer ${tokens.Bob ?? ''}` },
      payload: {},
    });
    expect(resigned.statusCode, resigned.body).toBe(200);
    await attempt('Robo', line);
    clock = at(DAY3, '00:00:01.000');
    await app.daily.tick();
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  /** The day's export (gzip bytes) with its games rewritten by `change`. */
  function forgedExport(body: Uint8Array, change: (games: ExportGame[]) => void): Buffer {
    const games = gunzipSync(body)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => ExportGameSchema.parse(JSON.parse(l)));
    change(games);
    return gzipSync(games.map((g) => `${JSON.stringify(g)}\n`).join(''));
  }

  /**
   * Runs the verifier through a fetch that serves the forged export (and its listing, re-hashed), and the
   * real server's other answers, each rewritten by `extra` when given. Returns the failed checks.
   */
  async function failing(
    change: (games: ExportGame[]) => void,
    extra?: (path: string, body: string) => string | undefined,
  ): Promise<CheckName[]> {
    const real = new Uint8Array(await (await fetch(`${base}/api/exports/${DAY2}`)).arrayBuffer());
    const edited = forgedExport(real, change);
    const doFetch: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const r = await fetch(url, init);
      let out: Uint8Array | string = new Uint8Array(await r.arrayBuffer());
      if (url.pathname === `/api/exports/${DAY2}`) out = edited;
      else if (url.pathname === '/api/exports') {
        const list = ExportListSchema.parse(JSON.parse(Buffer.from(out).toString('utf8')));
        for (const f of list.files)
          if (f.date === DAY2) Object.assign(f, { sha256: sha256(edited), bytes: edited.byteLength });
        out = JSON.stringify(list);
      } else if (extra !== undefined) out = extra(url.pathname, Buffer.from(out).toString('utf8')) ?? out;
      return new Response(typeof out === 'string' ? out : Buffer.from(out), {
        status: r.status,
        headers: r.headers,
      });
    };
    const report = await verifyDaily({
      server: base,
      date: DAY2,
      preset: PRESET,
      commitment,
      fetch: doFetch,
    });
    expect(report.checks.find((c) => c.check === 'export-file')?.ok).toBe(true);
    return report.checks.filter((c) => !c.ok).map((c) => c.check);
  }
  const byName = (games: ExportGame[], name: string): ExportGame => {
    const g = games.find((x) => x.name === name && x.preset === PRESET);
    if (g === undefined) throw new Error(`no game of ${name}`);
    return g;
  };

  it('the honest day passes every check, the new ones included', async () => {
    const report = await verifyDaily({ server: base, date: DAY2, preset: PRESET, commitment });
    for (const c of report.checks) expect(c.ok, `${c.check}: ${c.detail}`).toBe(true);
    expect(report.checks.map((c) => c.check)).toEqual(
      expect.arrayContaining(['export-options', 'export-players']),
    );
  });

  it('a ranked game exported with undo and hints on: export-options fails, and only it', async () => {
    const failed = await failing((games) => {
      Object.assign(byName(games, 'Alice').options, { undo: true, hints: true });
    });
    expect(failed).toEqual(['export-options']);
  });

  it('draw-3 rules on the draw-1 daily: export-options fails', async () => {
    const failed = await failing((games) => {
      Object.assign(byName(games, 'Bob').options, { draw: 3 });
    });
    expect(failed).toContain('export-options');
  });

  it('two players swapped between the export and the leaderboard: export-players fails, and only it', async () => {
    const failed = await failing((games) => {
      const alice = byName(games, 'Alice');
      const bob = byName(games, 'Bob');
      [alice.playerId, bob.playerId] = [bob.playerId, alice.playerId];
      [alice.name, bob.name] = [bob.name, alice.name];
    });
    expect(failed).toEqual(['export-players']);
  });

  it('provisional flipped in the export: export-players fails, and only it', async () => {
    const failed = await failing((games) => {
      byName(games, 'Alice').provisional = true;
    });
    expect(failed).toEqual(['export-players']);
  });

  it('provisional flipped in the export and the leaderboard together: the creation date fails it', async () => {
    const failed = await failing(
      (games) => {
        byName(games, 'Alice').provisional = true;
      },
      (path, body) => {
        if (!path.endsWith('/leaderboard')) return undefined;
        const lb = JSON.parse(body) as { entries: { name: string; provisional: boolean }[] };
        for (const e of lb.entries) if (e.name === 'Alice') e.provisional = true;
        return JSON.stringify(lb);
      },
    );
    expect(failed).toEqual(['export-players']);
  });
});
