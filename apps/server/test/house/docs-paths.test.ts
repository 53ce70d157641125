/**
 * The docs name only files the repository holds (docs/contributing.md): every path of a source file written
 * in a Markdown file of the repository, or in a comment of a source file, (`apps/server/src/core/rooms/room.ts`, or a shorter tail of one such as
 * `rooms/room.ts`) is the path, or the end of the path, of a file git tracks. A file moved or split without
 * its docs fails here with the Markdown file and the path it names.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');

/** Paths with a folder and a source-like extension, as Markdown names them (not URLs, not globs). */
const PATH = /(?<![\w@./:-])((?:\.\/)?[\w.-]+(?:\/[\w.-]+)+\.(?:ts|vue|mjs|cjs|mts|prisma|sql|yml|yaml))\b/g;

/** The files git tracks, relative to the repository's root. */
function tracked(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** Each path a Markdown text names that no tracked file has as its path or its path's end. */
export function missingPaths(markdown: string, files: readonly string[]): string[] {
  const missing: string[] = [];
  for (const m of markdown.matchAll(PATH)) {
    const path = (m[1] ?? '').replace(/^\.\//, '');
    if (!files.some((f) => f === path || f.endsWith(`/${path}`))) missing.push(path);
  }
  return missing;
}

describe('docs name only files the repository holds', () => {
  it('the check finds a path that does not exist and accepts a tail of one that does', () => {
    const files = ['apps/server/src/core/rooms/room.ts', 'docs/architecture.md'];
    expect(missingPaths('see `rooms/room.ts` and `apps/server/src/core/rooms/room.ts`', files)).toEqual([]);
    expect(missingPaths('see `routes/ws.ts` (the socket)', files)).toEqual(['routes/ws.ts']);
    expect(missingPaths('a URL https://example.com/a/b.ts is not a path', files)).toEqual([]);
  });

  it('every Markdown file of the repository', () => {
    const files = tracked();
    const problems: string[] = [];
    for (const md of files.filter((f) => f.endsWith('.md'))) {
      for (const path of missingPaths(readFileSync(resolve(ROOT, md), 'utf8'), files))
        problems.push(`${md}: ${path}`);
    }
    expect(problems).toEqual([]);
  });

  it("every source file's comments", () => {
    const files = tracked();
    const problems: string[] = [];
    const sources = files.filter(
      (f) => /\.(ts|vue|mjs|cjs)$/.test(f) && !f.includes('/generated/') && !f.endsWith('docs-paths.test.ts'),
    );
    for (const source of sources) {
      const comments = readFileSync(resolve(ROOT, source), 'utf8')
        .split('\n')
        .filter((line) => /^\s*(\*|\/\/|\/\*)/.test(line))
        .join('\n');
      for (const path of missingPaths(comments, files)) problems.push(`${source}: ${path}`);
    }
    expect(problems).toEqual([]);
  });
});
