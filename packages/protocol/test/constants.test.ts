/**
 * The zod-free lists of `@klondike/protocol/constants` (what apps/web checks stored settings with on its first
 * page) accept exactly what the settings schema accepts, so the two can never drift apart.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS as PLAIN_DEFAULTS, SETTING_VALUES } from '../src/constants.js';
import { DEFAULT_SETTINGS, SettingsSchema } from '../src/index.js';

describe('protocol constants', () => {
  it('SETTING_VALUES names every setting of SettingsSchema, with the same accepted values', () => {
    const shape = SettingsSchema.shape;
    expect(Object.keys(SETTING_VALUES).sort()).toEqual(Object.keys(shape).sort());
    for (const [key, accepted] of Object.entries(SETTING_VALUES)) {
      const schema = shape[key as keyof typeof shape];
      if (accepted === 'boolean') {
        expect(schema.safeParse(true).success).toBe(true);
        expect(schema.safeParse('true').success).toBe(false);
      } else {
        for (const v of accepted) expect(schema.safeParse(v).success).toBe(true);
        expect(schema.safeParse('no-such-value').success).toBe(false);
        expect((schema as { options?: readonly string[] }).options).toEqual([...accepted]);
      }
    }
  });

  it('the defaults are one valid settings object', () => {
    expect(SettingsSchema.parse(PLAIN_DEFAULTS)).toEqual(DEFAULT_SETTINGS);
  });
});
