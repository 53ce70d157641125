/**
 * Regenerates `src/generated/openapi.ts` (the REST types of the client) from the server's OpenAPI document.
 *
 *   pnpm --filter @klondike/client generate                 # from a server started for the purpose
 *   pnpm --filter @klondike/client generate -- --url http://localhost:3000   # from a running server's /docs/json
 *
 * Run it after changing a route or a zod schema of @klondike/protocol; test/rest.test.ts fails while
 * the committed file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fetchOpenApi, openApiToTypeScript } from './openapi.ts';

const args = process.argv.slice(2).filter((a) => a !== '--');
const i = args.indexOf('--url');
const url = i >= 0 ? args[i + 1] : undefined;
if (i >= 0 && url === undefined) throw new Error('--url needs a server address, e.g. http://localhost:3000');

const out = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
writeFileSync(out, await openApiToTypeScript(await fetchOpenApi(url)));
console.log(`wrote ${out}`);
