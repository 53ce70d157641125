/**
 * Variant options and the named presets of docs/rules.md ("Variant presets").
 */

/** Scoring systems: S1 standard (Windows), S2 Vegas, S3 none. */
export const SCORING_SYSTEMS = ['standard', 'vegas', 'none'] as const;
/** One scoring system. docs/rules.md S1–S3. */
export type Scoring = (typeof SCORING_SYSTEMS)[number];

/** Every rule variant the engine supports. */
export interface GameOptions {
  /** Cards turned per draw, docs/rules.md R10. */
  readonly draw: 1 | 3;
  /** How many times the waste may be turned back into the stock; `null` = unlimited. docs/rules.md R11. */
  readonly redeals: number | null;
  /** `anyRun`: any face-up card moves with the cards above it; `wholePile`: only the whole face-up run. R5. */
  readonly tableauMoves: 'anyRun' | 'wholePile';
  /** Whether a foundation's top card may come back to the tableau. docs/rules.md R9. */
  readonly foundationToTableau: boolean;
  /** Scoring system. docs/rules.md S1–S3. */
  readonly scoring: Scoring;
  /** Standard scoring only: lose 2 points every 10 s and earn the win bonus. docs/rules.md S1. */
  readonly timed: boolean;
  /** Whether undo is allowed at all. docs/rules.md R14. */
  readonly undo: boolean;
  /** Whether the solver may offer hints for this game (casual play). */
  readonly hints: boolean;
  /**
   * R16: once per game, in place of a redeal, the player may take the last pass (`{"type":"last-pass"}`):
   * the waste turns over as in R11, every later draw turns one card, and no redeal follows it.
   */
  readonly finalSinglePass: boolean;
}

/** Names of the seven presets of the rules document (docs/rules.md "Presets"). */
export const PRESET_NAMES = [
  'classic-draw3',
  'classic-draw1',
  'bicycle',
  'strict-draw3',
  'vegas-draw1',
  'vegas-draw3',
  'draw3-last-pass',
] as const;
/** One preset name. */
export type PresetName = (typeof PRESET_NAMES)[number];

const BASE = {
  tableauMoves: 'anyRun',
  foundationToTableau: true,
  scoring: 'standard',
  timed: true,
  undo: true,
  hints: true,
  finalSinglePass: false,
} as const satisfies Partial<GameOptions>;

/** The seven presets, exactly as the preset table of the package README. */
export const PRESETS = {
  'classic-draw3': { ...BASE, draw: 3, redeals: null },
  'classic-draw1': { ...BASE, draw: 1, redeals: null },
  bicycle: { ...BASE, draw: 3, redeals: null, tableauMoves: 'wholePile' },
  'strict-draw3': { ...BASE, draw: 3, redeals: 2 },
  'vegas-draw1': { ...BASE, draw: 1, redeals: 0, scoring: 'vegas', timed: false },
  'vegas-draw3': { ...BASE, draw: 3, redeals: 2, scoring: 'vegas', timed: false },
  'draw3-last-pass': { ...BASE, draw: 3, redeals: null, finalSinglePass: true },
} as const satisfies Record<PresetName, GameOptions>;

/** The preset used when a caller names none. */
export const DEFAULT_PRESET: PresetName = 'classic-draw1';

/** True when `name` is one of the seven presets. */
export function isPresetName(name: string): name is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(name);
}

/**
 * Options of a preset with caller overrides applied (`overrides` win). Undefined override fields are ignored.
 */
export function resolveOptions(
  preset: PresetName = DEFAULT_PRESET,
  overrides: Partial<GameOptions> = {},
): GameOptions {
  const out: Record<string, unknown> = { ...PRESETS[preset] };
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) out[key] = value;
  return out as unknown as GameOptions;
}
