/**
 * The app's languages (vue-i18n, Composition API, runtime-only build: every message is compiled to a function
 * at build time by @intlify/unplugin-vue-i18n, so the message compiler is not shipped).
 *
 * - English (`locales/en.json`) is in the first page; every other language's messages are a chunk of their
 *   own, fetched only when that language is chosen (`setLanguage`).
 * - Messages only lazily loaded pages use are sections of their own (`locales/<section>/<code>.json`, e.g.
 *   `fair-play`: the fair-play and moderators' pages), one chunk per language, fetched by
 *   `loadMessageSection` (the routes that need one await it before they render) and merged into the
 *   language's messages; a language chosen later gets every section already asked for before it is shown.
 * - The language: the one chosen on the settings page, kept per browser (localStorage `klondike.language`),
 *   or else the first of the browser's languages (`navigator.languages`) that the app has, or else English.
 * - `<html lang>` always names the language shown.
 *
 * To add a language: a `locales/<code>.json` with exactly the keys of en.json and a `locales/<section>/<code>.json`
 * per section with exactly the keys of the section's en.json (test/i18n.test.ts checks), its loaders below,
 * its code and own name in `LANGUAGES`, and a plural rule in `PLURAL_RULES` if its plurals differ from
 * English's.
 */
import { createI18n } from 'vue-i18n';
import en from './locales/en.json';

/** The languages of the app: code → the language's name in itself (shown in the settings page). */
export const LANGUAGES = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
} as const;
/** A language of the app. */
export type Language = keyof typeof LANGUAGES;
/** The messages' shape: English's (every other language has exactly its keys). */
export type Messages = typeof en;

/**
 * Translates `key` outside components (lib/ and composables; components use `useI18n` or `$t`) in the
 * current language; reactive where the caller is (computed, templates).
 */
export function tr(key: string, named?: Record<string, unknown>, plural?: number): string {
  const t = i18n.global.t as (k: string, n: Record<string, unknown>, p?: number) => string;
  return plural === undefined ? t(key, named ?? {}) : t(key, { n: plural, ...named }, plural);
}

/**
 * A message from elsewhere that is always English (the server's refusals, the rules package's reading of a
 * pasted deal), where the app has no text of its own for the case: shown as it is in English, and replaced by
 * the app's `fallbackKey` text in any other language.
 */
export function serverText(message: string | undefined, fallbackKey: string): string {
  return message && i18n.global.locale.value === 'en' ? message : tr(fallbackKey);
}

/** A number in the current language's way (`1,234` / `1 234` / `1.234`). */
export function num(value: number): string {
  return new Intl.NumberFormat(i18n.global.locale.value).format(value);
}

/** The localStorage key of this browser's chosen language (absent: follow the browser). */
export const LANGUAGE_KEY = 'klondike.language';

/** Whether `code` is a language of the app. */
export function isLanguage(code: unknown): code is Language {
  return typeof code === 'string' && Object.hasOwn(LANGUAGES, code);
}

/**
 * The app's language for a browser whose preferred languages are `preferred` (BCP 47 tags, best first, as
 * `navigator.languages`): the first whose primary subtag the app has (`fr-CA` → `fr`); English otherwise.
 */
