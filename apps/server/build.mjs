// Builds the server to plain JavaScript once (`pnpm --filter @klondike/server build`), so production runs it
// with `node dist/main.js` — no TypeScript compiler or loader at run time:
// - dist/main.js: src/main.ts with the workspace packages (@klondike/*, TypeScript sources) bundled in;
// - dist/solver-worker.js: the solver's worker-thread entry (src/features/solve/task.ts), likewise.
// Every package node finds from dist/ stays an ordinary import from node_modules (Prisma's runtime, PGlite
// and their files); the workspace packages' own dependencies are bundled with them.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Whether node, running dist/main.js, finds package `name` (the node_modules folders above dist/). */
function resolvableFromDist(name) {
  for (let dir = join(here, 'dist'); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * Bundle the workspace's own packages, and what they import that node would not find from dist/ (pnpm
 * links a package's dependencies next to that package only); leave every other bare import to node.
 */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('@klondike/') || args.path.startsWith('node:'))
        return undefined;
      const parts = args.path.split('/');
      const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? args.path);
      return resolvableFromDist(name) ? { path: args.path, external: true } : undefined;
    });
  },
};

// Built beside dist/ and swapped in by two renames, so a server running from dist/ (a test, while another
// test builds) never finds it half written or missing for longer than between the renames.
const out = `dist.build-${process.pid}`;
const old = `dist.old-${process.pid}`;
rmSync(join(here, out), { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts', 'solver-worker': 'src/features/solve/task.ts' },
  outdir: out,
  absWorkingDir: here,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalDependencies],
});
// Another build may swap its own dist/ in between: move whatever is there aside and try again.
for (let attempt = 0; ; attempt++) {
  if (existsSync(join(here, 'dist'))) {
    rmSync(join(here, old), { recursive: true, force: true });
    try {
      renameSync(join(here, 'dist'), join(here, old));
    } catch {
      /* moved by the other build meanwhile */
    }
  }
  try {
    renameSync(join(here, out), join(here, 'dist'));
    break;
  } catch (e) {
    if (attempt >= 20 || !['ENOTEMPTY', 'EEXIST'].includes(e.code)) throw e;
  }
}
rmSync(join(here, old), { recursive: true, force: true });
