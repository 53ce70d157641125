/**
 * The package as a user gets it: packed as it is published (scripts/check-package.mjs: its version is the
 * API's, publint and @arethetypeswrong/cli pass), installed from the tarball with `npm install` into an empty
 * folder outside the workspace (its dependencies from the npm registry), imported from plain Node to play a
 * game against a running server, and its two commands (`klondike-bot`, `klondike-verify`) run from the
 * folder's `node_modules/.bin`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without declarations
import { apiVersion, clientVersion, packAndLint } from '../scripts/check-package.mjs';
import { type TestServer, startServer } from './server.js';

const run = promisify(execFile);

/** A plain Node program that uses the installed package: a game, a move, a refusal, and a stream line. */
const PLAY = `
import { KlondikeClient, isKlondikeError } from '@klondike/client';
import { GameSession } from '@klondike/client/session';

const client = new KlondikeClient({ baseUrl: process.argv[2] });
const me = await client.createPlayer('Packed' + Math.floor(Math.random() * 1e6), { bot: true });
client.setToken(me.token);
const game = await client.createGame({ preset: 'classic-draw1', dealNumber: 617 });
const next = await client.playMove(game.id, { type: 'draw' }, game.version);
let refused = null;
try {
  await client.playMove(game.id, { type: 'draw' }, 0);
} catch (e) {
  if (isKlondikeError(e, 'stale-version')) refused = e.version;
}
const stream = await fetch(process.argv[2] + '/api/stream/games/' + game.id + '?since=0', {
  headers: { authorization: 'Bearer ' + me.token },
});
const reader = stream.body.getReader();
let text = '';
while (!text.includes('"type":"state"')) text += new TextDecoder().decode((await reader.read()).value);
await reader.cancel();
console.log(JSON.stringify({
  version: next.version,
  refused,
  session: typeof GameSession,
  streamType: stream.headers.get('content-type'),
  firstLine: JSON.parse(text.split('\\n')[0]).type,
}));
`;

describe('the packed @klondike/client, installed outside the workspace', () => {
  let server: TestServer;
  let dir: string;
  let tarball: string;

  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'klondike-client-user-'));
    tarball = (packAndLint as (out?: string) => string)(mkdtempSync(join(tmpdir(), 'klondike-client-pack-')));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'user', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: dir, timeout: 240_000 });
  }, 480_000);
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is versioned with the API', () => {
    expect((clientVersion as () => string)()).toBe((apiVersion as () => string)());
  });

  it('imports from plain Node and plays a game against the server', async () => {
    writeFileSync(join(dir, 'play.mjs'), PLAY);
    const { stdout } = await run(process.execPath, ['play.mjs', server.url], { cwd: dir, timeout: 60_000 });
    expect(JSON.parse(stdout.trim())).toEqual({
      version: 1,
      refused: 1,
      session: 'function',
      streamType: 'application/x-ndjson; charset=utf-8',
      firstLine: 'action',
    });
  }, 120_000);

  it('runs `klondike-bot` (one game, `won W of 1` last) and `klondike-verify` (a usage error: exit 2)', async () => {
    const bin = join(dir, 'node_modules', '.bin');
    const { stdout } = await run(join(bin, 'klondike-bot'), ['--server', server.url, '--games', '1'], {
      cwd: dir,
      timeout: 120_000,
    });
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^won [01] of 1$/);
    const verify = await run(join(bin, 'klondike-verify'), ['--server', server.url, '--bogus'], {
      cwd: dir,
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(verify.code).toBe(2);
    expect(verify.stderr).toMatch(/--server URL/);
  }, 180_000);
});
