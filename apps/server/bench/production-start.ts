/**
 * How production starts the built server, read from the `start` script of apps/server/package.json
 * (`node build.mjs && NAME=value … node <flags> dist/main.js`), so that the benchmarks run it exactly as
 * `pnpm start` does: the same environment assignments (the malloc setting) and the same node/V8 flags.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The production start of `dist/main.js`. */
export interface ProductionStart {
  /** Environment assignments the script puts before `node` (e.g. `MALLOC_MMAP_THRESHOLD_`). */
  readonly env: Readonly<Record<string, string>>;
  /** The node and V8 flags between `node` and `dist/main.js`, in order. */
  readonly nodeFlags: readonly string[];
}

/**
 * Parses a `start` script. Errors: throws when the script does not run `[NAME=value …] node [--flag …]
 * dist/main.js` (first command or after `&&`), since a benchmark must not run the server another way.
 */
export function parseProductionStart(script: string): ProductionStart {
  const m = /(?:^|&&\s*)((?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)node\s+((?:--\S+\s+)*)dist\/main\.js/.exec(
    script,
  );
  if (!m)
    throw new Error(`the start script does not run \`[NAME=value …] node [flags] dist/main.js\`: ${script}`);
  const env: Record<string, string> = {};
  for (const assignment of (m[1] ?? '').split(/\s+/).filter((a) => a !== '')) {
    const eq = assignment.indexOf('=');
    env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  return { env, nodeFlags: (m[2] ?? '').split(/\s+/).filter((f) => f !== '') };
}

/** The production start of the server in `serverDir` (its package.json's `start` script). */
export function productionStart(serverDir: string): ProductionStart {
  const pkg = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return parseProductionStart(pkg.scripts?.start ?? '');
}
