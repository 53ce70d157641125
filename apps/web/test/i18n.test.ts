/**
 * The app's languages (src/i18n): every locale file has exactly English's keys, each message of the same
 * kind (a plural where English has one), and the language a browser gets from its preferences.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  type MessageSection,
  i18n,
  languageFor,
  loadMessageSection,
  setLanguage,
} from '../src/i18n';
import { explainIllegal } from '../src/lib/explain';
import { ordinal, progressLabel, statsLine } from '../src/lib/race';
import { makeView } from './fixtures';

const dir = new URL('../src/i18n/locales/', import.meta.url);
type Tree = { [key: string]: string | Tree };
/** A locale file: `locales/<code>.json`, or `locales/<section>/<code>.json` for a message section. */
const load = (code: string, section?: MessageSection): Tree =>
  JSON.parse(readFileSync(new URL(`${section ? `${section}/` : ''}${code}.json`, dir), 'utf8')) as Tree;
/** The message sections (src/i18n `MessageSection`): one folder of locale files each. */
const SECTIONS: readonly MessageSection[] = ['fair-play', 'help', 'tokens', 'puzzles', 'a11y'];
const jsonNames = (d: URL): string[] =>
  readdirSync(d)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

/** Every key of a message tree, dotted, with its message. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

/** `other` has exactly `english`'s keys, each non-empty, with its plural forms and placeholders. */
function expectSameShape(english: Map<string, string>, other: Map<string, string>): void {
  const missing = [...english.keys()].filter((k) => !other.has(k));
  const extra = [...other.keys()].filter((k) => !english.has(k));
  expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  const names = (m: string): string[] => [...m.matchAll(/\{(\w+)\}/g)].map((x) => x[1] as string).sort();
  for (const [key, en] of english) {
    const msg = other.get(key) as string;
    expect(msg.trim(), key).not.toBe('');
    expect(msg.split('|').length, `${key}: plural forms`).toBe(en.split('|').length);
    expect([...new Set(names(msg))], `${key}: placeholders`).toEqual([...new Set(names(en))]);
  }
}

/**
 * The message keys a source file names literally: `$t('a.b')`, `t('a.b')`, `tr('a.b')`, `te('a.b')`; a
 * template key's fixed head ends in `*` (`` $t(`a.b.${x}`) `` gives `a.b.*`).
 */
