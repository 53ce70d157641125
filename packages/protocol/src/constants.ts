/**
 * The protocol's value lists and defaults, without zod: `@klondike/protocol/constants` lets a client that
 * must stay small on its first page (apps/web) use them without loading zod and every schema (importing
 * anything from the package's index evaluates all of them). The schemas in refs.ts and settings.ts are
 * built from these lists, and the index re-exports them.
 */

/** The daily presets (docs/rules.md presets that have a daily challenge). */
export const DAILY_PRESETS = ['classic-draw1', 'classic-draw3'] as const;

/** The card-back designs (drawn with CSS, apps/web). */
export const CARD_BACKS = ['classic', 'crimson', 'forest', 'midnight', 'sunset'] as const;
/** The table (felt) colours. */
export const TABLE_COLOURS = ['green', 'blue', 'wine', 'slate', 'teal'] as const;
/** Light or dark pages: `system` follows `prefers-color-scheme`. */
export const THEMES = ['system', 'light', 'dark'] as const;
/** Card animation speeds: each a factor on the animations' durations (fast = shorter). */
export const ANIMATION_SPEEDS = ['slow', 'normal', 'fast'] as const;
/** Motion: `system` follows `prefers-reduced-motion`; `reduce` never animates cards; `full` always does. */
export const MOTIONS = ['system', 'reduce', 'full'] as const;

/**
 * The accepted values of every setting, the same as settings.ts `SettingsSchema` accepts (a test checks
 * that they agree): a list of names, or `'boolean'`.
 */
export const SETTING_VALUES = {
  cardBack: CARD_BACKS,
  tableColour: TABLE_COLOURS,
  theme: THEMES,
  /** Stock and waste on the right, foundations on the left. */
  leftHanded: 'boolean',
  /** Short sounds for moves, draws and a win (generated in the browser). */
  sounds: 'boolean',
  animationSpeed: ANIMATION_SPEEDS,
  motion: MOTIONS,
  /** Cards that can never be needed on the tableau go to their foundation on their own (R15, safe moves). */
  autoFoundation: 'boolean',
} as const;

/** The default of every setting (a new browser, a new player). */
export const DEFAULT_SETTINGS = {
  cardBack: 'classic',
  tableColour: 'green',
  theme: 'system',
  leftHanded: false,
  sounds: false,
  animationSpeed: 'normal',
  motion: 'system',
  autoFoundation: false,
} as const satisfies { [K in keyof typeof SETTING_VALUES]: unknown };

/**
 * The scopes a personal access token may be given:
 * - `read`: every read that needs a token (the caller, their games, their standing) and every socket
 *   subscription;
 * - `game:play`: create, move, undo and resign games (REST and socket), hints and solves of one's games;
 * - `daily:play`: start a ranked daily attempt and play it (with `game:play`);
 * - `race:play`: create, join and play races, enter pairing (moves also need `game:play`);
 * - `arena:play`: create, join, leave and berserk in arenas;
 * - `puzzle:play`: play puzzles;
 * - `profile:write`: rename the player and change their settings;
 * - `report:write`: report players and appeal a mark.
 */
export const SCOPES = [
  'read',
  'game:play',
  'daily:play',
  'race:play',
  'arena:play',
  'puzzle:play',
  'profile:write',
  'report:write',
] as const;
/** One grantable scope of a personal access token. */
export type Scope = (typeof SCOPES)[number];
