/**
 * The import boundaries of `pnpm lint` (.dependency-cruiser.cjs) catch what they are for: run on a small
 * throw-away tree laid out like the repository, a domain → plugin import, the game log importing a kind's
 * module, a web page importing the API module directly, a service importing Prisma and an import cycle all
 * fail the check, and the same tree without them passes (Prisma in `infra/db` and in repositories included).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
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
  'apps/server/src/features/solve/plugin.ts':
    "import { pool } from '../../core/rooms/rooms.js';\nexport const p = pool;\n",
  'apps/server/src/core/rooms/rooms.ts':
    "import { db } from '../../infra/db/db.js';\nexport const pool = db;\n",
  'apps/server/src/infra/db/db.ts':
    "import { PrismaClient } from '../../generated/prisma/client.js';\nexport const db = PrismaClient;\n",
  'apps/server/src/generated/prisma/client.ts': 'export class PrismaClient {}\n',
  'apps/server/src/features/races/repository.ts':
    "import type { PrismaClient } from '../../generated/prisma/client.js';\nexport type Db = PrismaClient;\n",
  'apps/server/src/features/races/arena-repository.ts':
    "import type { PrismaClient } from '../../generated/prisma/client.js';\nexport type ArenaDb = PrismaClient;\n",
  'apps/server/src/features/races/service.ts':
    "import type { Db } from './repository.js';\nexport type Service = { db: Db };\n",
  'apps/server/src/edge/app.ts': "import { p } from '../features/solve/plugin.js';\nexport const app = p;\n",
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

  it("a domain file importing its folder's plugin, routes, channel or module fails", () => {
    for (const file of ['plugin', 'routes', 'channel', 'module', 'open-data-routes']) {
      const r = check({
        ...clean,
        'apps/server/src/features/daily/service.ts': `import { p } from './${file}.js';\nexport const s = p;\n`,
        [`apps/server/src/features/daily/${file}.ts`]: 'export const p = 1;\n',
      });
      expect(r.status).not.toBe(0);
      expect(r.output).toContain('domain-below-fastify');
    }
  });

  it('infrastructure importing the core, a feature or the edge fails', () => {
    for (const target of ['core/rooms/rooms', 'features/solve/plugin', 'edge/app']) {
      const r = check({
        ...clean,
        'apps/server/src/infra/db/db.ts': `import { x } from '../../${target}.js';\nexport const db = x;\n`,
      });
      expect(r.status).not.toBe(0);
      expect(r.output).toContain('infra-is-the-floor');
    }
  });

  it('the core importing a feature (the daily, the races) or the edge fails', () => {
    for (const kind of ['daily', 'races']) {
      const r = check({
        ...clean,
        'apps/server/src/core/rooms/rooms.ts': `import { d } from '../../features/${kind}/policy.js';\nexport const pool = d;\n`,
        [`apps/server/src/features/${kind}/policy.ts`]: 'export const d = 1;\n',
      });
      expect(r.status).not.toBe(0);
      expect(r.output).toContain('core-knows-no-features');
    }
  });

  it('a feature importing the edge fails', () => {
    const r = check({
      ...clean,
      'apps/server/src/features/solve/service.ts':
        "import { app } from '../../edge/app.js';\nexport const s = app;\n",
    });
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('features-below-the-edge');
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

  it('Prisma imported outside infra/db and the repository files fails', () => {
    for (const file of [
      'apps/server/src/features/races/service.ts',
      'apps/server/src/features/races/transitions.ts',
      'apps/server/src/core/rooms/rooms.ts',
      'apps/server/src/edge/app.ts',
      'apps/server/src/features/races/repository-helpers.ts',
    ]) {
      const r = check({
        ...clean,
        [file]: `import type { Prisma } from '${file.split('/').length === 5 ? '..' : '../..'}/generated/prisma/client.js';\nexport type T = Prisma;\n`,
        'apps/server/src/generated/prisma/client.ts':
          'export class PrismaClient {}\nexport type Prisma = 1;\n',
      });
      expect(r.status, file).not.toBe(0);
      expect(r.output).toContain('prisma-only-in-repositories');
    }
  });
});
