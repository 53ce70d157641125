/**
 * The published declarations of @klondike/client (after `tsc -p tsconfig.types.json`, which writes those of the
 * client and of the two private workspace packages it bundles under `dist/types/`): every import of
 * `@klondike/protocol` or `@klondike/rules` in them becomes a relative import of the copy under
 * `dist/types/`, so the package's types name no package a user cannot install.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = fileURLToPath(new URL('../dist/types/', import.meta.url));

/** Where each bundled specifier's declarations are, under dist/types. */
const TARGETS = {
  '@klondike/protocol/constants': 'protocol/src/constants.js',
  '@klondike/protocol': 'protocol/src/index.js',
  '@klondike/rules': 'klondike/src/index.js',
};

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.d.ts')) yield path;
  }
}

let rewritten = 0;
for (const file of files(TYPES)) {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(
    /(["'])(@klondike\/(?:protocol\/constants|protocol|rules))\1/g,
    (_, quote, spec) => {
      let rel = relative(dirname(file), join(TYPES, TARGETS[spec])).split('\\').join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return `${quote}${rel}${quote}`;
    },
  );
  if (out !== text) {
    writeFileSync(file, out);
    rewritten++;
  }
  if (/["']@klondike\//.test(out)) throw new Error(`${file}: an import of a workspace package is left`);
}
console.log(`types: ${rewritten} declaration files point to the bundled packages`);
