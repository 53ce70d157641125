/**
 * The player's settings (card back, table colour, dark mode, left-handed layout, sounds, animation speed and
 * motion, auto-move to foundation): one reactive copy for the whole app, owned here.
 *
 * - Per browser: kept in localStorage (`klondike.settings`), read key by key against the protocol's lists of accepted values (`SETTING_VALUES`, no zod on the first page), so
 *   a stored value this version does not know falls back to its default instead of breaking the page.
 * - Per player: when signed in, the server's copy (GET /api/me `settings`) is taken over on sign-in and every
 *   change is sent with PATCH /api/me (`connectSettings`).
 * - Applied to the page: `<html>` carries `data-theme` (light/dark after the system's preference),
 *   `data-card-back` and `data-table`, which style.css reads; the table reads `leftHanded`, the animations
 *   `motionFactor`.
 */
import type { Settings, SettingsPatch } from '@klondike/protocol';
import { DEFAULT_SETTINGS, SETTING_VALUES } from '@klondike/protocol/constants';
import { computed, reactive, readonly, ref, watch, type ComputedRef, type Ref } from 'vue';

/** The localStorage key of the browser's settings. */
export const SETTINGS_KEY = 'klondike.settings';

/** The parts of Web Storage used here (localStorage, or a stand-in in tests). */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The valid settings among `value` (anything: parsed JSON, a server's answer): keys this version knows with
 * values it accepts; everything else is dropped.
 */
export function validSettings(value: unknown): SettingsPatch {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!Object.hasOwn(SETTING_VALUES, key)) continue;
    const accepted = SETTING_VALUES[key as keyof typeof SETTING_VALUES];
    if (accepted === 'boolean' ? typeof v === 'boolean' : (accepted as readonly unknown[]).includes(v))
      out[key] = v;
  }
  return out;
}

/** Every setting: the defaults with the valid ones of `patch` over them. */
export function withDefaults(patch: unknown): Settings {
  return { ...DEFAULT_SETTINGS, ...validSettings(patch) };
}

/** The settings stored in `storage` (defaults when none, or when the stored text is not JSON). */
export function readSettings(storage: SettingsStorage | null): Settings {
  try {
    const raw = storage?.getItem(SETTINGS_KEY);
    return withDefaults(raw ? (JSON.parse(raw) as unknown) : {});
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

/** Stores `settings` in `storage` (silently nothing when storage is unavailable, e.g. private mode full). */
export function writeSettings(storage: SettingsStorage | null, settings: Settings): void {
  try {
    storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    /* private mode */
  }
}

/** Dark pages or not: the setting, or the system's preference under `system`. */
export function isDark(theme: Settings['theme'], systemDark: boolean): boolean {
  return theme === 'dark' || (theme === 'system' && systemDark);
}

/**
 * The factor on card animation durations: 0 = no animation (reduced motion: the setting, or the system's
 * `prefers-reduced-motion` under `system`); else 1.6 slow, 1 normal, 0.6 fast.
 */
export function motionFactor(s: Pick<Settings, 'motion' | 'animationSpeed'>, systemReduce: boolean): number {
  if (s.motion === 'reduce' || (s.motion === 'system' && systemReduce)) return 0;
  return s.animationSpeed === 'slow' ? 1.6 : s.animationSpeed === 'fast' ? 0.6 : 1;
}

function browserStorage(): SettingsStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function media(query: string): Ref<boolean> {
  const r = ref(false);
  if (typeof matchMedia !== 'function') return r;
  const m = matchMedia(query);
  r.value = m.matches;
  m.addEventListener?.('change', (e) => (r.value = e.matches));
  return r;
}

const state = reactive<Settings>(readSettings(browserStorage()));
const systemDark = media('(prefers-color-scheme: dark)');
const systemReduce = media('(prefers-reduced-motion: reduce)');
/** Sends a change to the server when a player is signed in (set by `connectSettings`). */
let remote: ((patch: SettingsPatch) => void) | null = null;

/** What `useSettings` returns. */
export interface SettingsApi {
  /** Every setting, read-only (change them with `set`). */
  readonly settings: Readonly<Settings>;
  /** Changes some settings: stored in this browser at once, and on the server for a signed-in player. */
  set(this: void, patch: SettingsPatch): void;
  /** Back to the defaults (here and, signed in, on the server). */
  reset(this: void): void;
  /** Whether pages are dark now (the setting, or the system's preference). */
  readonly dark: ComputedRef<boolean>;
  /** The factor on animation durations; 0 = do not animate (`motionFactor`). */
  readonly motionFactor: ComputedRef<number>;
}

const api: SettingsApi = {
  settings: readonly(state),
  set(patch) {
    const valid = validSettings(patch);
    if (Object.keys(valid).length === 0) return;
    Object.assign(state, valid);
    writeSettings(browserStorage(), { ...state });
    remote?.(valid);
  },
  reset() {
    api.set({ ...DEFAULT_SETTINGS });
  },
  dark: computed(() => isDark(state.theme, systemDark.value)),
  motionFactor: computed(() => motionFactor(state, systemReduce.value)),
};

/** The app's settings (one copy, shared by every component). */
export function useSettings(): SettingsApi {
  return api;
}

/**
 * Keeps the settings of a signed-in player on the server: when `me` arrives (sign-in, reload) the settings it
 * stored replace this browser's; every later change is sent with `save` (PATCH /api/me). A failed save keeps
 * the change in this browser. Returns a function that stops it.
 */
export function connectSettings(
  me: Ref<{ readonly settings: SettingsPatch } | null>,
  save: (patch: SettingsPatch) => Promise<unknown>,
): () => void {
  const stop = watch(
    me,
    (who) => {
      if (!who) {
        remote = null;
        return;
      }
      const fromServer = validSettings(who.settings);
      Object.assign(state, fromServer);
      writeSettings(browserStorage(), { ...state });
      remote = (patch) => void save(patch).catch(() => undefined);
    },
    { immediate: true },
  );
  return () => {
    stop();
    remote = null;
  };
}

/** Shows the settings on the page: `<html data-theme data-card-back data-table>` (style.css), kept up to date. */
export function applySettingsToDocument(root: HTMLElement = document.documentElement): () => void {
  return watch(
    () => [api.dark.value, state.cardBack, state.tableColour] as const,
    ([dark, back, table]) => {
      root.dataset.theme = dark ? 'dark' : 'light';
      root.dataset.cardBack = back;
      root.dataset.table = table;
      root.style.colorScheme = dark ? 'dark' : 'light';
    },
    { immediate: true },
  );
}
