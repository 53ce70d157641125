/**
 * A player's settings (issue 12, item 4): how the table looks and behaves for them. Kept per browser
 * (localStorage) and, for a signed-in player, on the server (`Player.settings`, GET/PATCH /api/me), so they
 * follow the player to another device. Every key is optional on the wire: a missing key means "the default".
 * Unknown keys and values are refused (400), so a typo never lands in the database.
 */
import { z } from 'zod';
import {
  ANIMATION_SPEEDS,
  CARD_BACKS,
  DEFAULT_SETTINGS as DEFAULTS,
  MOTIONS,
  TABLE_COLOURS,
  THEMES,
} from './constants.js';

export { ANIMATION_SPEEDS, CARD_BACKS, MOTIONS, TABLE_COLOURS, THEMES } from './constants.js';

/** Every setting, each with its value type. */
export const SettingsSchema = z
  .object({
    cardBack: z.enum(CARD_BACKS),
    tableColour: z.enum(TABLE_COLOURS),
    theme: z.enum(THEMES),
    /** Stock and waste on the right, foundations on the left. */
    leftHanded: z.boolean(),
    /** Short sounds for moves, draws and a win (generated in the browser). */
    sounds: z.boolean(),
    animationSpeed: z.enum(ANIMATION_SPEEDS),
    motion: z.enum(MOTIONS),
    /** Cards that can never be needed on the tableau go to their foundation on their own (R15, safe moves). */
    autoFoundation: z.boolean(),
  })
  .strict()
  .meta({ id: 'Settings' });
/** Every setting. */
export type Settings = z.infer<typeof SettingsSchema>;

/** Some settings (stored ones, or a change): each key optional, unknown keys refused. */
export const SettingsPatchSchema = SettingsSchema.partial().strict().meta({ id: 'SettingsPatch' });
/** Some settings. */
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** The default of every setting (a new browser, a new player). */
export const DEFAULT_SETTINGS: Settings = DEFAULTS;
