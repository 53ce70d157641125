/**
 * `pnpm verify` against the server as `pnpm start` runs it (built by build.mjs, dist/main.js with the start
 * script's environment and node flags) on a fresh Postgres schema, for a closed day with ranked attempts.
 *
 * A process's clock cannot be injected, so the day is yesterday (real time): a test server in this process,
 * its clock set to the day before, makes yesterday's dailies (published as tomorrow's, commitments noted),
 * then plays yesterday's ranked attempts — a win, a resignation and one left unfinished — and stops. The
 * built server then starts on the same database: for it yesterday has closed, so it settles the day (the
 * unfinished attempt's row), makes its export and reveals it. The verifier must print every check as passed
 * and exit 0, given the commitments seen before the day opened.
 */
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { CHECKS } from '@klondike/client/verify';
import {
  DailyTodaySchema,
  GameResponseSchema,
  MoveSchema,
  PlayerCreatedSchema,
  StateResponseSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { productionStart } from '../../../bench/production-start.js';
import { addDays, utcDate } from '../../../src/infra/dates.js';
import { TEST_DATABASE_URL, dropSchema, testApp, testSchemaName, withSchema } from '../../support/helpers.js';
import { SERVER_DIR, type ServerProcess, killProcess, startServerProcess } from '../../support/processes.js';

const ROOT = resolve(SERVER_DIR, '../..');
/** Passed as DAILY_SECRET to the built server too, so it must be as strong as start-up demands. */
const SECRET = 'gX2q7VnR0bT8wYk4Lc1Zs9Hj5Mf3Pd6Ea_uNoKiQyW-r';
const PRESETS = ['classic-draw1', 'classic-draw3'] as const;

/** Runs `pnpm verify -- ARGS` at the repository root. */
function pnpmVerify(args: readonly string[]): Promise<{ status: number | null; out: string }> {
  const child = spawn('pnpm', ['--silent', 'verify', '--', ...args], { cwd: ROOT });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return new Promise((done) => child.on('close', (status) => done({ status, out })));
}

// A server process needs a database it can share with this one: Postgres (TEST_DATABASE_URL), else nothing to run.
describe.skipIf(TEST_DATABASE_URL === undefined)('pnpm verify against pnpm start [Postgres]', () => {
  const url = withSchema(TEST_DATABASE_URL ?? 'postgresql://unused', testSchemaName());
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killProcess(server);
    await dropSchema(url);
  });

  it('a closed day with ranked attempts: every check printed as passed, exit 0', async () => {
    const day = addDays(utcDate(Date.now()), -1);
    let clock = Date.parse(`${addDays(day, -1)}T12:00:00.000Z`);
    const app: FastifyInstance = await testApp(
      {
        kind: 'postgres',
        config: () => ({ databaseUrl: url, dataDir: 'memory://' }),
        cleanup: async () => {},
      },
      { now: () => clock, config: { dailySecret: SECRET } },
    );
    /** The commitments of `day` published the day before, by preset. */
    const seen: Record<string, string> = {};
    try {
      const tokens: string[] = [];
      for (const name of ['Alice', 'Bob']) {
        const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
        expect(r.statusCode, r.body).toBe(201);
        tokens.push(PlayerCreatedSchema.parse(r.json()).token);
      }
      await app.daily.tick();
      const before = DailyTodaySchema.parse((await app.inject({ method: 'GET', url: '/api/daily' })).json());
      for (const t of before.tomorrow) seen[t.preset] = t.commitment;
      expect(Object.keys(seen).sort()).toEqual([...PRESETS]);

      clock = Date.parse(`${day}T08:00:00.000Z`);
      await app.daily.tick();
      const play = async (token: string, preset: string, moves: readonly Move[]): Promise<string> => {
        const headers = { authorization: `Bearer ${token}` };
        const r = await app.inject({ method: 'POST', url: `/api/daily/${day}/${preset}/attempt`, headers });
        expect(r.statusCode, r.body).toBe(201);
        const game = GameResponseSchema.parse(r.json());
        let version = game.version;
        for (const move of moves) {
          clock += 1500;
          const m = await app.inject({
            method: 'POST',
            url: `/api/games/${game.id}/moves`,
            headers,
            payload: { move, version },
          });
          expect(m.statusCode, m.body).toBe(200);
          version = StateResponseSchema.parse(m.json()).version;
        }
        return game.id;
      };
      const lineOf = async (preset: string): Promise<Move[]> =>
        MoveSchema.array().parse(
          (await app.prisma.dailyDeal.findUniqueOrThrow({ where: { date_preset: { date: day, preset } } }))
            .line,
        );
      const [alice, bob] = tokens as [string, string];
      await play(alice, 'classic-draw1', await lineOf('classic-draw1')); // won
      await play(bob, 'classic-draw1', (await lineOf('classic-draw1')).slice(0, 2)); // unfinished at the close
      const resigned = await play(alice, 'classic-draw3', (await lineOf('classic-draw3')).slice(0, 3));
      clock += 2000;
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${resigned}/resign`,
        headers: { authorization: `Bearer ${alice}` },
        payload: {},
      });
      expect(r.statusCode, r.body).toBe(200);
    } finally {
      await app.close();
    }

    execFileSync(process.execPath, ['build.mjs'], { cwd: SERVER_DIR, stdio: 'pipe' });
    const start = productionStart(SERVER_DIR);
    server = await startServerProcess(
      {
        ...start.env,
        NODE_OPTIONS: undefined, // plain node, no TypeScript loader: the built bundle alone
        DATABASE_URL: url,
        DAILY_SECRET: SECRET,
        DAILY_ARCHIVE_DAYS: '1',
        DAILY_SOLVE_MS: '300',
        SOLVER_THREADS: '1',
        WEB_DIST: '/nonexistent-web-dist',
      },
      [...start.nodeFlags, 'dist/main.js'],
    );
    const base = server.base;
    const runs = await Promise.all(
      PRESETS.map((preset) =>
        pnpmVerify(['--server', base, '--date', day, '--preset', preset, '--commitment', seen[preset] ?? '']),
      ),
    );
    for (const [i, run] of runs.entries()) {
      expect(run.status, `${PRESETS[i]}:\n${run.out}`).toBe(0);
      for (const check of CHECKS) expect(run.out).toContain(`ok   ${check}:`);
      expect(run.out).not.toContain('FAIL');
      expect(run.out).toContain('verified: every check passed');
    }
    // The day's export holds the three attempts (the unfinished one settled by the built server).
    const list = (await (await fetch(`${base}/api/exports`)).json()) as {
      files: { date: string; games: number }[];
    };
    expect(list.files.find((f) => f.date === day)?.games).toBe(3);
  }, 120_000);
});
