/**
 * The published build of @klondike/client (`pnpm --filter @klondike/client build`): ES modules for Node 20+ in
 * `dist/`. `@klondike/rules` and `@klondike/protocol` are private workspace
 * packages that export TypeScript sources, so they are bundled in  (their code here, their declarations by scripts/types.mjs); every other dependency
 * (openapi-fetch, zod, ws) stays an import of the package's own `dependencies`. The `verify` and `bot` commands
 * are built to `dist/bin/` (package.json `bin`).
 */
import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    verify: 'src/verify.ts',
    session: 'src/session.ts',
    connection: 'src/connection.ts',
    'bin/verify': 'bin/verify.ts',
    'bin/bot': 'bin/bot.ts',
  },
  outDir: 'dist',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Declarations come from tsc (tsconfig.types.json, scripts/types.mjs): the bundled ones of the workspace
  // packages, re-exported through `export *` chains, are not followed by rolldown-plugin-dts 0.23.
  dts: false,
  noExternal: [/^@klondike\//],
  tsconfig: 'tsconfig.build.json',
  clean: true,
  // .js files (the package is `type: module`), as package.json's exports name them.
  fixedExtension: false,
  sourcemap: false,
  unbundle: false,
});
