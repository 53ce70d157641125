/**
 * The type-aware rules of `pnpm lint` (eslint.config.js) catch what they are for: a server source that
 * leaves a promise floating, or hands an async function to a place that ignores its promise, fails the
 * lint, and the same code with the promise handled passes. The sources are linted as text in place of a
 * real file of the server, so the checker sees them inside the server's own project.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const FILE = resolve(ROOT, 'apps/server/src/infra/errors.ts');

async function rulesBroken(source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(source, { filePath: FILE });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const work = 'async function work(): Promise<number> {\n  return 1;\n}\n';

describe('type-aware lint rules (pnpm lint)', { timeout: 120_000 }, () => {
  it('a floating promise fails, a handled one passes', async () => {
    expect(await rulesBroken(`${work}export function go(): void {\n  work();\n}\n`)).toContain(
      '@typescript-eslint/no-floating-promises',
    );
    expect(await rulesBroken(`${work}export function go(): void {\n  void work();\n}\n`)).toEqual([]);
  });

  it('an async callback where a void one is expected fails', async () => {
    const source = `${work}export function go(): void {\n  setTimeout(async () => {\n    await work();\n  }, 1);\n}\n`;
    expect(await rulesBroken(source)).toContain('@typescript-eslint/no-misused-promises');
  });

  it('awaiting a value that is not a promise fails', async () => {
    const source = 'export async function go(): Promise<number> {\n  return await 1;\n}\n';
    expect(await rulesBroken(source)).toContain('@typescript-eslint/await-thenable');
  });
});
