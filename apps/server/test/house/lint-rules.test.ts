/**
 * The rules of `pnpm lint` (eslint.config.js) catch what they are for. Type-aware rules (typescript-eslint's
 * recommendedTypeChecked): a server source that leaves a promise floating, hands an async function to a
 * place that ignores its promise, marks a function async that awaits nothing or asserts a type the value
 * already has fails the lint, and the same code written correctly passes; a Vue component's script is
 * checked the same way. Size: a source file of 601 lines fails `max-lines`, one of 600 passes, and a test
 * file is not capped. The sources are linted as text in place of a real file of the project, so the checker
 * sees them inside that file's own tsconfig.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const FILE = resolve(ROOT, 'apps/server/src/infra/errors.ts');

/** The rules `source` breaks when it stands in for `file` (a path from the repository root), by rule id. */
async function rulesBroken(source: string, file: string = FILE): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(source, { filePath: resolve(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

/** A module of `lines` lines (each one export), ending with a newline. */
function linesLong(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const n${i} = ${i};\n`).join('');
}

const work = 'function work(): Promise<number> {\n  return Promise.resolve(1);\n}\n';

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

  it('an async function that awaits nothing fails, one that awaits passes', async () => {
    const idle = 'export async function go(): Promise<number> {\n  return 1;\n}\n';
    expect(await rulesBroken(idle)).toContain('@typescript-eslint/require-await');
    const busy = `${work}export async function go(): Promise<number> {\n  return (await work()) + 1;\n}\n`;
    expect(await rulesBroken(busy)).toEqual([]);
  });

  it('a type assertion that changes nothing fails', async () => {
    const source = 'export function twice(n: number): number {\n  return (n as number) * 2;\n}\n';
    expect(await rulesBroken(source)).toContain('@typescript-eslint/no-unnecessary-type-assertion');
  });

  it("a Vue component's script is linted with types", async () => {
    const source = `<script setup lang="ts">\n${work}void work();\nwork();\n</script>\n\n<template><p>x</p></template>\n`;
    expect(await rulesBroken(source, 'apps/web/src/App.vue')).toEqual([
      '@typescript-eslint/no-floating-promises',
    ]);
  });
});

describe('size of source files (pnpm lint)', { timeout: 120_000 }, () => {
  it('a source file of 601 lines fails max-lines, one of 600 passes', async () => {
    expect(await rulesBroken(linesLong(601))).toEqual(['max-lines']);
    expect(await rulesBroken(linesLong(600))).toEqual([]);
  });

  it('a test file is not capped', async () => {
    expect(await rulesBroken(linesLong(601), 'apps/server/test/house/lint-rules.test.ts')).toEqual([]);
  });
});
