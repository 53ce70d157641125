/**
 * A game's options as stored: the ONE place that reads and writes `"Game"."options"` (prisma/schema.prisma).
 *
 * A game whose options follow from what else is stored with it stores none (`NULL`): a game whose `preset`
 * names a preset whose options are exactly its own (migration 20261202130000_game_options_by_preset), and a
 * ranked daily attempt whose options are its daily's preset's by the ranked rule, `rankedOptions` (migration
 * 20261202143000_ranked_options_by_daily). The name is the whole of them, and the ~180 bytes of JSON a row are
 * not kept for every such game. Any other game (custom options, a race's with hints off, a berserk racer's)
 * keeps its full options as JSON, whatever its `preset` says. Every reader resolves a row through
 * `gameOptionsOf`, so no reader can tell the two apart.
 *
 * Presets and the ranked rule are a public contract (docs/rules.md "Presets", docs/features.md "Ranked
 * rules"): neither changes without a migration that first writes the old options back into the games whose
 * `NULL` options they stand for.
 */
import { type DailyPreset, DailyPresetSchema, GameOptionsSchema } from '@klondike/protocol';
import { type GameOptions, PRESETS, isPresetName } from '@klondike/rules';

/**
 * Ranked play (docs/features.md "Ranked rules"): the daily preset's options with undo and hints off. A new
 * object each call.
 */
export function rankedOptions(preset: DailyPreset): GameOptions {
  return { ...PRESETS[preset], undo: false, hints: false };
}

/** What names a game's options when it stores none: its preset, or its daily's preset if it is ranked. */
export interface OptionsNames {
  /** The preset name as stored (`"Game"."preset"`, unchecked), or null. */
  readonly preset: string | null;
  /** The game is a ranked daily attempt (`"Game"."ranked"`). */
  readonly ranked: boolean;
  /** The preset of the daily the game plays (`"DailyDeal"."preset"`, unchecked), or null for no daily. */
  readonly dailyPreset: string | null;
}

/** The columns of a stored game that give its options: `OptionsNames` and `"Game"."options"`. */
export interface StoredOptions extends OptionsNames {
  /** The options as stored: unchecked JSON, or null when `OptionsNames` name them. */
  readonly options: unknown;
}

/**
 * Thrown by `gameOptionsOf` when a stored game's options cannot be resolved: `NULL` options on a ranked
 * attempt with no daily or a daily preset that is not one, or on another game with no preset or a name that
 * is not a preset; or stored JSON that is not valid options (`cause`: the schema's error). A broken row,
 * never a caller's mistake.
 */
export class StoredOptionsError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'StoredOptionsError';
  }
}

/** True when `a` and `b` are the same options: the same keys, each with the same value. */
export function sameOptions(a: GameOptions, b: GameOptions): boolean {
  return (
    (Object.keys(b) as (keyof GameOptions)[]).every((k) => a[k] === b[k]) &&
    Object.keys(a).length === Object.keys(b).length
  );
}

/**
 * The options `names` stand for when a game stores none: a ranked attempt's daily preset's by the ranked
 * rule (`rankedOptions`), else the named preset's (`PRESETS[preset]`); a message saying why not otherwise.
 */
function namedOptions(names: OptionsNames): GameOptions | string {
  if (names.ranked) {
    const daily = DailyPresetSchema.safeParse(names.dailyPreset);
    if (daily.success) return rankedOptions(daily.data);
    return `a ranked attempt with no stored options and ${names.dailyPreset === null ? 'no daily' : `no daily preset named ${names.dailyPreset}`}`;
  }
  if (names.preset !== null && isPresetName(names.preset)) return PRESETS[names.preset];
  return `no stored options and ${names.preset === null ? 'no preset' : `no preset named ${names.preset}`}`;
}

/**
 * A stored game's options: its stored JSON when there is some, else those its names stand for (a ranked
 * attempt: `rankedOptions(dailyPreset)`; another game: `PRESETS[preset]`), as a new object checked by
 * `GameOptionsSchema`. `what` names the row in an error (e.g. `game abc`). Errors: `StoredOptionsError`.
 */
export function gameOptionsOf(row: StoredOptions, what = 'a game'): GameOptions {
  let stored = row.options;
  if (stored === null || stored === undefined) {
    const named = namedOptions(row);
    if (typeof named === 'string') throw new StoredOptionsError(`${what}: ${named}`);
    stored = named;
  }
  // Parsed either way: the same object, keys in the schema's order, as the stored JSON always gave.
  const parsed = GameOptionsSchema.safeParse(stored);
  if (!parsed.success)
    throw new StoredOptionsError(`${what}: stored options unreadable`, { cause: parsed.error });
  return parsed.data;
}

/**
 * What to store in `"Game"."options"` for a game of `options` named by `names`: null when `gameOptionsOf`
 * would give exactly `options` back from `names` alone (a ranked attempt: its daily preset's ranked options;
 * another game: its preset's), else `options`.
 */
export function optionsToStore(names: OptionsNames, options: GameOptions): GameOptions | null {
  const named = namedOptions(names);
  return typeof named !== 'string' && sameOptions(options, named) ? null : options;
}
