/**
 * The example bot (`pnpm bot -- --server URL --games N`) against a freshly started real server: it finishes
 * and its last line is `won W of N`; each game it reports has ended on the server as reported.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KlondikeClient } from '../src/index.js';
import { type TestServer, startServer } from './server.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

describe('pnpm bot', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('plays 20 casual games over the socket and prints `won W of 20` last', async () => {
    const { stdout } = await run('pnpm', ['--silent', 'bot', '--', '--server', server.url, '--games', '20'], {
      cwd: repoRoot,
      timeout: 240_000,
    });
    const lines = stdout.trim().split('\n');
    const last = lines.at(-1) ?? '';
    expect(last).toMatch(/^won \d+ of 20$/);
    const won = Number(/^won (\d+)/.exec(last)?.[1]);
    // One line per game (`game n/20 <id>: <status> after <m> moves`): every game ended, as the server says.
    const games = lines.flatMap((l) => {
      const m = /^game \d+\/20 (\S+): (\w+) after \d+ moves$/.exec(l);
      return m ? [{ id: m[1] ?? '', status: m[2] }] : [];
    });
    expect(games).toHaveLength(20);
    const client = new KlondikeClient({ baseUrl: server.url });
    const stored = await Promise.all(games.map(async (g) => (await client.getGame(g.id)).view.status));
    expect(stored).toEqual(games.map((g) => g.status));
    expect(stored.every((s) => s !== 'playing')).toBe(true);
    expect(stored.filter((s) => s === 'won')).toHaveLength(won);
  }, 300_000);
});
