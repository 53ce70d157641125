// @vitest-environment happy-dom
/**
 * useSettings (issue 12, item 4): defaults, what is kept in localStorage and read back (bad or unknown values
 * fall back key by key), the server's copy of a signed-in player, and what is applied to the page.
 */
import { DEFAULT_SETTINGS, type SettingsPatch } from '@klondike/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick, ref, shallowRef } from 'vue';
import {
  SETTINGS_KEY,
  isDark,
  motionFactor,
  readSettings,
  validSettings,
  writeSettings,
} from '../../src/composables/useSettings';

/** A fresh copy of the module (its one shared state is read from localStorage at load). */
async function fresh() {
  vi.resetModules();
  return import('../../src/composables/useSettings');
}

beforeEach(() => localStorage.clear());

describe('reading and writing the browser copy', () => {
  it('nothing stored: every default', () => {
    expect(readSettings(localStorage)).toEqual(DEFAULT_SETTINGS);
    expect(readSettings(null)).toEqual(DEFAULT_SETTINGS);
  });

  it('a round trip keeps every setting', () => {
    const s = {
      ...DEFAULT_SETTINGS,
      cardBack: 'midnight',
      tableColour: 'wine',
      theme: 'dark',
      leftHanded: true,
      sounds: true,
      animationSpeed: 'fast',
      motion: 'reduce',
      autoFoundation: true,
    } as const;
    writeSettings(localStorage, s);
    expect(readSettings(localStorage)).toEqual(s);
  });

  it('bad values and unknown keys fall back key by key; text that is not JSON gives the defaults', () => {
    localStorage.setItem(
      SETTINGS_KEY,
      JSON.stringify({ cardBack: 'plaid', tableColour: 'blue', sounds: 'loud', volume: 3 }),
    );
    expect(readSettings(localStorage)).toEqual({ ...DEFAULT_SETTINGS, tableColour: 'blue' });
    localStorage.setItem(SETTINGS_KEY, '{not json');
    expect(readSettings(localStorage)).toEqual(DEFAULT_SETTINGS);
    localStorage.setItem(SETTINGS_KEY, '[1,2]');
    expect(readSettings(localStorage)).toEqual(DEFAULT_SETTINGS);
  });

  it('validSettings keeps known keys with accepted values only', () => {
    expect(validSettings({ theme: 'dark', leftHanded: 1, __proto__: { x: 1 }, y: 2 })).toEqual({
      theme: 'dark',
    });
    expect(validSettings('dark')).toEqual({});
    expect(validSettings(null)).toEqual({});
  });
});

describe('derived values', () => {
  it('dark mode follows the system unless set', () => {
    expect(isDark('system', true)).toBe(true);
    expect(isDark('system', false)).toBe(false);
    expect(isDark('light', true)).toBe(false);
    expect(isDark('dark', false)).toBe(true);
  });

  it('reduced motion (set, or the system under "system") stops animations; speed scales them', () => {
    expect(motionFactor({ motion: 'system', animationSpeed: 'normal' }, true)).toBe(0);
    expect(motionFactor({ motion: 'reduce', animationSpeed: 'fast' }, false)).toBe(0);
    expect(motionFactor({ motion: 'full', animationSpeed: 'normal' }, true)).toBe(1);
    expect(motionFactor({ motion: 'system', animationSpeed: 'slow' }, false)).toBeGreaterThan(1);
    expect(motionFactor({ motion: 'system', animationSpeed: 'fast' }, false)).toBeLessThan(1);
  });
});

describe('useSettings', () => {
  it('starts from what this browser stored', async () => {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ cardBack: 'forest' }));
    const { useSettings } = await fresh();
    expect(useSettings().settings.cardBack).toBe('forest');
    expect(useSettings().settings.tableColour).toBe(DEFAULT_SETTINGS.tableColour);
  });

  it('set() changes the shared copy and stores it; invalid changes are ignored', async () => {
    const { useSettings } = await fresh();
    const a = useSettings();
    a.set({ tableColour: 'slate', leftHanded: true });
    expect(useSettings().settings.tableColour).toBe('slate');
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}')).toMatchObject({
      tableColour: 'slate',
      leftHanded: true,
    });
    a.set({ tableColour: 'plaid' } as unknown as SettingsPatch);
    expect(a.settings.tableColour).toBe('slate');
    a.reset();
    expect({ ...a.settings }).toEqual(DEFAULT_SETTINGS);
    expect(readSettings(localStorage)).toEqual(DEFAULT_SETTINGS);
  });

  it('signed in: the server copy replaces the browser one, and changes are sent to the server', async () => {
    const { useSettings, connectSettings } = await fresh();
    const s = useSettings();
    s.set({ cardBack: 'sunset', sounds: true });
    const saved: SettingsPatch[] = [];
    const me = shallowRef<{ settings: SettingsPatch } | null>(null);
    const stop = connectSettings(me, (p) => Promise.resolve(void saved.push(p)));
    s.set({ theme: 'dark' });
    expect(saved).toEqual([]); // not signed in: kept here only
    me.value = { settings: { cardBack: 'crimson', autoFoundation: true, bogus: 1 } as SettingsPatch };
    await nextTick();
    expect(s.settings.cardBack).toBe('crimson');
    expect(s.settings.autoFoundation).toBe(true);
    expect(s.settings.sounds).toBe(true); // not stored on the server: this browser's value stays
    expect(readSettings(localStorage).cardBack).toBe('crimson');
    s.set({ leftHanded: true });
    expect(saved).toEqual([{ leftHanded: true }]);
    me.value = null; // signed out
    await nextTick();
    s.set({ leftHanded: false });
    expect(saved).toEqual([{ leftHanded: true }]);
    stop();
  });

  it('a failed save keeps the change in this browser', async () => {
    const { useSettings, connectSettings } = await fresh();
    const stop = connectSettings(ref({ settings: {} }), () => Promise.reject(new Error('offline')));
    useSettings().set({ tableColour: 'teal' });
    await Promise.resolve();
    expect(readSettings(localStorage).tableColour).toBe('teal');
    stop();
  });

  it('applies theme, card back and table colour to <html>', async () => {
    const { useSettings, applySettingsToDocument } = await fresh();
    const stop = applySettingsToDocument();
    useSettings().set({ theme: 'dark', cardBack: 'midnight', tableColour: 'blue' });
    await nextTick();
    const html = document.documentElement;
    expect(html.dataset.theme).toBe('dark');
    expect(html.dataset.cardBack).toBe('midnight');
    expect(html.dataset.table).toBe('blue');
    useSettings().set({ theme: 'light' });
    await nextTick();
    expect(html.dataset.theme).toBe('light');
    stop();
  });
});
