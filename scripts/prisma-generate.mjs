// Runs `prisma generate` offline. Prisma 7's CLI wants a schema-engine binary before any command; generate
// never runs it, so pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file (node itself) is enough.
// See "Migrations" in docs/architecture.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = resolve(root, 'apps/server');
if (!existsSync(resolve(root, 'prisma/schema.prisma'))) {
  console.log('prisma-generate: no prisma/schema.prisma yet, skipping');
  process.exit(0);
}
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
const result = spawnSync('pnpm', ['exec', 'prisma', 'generate'], { cwd: serverDir, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
