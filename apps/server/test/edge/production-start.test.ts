/**
 * The production start: `pnpm start` (apps/server/package.json) and the Dockerfile run the built server with the
 * same environment and the same node flags, and the benchmarks read that start (bench/production-start.ts) to
 * run the server exactly so. The malloc setting keeps an idle server's memory down once the solver has freed
 * its tables (docs/benchmarks.md "Idle memory").
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProductionStart, productionStart } from '../../bench/production-start.js';

const SERVER_DIR = resolve(import.meta.dirname, '../..');
const ROOT = resolve(SERVER_DIR, '../..');

/** The Dockerfile's ENV assignments (`ENV A=1 \` continued lines included) and its CMD array. */
function dockerfile(): { env: Record<string, string>; cmd: string[] } {
  const text = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^ENV\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    for (const a of (m[1] as string).trim().split(/\s+/)) {
      const eq = a.indexOf('=');
      env[a.slice(0, eq)] = a.slice(eq + 1);
    }
  }
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(text);
  if (!cmd) throw new Error('the Dockerfile has no CMD array');
  return { env, cmd: JSON.parse(cmd[1] as string) as string[] };
}

describe('production start', () => {
  it('pnpm start sets the malloc threshold and runs node with flags on dist/main.js', () => {
    const start = productionStart(SERVER_DIR);
    expect(start.env).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(start.nodeFlags).toContain('--heap-growing-percent=100');
    expect(start.nodeFlags).toContain('--no-allocation-site-pretenuring');
  });

  it('the Dockerfile starts the server with the same environment and the same flags as pnpm start', () => {
    const start = productionStart(SERVER_DIR);
    const docker = dockerfile();
    expect(docker.cmd).toEqual(['node', ...start.nodeFlags, 'dist/main.js']);
    for (const [name, value] of Object.entries(start.env)) expect(docker.env[name]).toBe(value);
  });

  it('reads assignments and flags after `&&` and refuses a script that does not run dist/main.js', () => {
    expect(parseProductionStart('node build.mjs && A=1 B_2= node --x=1 --y dist/main.js')).toEqual({
      env: { A: '1', B_2: '' },
      nodeFlags: ['--x=1', '--y'],
    });
    expect(parseProductionStart('node dist/main.js')).toEqual({ env: {}, nodeFlags: [] });
    expect(() => parseProductionStart('tsx src/main.ts')).toThrow(/does not run/);
    expect(() => parseProductionStart('node build.mjs && node --x other.js')).toThrow(/does not run/);
  });
});