export function languageFor(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

/**
 * Plural choice for French (and Spanish/German use English's): 0 and 1 take the singular. For a message
 * `singular | plural` vue-i18n calls this with the count and the number of choices (2).
 */
function frenchPlural(choice: number, choices: number): number {
  const n = Math.abs(choice);
  if (choices === 3) return n === 0 ? 0 : n === 1 ? 1 : 2; // `none | one | many`, as English's rule
  return n <= 1 ? 0 : 1;
}

/** Messages per language: English built in, the others added as they are loaded (typed as any language). */
const messages: Record<string, Messages> = { en };

/** The app's one vue-i18n instance (install with `app.use(i18n)`). */
export const i18n = createI18n({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages,
  pluralRules: { fr: frenchPlural },
  missingWarn: false,
  fallbackWarn: false,
});

/** Loads a language's messages (its own chunk; English is always here). */
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>> = {
  fr: () => import('./locales/fr.json'),
  de: () => import('./locales/de.json'),
  es: () => import('./locales/es.json'),
};

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The language chosen on this browser's settings page, or null to follow the browser. */
export function chosenLanguage(): Language | null {
  try {
    const v = storage()?.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : null;
  } catch {
    return null;
  }
}

/** The browser's preferred languages (`navigator.languages`, or `navigator.language`). */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/**
 * A section of messages kept out of the main files, used only by pages that load on demand: `fair-play`
 * (`fairPlay`, `moderation`: the fair-play and moderators' pages, report buttons, a player's standing) and
 * `help` (`help`: the help page), `tokens` (`tokens`: the personal access tokens page), `puzzles`
 * (`puzzles`: the Puzzles page and the timed run) and `a11y` (`a11y`: the screen-reader table, the command
 * line, the update prompt).
 */
export type MessageSection = 'fair-play' | 'help' | 'tokens' | 'puzzles' | 'a11y';

/** A section file's messages (top-level keys of the app's messages, e.g. `{ fairPlay, moderation }`). */
type SectionMessages = Record<string, unknown>;

/** Loads a section's messages in a language (one chunk per section and language). */
const sectionLoaders: Record<
  MessageSection,
  Record<Language, () => Promise<{ default: SectionMessages }>>
> = {
  'fair-play': {
    en: () => import('./locales/fair-play/en.json'),
    fr: () => import('./locales/fair-play/fr.json'),
    de: () => import('./locales/fair-play/de.json'),
    es: () => import('./locales/fair-play/es.json'),
  },
  help: {
    en: () => import('./locales/help/en.json'),
    fr: () => import('./locales/help/fr.json'),
    de: () => import('./locales/help/de.json'),
    es: () => import('./locales/help/es.json'),
  },
  tokens: {
    en: () => import('./locales/tokens/en.json'),
    fr: () => import('./locales/tokens/fr.json'),
    de: () => import('./locales/tokens/de.json'),
    es: () => import('./locales/tokens/es.json'),
  },
  puzzles: {
    en: () => import('./locales/puzzles/en.json'),
    fr: () => import('./locales/puzzles/fr.json'),
    de: () => import('./locales/puzzles/de.json'),
    es: () => import('./locales/puzzles/es.json'),
  },
  a11y: {
    en: () => import('./locales/a11y/en.json'),
    fr: () => import('./locales/a11y/fr.json'),
    de: () => import('./locales/a11y/de.json'),
    es: () => import('./locales/a11y/es.json'),
  },
};

/** The sections asked for so far (a newly chosen language gets them too). */
const wantedSections = new Set<MessageSection>();
/** Sections merged or being merged, by `<section>:<language>`: the load's promise (dropped if it failed). */
const sectionLoads = new Map<string, Promise<void>>();

/**
 * Fetches `section` in `language` once and merges it into that language's messages (whose main file must be
 * loaded already). Rejects if the chunk cannot be fetched (the next call tries again).
 */
function loadSectionIn(section: MessageSection, language: Language): Promise<void> {
  const key = `${section}:${language}`;
  let load = sectionLoads.get(key);
  if (!load) {
    load = sectionLoaders[section][language]().then((m) => {
      i18n.global.mergeLocaleMessage(language, m.default);
    });
    load.catch(() => sectionLoads.delete(key));
    sectionLoads.set(key, load);
  }
  return load;
}

/**
 * Fetches `section` in `language`, and English's instead if that fails (vue-i18n falls back to English
 * for the missing keys). Rejects only if English's cannot be fetched either.
 */
async function loadSectionOrEnglish(section: MessageSection, language: Language): Promise<void> {
  try {
    await loadSectionIn(section, language);
  } catch (e) {
    if (language === 'en') throw e;
    await loadSectionIn(section, 'en');
  }
}

/**
 * Makes `section`'s messages available in the current language (and in every language chosen later):
 * resolves once they are merged, at once if they already are. Rejects if neither the current language's
 * chunk nor English's can be fetched (offline on a first visit: the page cannot load either).
 */
export function loadMessageSection(section: MessageSection): Promise<void> {
  wantedSections.add(section);
  return loadSectionOrEnglish(section, i18n.global.locale.value as Language);
}

/**
 * Shows the app in `language` (loading its messages first if needed, with every section asked for so far)
 * and sets `<html lang>`. A language whose main messages cannot be fetched (offline, a first visit) leaves
 * the current one; a section that cannot be fetched is shown in English.
 */
export async function setLanguage(language: Language): Promise<void> {
  if (language !== 'en' && !i18n.global.availableLocales.includes(language)) {
    try {
      const messages = await loaders[language]();
      i18n.global.setLocaleMessage(language, messages.default);
    } catch {
      return;
    }
  }
  try {
    await Promise.all([...wantedSections].map((s) => loadSectionOrEnglish(s, language)));
  } catch {
    /* neither the language's section nor English's: the keys show until a page asks again */
  }
  i18n.global.locale.value = language;
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Chooses the language on this browser (null: follow the browser's languages again), stores the choice and
 * shows it.
 */
export function chooseLanguage(language: Language | null): Promise<void> {
  try {
    if (language) storage()?.setItem(LANGUAGE_KEY, language);
    else storage()?.removeItem(LANGUAGE_KEY);
  } catch {
    /* private mode: the choice lasts for this tab */
  }
  return setLanguage(language ?? languageFor(browserLanguages()));
}

/** The language to start in: the stored choice, else the browser's. */
export function startLanguage(): Language {
  return chosenLanguage() ?? languageFor(browserLanguages());
}
