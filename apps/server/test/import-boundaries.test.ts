/**
 * The import boundaries of `pnpm lint` (.dependency-cruiser.cjs) catch what they are for: run on a small
 * throw-away tree laid out like the repository, a domain → plugin import, the game log importing a kind's
 * module, a web page importing the API module directly and an import cycle all fail the check, and the same
 * tree without them passes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Writes `files` (path → source) into a fresh tree and runs the project's check on it. */
function check(files: Record<string, string>): { status: number | null; output: string } {
  dir = mkdtempSync(join(tmpdir(), 'boundaries-'));
  copyFileSync(join(ROOT, 'tsconfig.base.json'), join(dir, 'tsconfig.base.json'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const r = spawnSync(
    DEPCRUISE,
    ['apps', 'packages', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'],
    { cwd: dir, encoding: 'utf8' },
  );
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const clean = {
  'apps/server/src/plugins/solver.ts': "import { pool } from '../rooms/rooms.js';\nexport const p = pool;\n",
  'apps/server/src/rooms/rooms.ts': 'export const pool = 1;\n',
  'packages/klondike/src/game.ts': "import { card } from './cards.js';\nexport const g = card;\n",
  'packages/klondike/src/cards.ts': 'export const card = 1;\n',
  'apps/web/src/lib/api.ts': 'export const request = 1;\n',
  'apps/web/src/lib/dailyApi.ts': "import { request } from './api';\nexport const today = request;\n",
  'apps/web/src/pages/DailyPage.vue':
    '<script setup lang="ts">\nimport { today } from \'../lib/dailyApi\';\nconst t = today;\n</script>\n<template><p>{{ t }}</p></template>\n',
};

describe('import boundaries (pnpm lint)', { timeout: 60_000 }, () => {
  it('a tree that keeps them passes', () => {
    const r = check(clean);
    expect(r.output).toContain('no dependency violations');
    expect(r.status).toBe(0);
  });

  it('a domain module importing a plugin fails', () => {
    const r = check({
      ...clean,
      'apps/server/src/rooms/rooms.ts': "import { p } from '../plugins/other.js';\nexport const pool = p;\n",
      'apps/server/src/plugins/other.ts': 'export const p = 1;\n',
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('domain-below-fastify');
  });

  it('any server folder but plugins and routes importing a plugin or a route fails', () => {
    for (const [folder, target] of [
      ['bus', 'plugins'],
      ['solver', 'routes'],
      ['maintenance', 'plugins'],
      ['http', 'routes'],
    ]) {
      const r = check({
        ...clean,
        [`apps/server/src/${folder}/thing.ts`]: `import { p } from '../${target}/other.js';\nexport const t = p;\n`,
        [`apps/server/src/${target}/other.ts`]: 'export const p = 1;\n',
      });
      expect(r.status).not.toBe(0);
      expect(r.output).toContain('domain-below-fastify');
    }
  });

  it('the game log importing the daily or the race module fails', () => {
    for (const kind of ['daily', 'races']) {
      const r = check({
        ...clean,
        'apps/server/src/rooms/rooms.ts': `import { d } from '../${kind}/policy.js';\nexport const pool = d;\n`,
        [`apps/server/src/${kind}/policy.ts`]: 'export const d = 1;\n',
      });
      expect(r.status).not.toBe(0);
      expect(r.output).toContain('rooms-know-no-kinds');
    }
  });

  it('a web page or component importing lib/api directly fails', () => {
    for (const file of ['apps/web/src/pages/DailyPage.vue', 'apps/web/src/components/DealReveal.vue']) {
      const r = check({
        ...clean,
        [file]:
          '<script setup lang="ts">\nimport { request } from \'../lib/api\';\nconst r = request;\n</script>\n<template><p>{{ r }}</p></template>\n',
      });
      expect(r.status).not.toBe(0);
      expect(r.output).toContain('web-pages-reach-api-through-helpers');
    }
  });

  it('an import cycle fails', () => {
    const r = check({
      ...clean,
      'packages/klondike/src/cards.ts':
        "import { g } from './game.js';\nexport const card = 1;\nexport const again = g;\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('no-circular');
  });

  it('the rules package importing node I/O fails', () => {
    const r = check({
      ...clean,
      'packages/klondike/src/cards.ts':
        "import { readFileSync } from 'node:fs';\nexport const card = readFileSync;\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('rules-are-pure');
  });
});