function literalKeys(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/\b(?:\$t|t|tr|te)\(\s*(['"`])([A-Za-z]\w*(?:\.[\w-]+)+\.?)(\$\{)?/g)) {
    out.push(m[3] === undefined ? (m[2] as string) : `${m[2] as string}*`);
  }
  return out;
}

/** Every .ts and .vue file under `root`. */
function* sourceFiles(root: URL): Generator<URL> {
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (e.isDirectory()) yield* sourceFiles(new URL(`${e.name}/`, root));
    else if (/\.(ts|vue)$/.test(e.name)) yield new URL(e.name, root);
  }
}

/** The source files the first page holds: src/main.ts and what it imports statically, transitively. */
function firstPageFiles(): URL[] {
  const seen = new Map<string, URL>();
  const visit = (file: URL): void => {
    if (seen.has(file.href)) return;
    seen.set(file.href, file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(
      /^\s*import\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm,
    )) {
      const spec = m[1] as string;
      const candidates = /\.(vue|ts|json|css)$/.test(spec) ? [spec] : [`${spec}.ts`, `${spec}/index.ts`];
      const hit = candidates.map((c) => new URL(c, file)).find((u) => existsSync(u));
      if (hit && /\.(vue|ts)$/.test(hit.pathname)) visit(hit);
    }
  };
  visit(new URL('../src/main.ts', import.meta.url));
  return [...seen.values()];
}

const english = flatten(load('en'));

describe('languages', () => {
  it('a file for every language, and a language for every file', () => {
    expect(jsonNames(dir)).toEqual(Object.keys(LANGUAGES).sort());
  });

  for (const code of Object.keys(LANGUAGES).filter((c) => c !== 'en')) {
    it(`${code} has exactly the keys English has, plurals where English has them, the same placeholders`, () => {
      expectSameShape(english, flatten(load(code)));
    });
  }

  it('a folder for every message section, with a file for every language', () => {
    const folders = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual([...SECTIONS].sort());
    for (const section of SECTIONS) {
      expect(jsonNames(new URL(`${section}/`, dir)), section).toEqual(Object.keys(LANGUAGES).sort());
    }
  });

  for (const section of SECTIONS) {
    const sectionEnglish = flatten(load('en', section));

    it(`the ${section} section shares no top-level key with the main files (a merge adds, never replaces)`, () => {
      const main = Object.keys(load('en'));
      expect(Object.keys(load('en', section)).filter((k) => main.includes(k))).toEqual([]);
      expect(sectionEnglish.size).toBeGreaterThan(0);
    });

    for (const code of Object.keys(LANGUAGES).filter((c) => c !== 'en')) {
      it(`${section}: ${code} has exactly the keys English has, plurals, the same placeholders`, () => {
        expectSameShape(sectionEnglish, flatten(load(code, section)));
      });
    }
  }

  it('every key the code names is in the main files or in a section', () => {
    const known = new Set([
      ...english.keys(),
      ...SECTIONS.flatMap((s) => [...flatten(load('en', s)).keys()]),
    ]);
    const unknown = [...sourceFiles(new URL('../src/', import.meta.url))].flatMap((file) =>
      literalKeys(readFileSync(file, 'utf8'))
        .filter((k) =>
          k.endsWith('*')
            ? ![...known].some((kk) => kk.startsWith(k.slice(0, -1)))
            : !known.has(k) && ![...known].some((kk) => kk.startsWith(`${k}.`)),
        )
        .map((k) => `${file.pathname.replace(/.*\/src\//, 'src/')}: ${k}`),
    );
    expect(unknown).toEqual([]);
  });

  it('the first page (what src/main.ts imports, statically) names no key of a section', () => {
    const sectionTops = new Set(SECTIONS.flatMap((s) => Object.keys(load('en', s))));
    const found: string[] = [];
    for (const file of firstPageFiles()) {
      const keys = literalKeys(readFileSync(file, 'utf8')).filter((k) =>
        sectionTops.has(k.split('.')[0] as string),
      );
      found.push(...keys.map((k) => `${file.pathname.replace(/.*\/src\//, 'src/')}: ${k}`));
    }
    expect(found).toEqual([]);
  });

  it('a section is absent until asked for, then there in English and in every language chosen later', async () => {
    const t = i18n.global.t as (k: string, n?: Record<string, unknown>) => string;
    const te = (k: string): boolean => i18n.global.te(k, i18n.global.locale.value);
    const key = 'fairPlay.report.buttonLabel';
    expect(te(key)).toBe(false);
    await loadMessageSection('fair-play');
    expect(t(key, { name: 'Ann' })).toBe('Report Ann');
    await loadMessageSection('fair-play'); // once loaded, at once
    try {
      await setLanguage('de');
      expect(te(key)).toBe(true);
      expect(t(key, { name: 'Ann' })).toBe(
        (flatten(load('de', 'fair-play')).get(key) as string).replace('{name}', 'Ann'),
      );
      await setLanguage('es');
      expect(te('moderation.queue.title')).toBe(true);
    } finally {
      await setLanguage('en');
    }
  });

  it('the browser’s first language the app has; English for any other', () => {
    expect(languageFor(['fr-FR', 'en-US'])).toBe('fr');
    expect(languageFor(['pt-BR', 'de-AT', 'fr'])).toBe('de');
    expect(languageFor(['es'])).toBe('es');
    expect(languageFor(['pt-BR', 'ja'])).toBe('en');
    expect(languageFor([])).toBe('en');
  });

  it('plurals and card names follow the language (R4 explained in French)', async () => {
    const t = i18n.global.t as (k: string, n: number) => string;
    expect(t('common.moves', 1)).toBe('1 move');
    expect(t('common.moves', 2)).toBe('2 moves');
    const view = makeView({
      tableau: [
        [0, ['7S']],
        [0, ['9H']],
      ],
    });
    const move = { type: 'move', from: 't1', to: 't2', count: 1 } as const;
    expect(explainIllegal(view, move)).toBe('A 7 goes on a red 8.');
    await setLanguage('fr');
    try {
      expect(t('common.moves', 0)).toBe('0 coup');
      expect(t('common.moves', 2)).toBe('2 coups');
      expect(explainIllegal(view, move)).toBe('Un 7 se pose sur un 8 rouge.');
    } finally {
      await setLanguage('en');
    }
  });

  it('race places, statuses and stats lines follow the language', async () => {
    const line = {
      foundationCards: 34,
      faceDown: 3,
      moves: 1,
      score: 85,
      elapsedMs: 245_000,
      status: 'playing',
    } as const;
    expect([1, 2, 3, 11].map(ordinal)).toEqual(['1st', '2nd', '3rd', '11th']);
    expect(statsLine(line)).toBe('34/52 · 1 move · 85 pts · 4:05');
    await setLanguage('fr');
    try {
      expect([1, 2, 11].map(ordinal)).toEqual(['1er', '2e', '11e']);
      expect(progressLabel('timeout')).toBe('Temps écoulé');
      expect(statsLine(line)).toBe('34/52 · 1 coup · 85 pts · 4:05');
      await setLanguage('de');
      expect([1, 2].map(ordinal)).toEqual(['1.', '2.']);
      await setLanguage('es');
      expect(ordinal(3)).toBe('3.º');
    } finally {
      await setLanguage('en');
    }
  });
});
