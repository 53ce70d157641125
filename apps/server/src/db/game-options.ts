/**
 * A game's options as stored: the ONE place that reads and writes `"Game"."options"` (prisma/schema.prisma).
 *
 * A game whose `preset` names a preset whose options are exactly its own stores no options (`NULL`,
 * migration 20261202130000_game_options_by_preset): the preset's name is the whole of them, and the
 * ~180 bytes of JSON a row are not kept for every such game. Any other game (custom options, a ranked
 * attempt's, a race's with hints off, a berserk racer's) keeps its full options as JSON, whatever its
 * `preset` says. Every reader resolves a row through `gameOptionsOf`, so no reader can tell the two apart.
 *
 * Presets are a public contract (docs/rules.md "Presets"): a preset's options never change without a
 * migration that first writes its old options back into the games that name it with `NULL` options.
 */
import { GameOptionsSchema } from '@klondike/protocol';
import { type GameOptions, PRESETS, isPresetName } from '@klondike/rules';

/** The two columns of a stored game that give its options (`"Game"."preset"`, `"Game"."options"`). */
export interface StoredOptions {
  /** The preset name as stored (unchecked), or null. */
  readonly preset: string | null;
  /** The options as stored: unchecked JSON, or null when `preset` names them. */
  readonly options: unknown;
}

/**
 * Thrown by `gameOptionsOf` when a stored game's options cannot be resolved: `NULL` options with no preset
 * or with a name that is not a preset, or stored JSON that is not valid options (`cause`: the schema's
 * error). A broken row, never a caller's mistake.
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
 * A stored game's options: its stored JSON when there is some, else the options of the preset it names
 * (`PRESETS[preset]`), as a new object checked by `GameOptionsSchema`. `what` names the row in an error
 * (e.g. `game abc`). Errors: `StoredOptionsError`.
 */
export function gameOptionsOf(row: StoredOptions, what = 'a game'): GameOptions {
  let stored = row.options;
  if (stored === null || stored === undefined) {
    if (row.preset === null || !isPresetName(row.preset))
      throw new StoredOptionsError(
        `${what}: no stored options and ${row.preset === null ? 'no preset' : `no preset named ${row.preset}`}`,
      );
    stored = PRESETS[row.preset];
  }
  // Parsed either way: the same object, keys in the schema's order, as the stored JSON always gave.
  const parsed = GameOptionsSchema.safeParse(stored);
  if (!parsed.success)
    throw new StoredOptionsError(`${what}: stored options unreadable`, { cause: parsed.error });
  return parsed.data;
}

/**
 * What to store in `"Game"."options"` for a game of `options` named `preset`: null when `preset` is a
 * preset whose options are exactly `options` (the preset's name stands for them), else `options`.
 */
export function optionsToStore(preset: string | null, options: GameOptions): GameOptions | null {
  return preset !== null && isPresetName(preset) && sameOptions(options, PRESETS[preset]) ? null : options;
}
