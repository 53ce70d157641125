/**
 * The game log's rows as the storage keeps them: the plain types of the storage contract that the core's
 * `GameStore` (core/rooms/store.ts) is written in, and that its implementations (db/game-store.ts, and the
 * in-memory core/rooms/memory-store.ts) read and write. Nothing here knows the rooms above: the core owns
 * the contract's interface, the database only these rows and their statements.
 */
import type { DailyPreset, GameKind } from '@klondike/protocol';
import type { GameOptions } from '@klondike/rules';
import type { OptionsNames, StoredOptions } from './game-options.js';
import type { MoveCommit } from './move-log.js';

/** One entry of a game's log as stored: `seq` = the game version it made (1, 2, …). */
export interface StoredEntry {
  readonly seq: number;
  readonly kind: 'move' | 'undo' | 'resign';
  /** The move (public notation, unchecked) when `kind` = move, else null. */
  readonly move: unknown;
  /** Server time of the action, ms since the epoch. */
  readonly at: number;
}

/** The daily a game plays. */
export interface DailyRef {
  /** DailyDeal.id. */
  readonly id: number;
  /** UTC date `YYYY-MM-DD`. */
  readonly date: string;
  readonly preset: DailyPreset;
  /** When the day closes (ms since the epoch): the UTC midnight after `date`. */
  readonly closesAt: number;
}

/** A game as the rows its kind adds are keyed on: its id, kind, player and daily. */
export interface GameRef {
  readonly id: string;
  readonly kind: GameKind;
  /** The player the game was created for, or null (anonymous). */
  readonly owner: string | null;
  /** The daily of a daily game, else null. */
  readonly daily: DailyRef | null;
}

/** A leaderboard row to insert with a commit (a daily-ranked attempt's end). */
export interface ResultRow {
  readonly status: 'won' | 'resigned' | 'blocked' | 'unfinished';
  readonly score: number;
  /** Game time by the server's clock, ms. */
  readonly timeMs: number;
  readonly moves: number;
  /** When the attempt ended, ms since the epoch. */
  readonly finishedAt: number;
}

/**
 * A game as stored, with its log up to its version. Times are ms since the epoch. Its options: `StoredOptions`
 * (`preset`, `options`, `ranked`, `dailyPreset`), read through `gameOptionsOf`.
 */
export interface StoredGame extends StoredOptions {
  readonly id: string;
  readonly kind: GameKind;
  readonly raceCode: string | null;
  readonly daily: DailyRef | null;
  readonly owner: string | null;
  readonly deal: string;
  readonly dealNumber: number | null;
  readonly version: number;
  readonly startedAt: number | null;
  readonly endedAt: number | null;
  /** The game's leaderboard row exists (its kind's `resultRow` was stored). */
  readonly finished: boolean;
  readonly log: readonly StoredEntry[];
}

/** What `sameDealAs` copies from another game; its options: `StoredOptions`, read through `gameOptionsOf`. */
export interface DealSource extends StoredOptions {
  readonly deal: string;
  readonly dealKey: string | null;
  readonly dealNumber: number | null;
}

/** A new game's row (version 0, no log). Times are ms since the epoch. */
export interface NewGameRecord {
  readonly id: string;
  readonly kind: GameKind;
  readonly raceCode: string | null;
  readonly daily: DailyRef | null;
  readonly owner: string | null;
  readonly preset: string | null;
  /**
   * The resolved options (every field); the store keeps none when its names stand for exactly these
   * (`optionsToStore`: the preset's, or a ranked attempt's daily preset's ranked options).
   */
  readonly options: GameOptions;
  readonly deal: string;
  readonly dealNumber: number | null;
  readonly dealKey: string | null;
  readonly status: MoveCommit['status'];
  readonly score: number;
  readonly moves: number;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly endedAt: number | null;
}

/**
 * What names a new game's options as the stores keep them: its preset, whether it is a ranked attempt
 * (`"Game"."ranked"`) and its daily's preset (db/game-options.ts `optionsToStore`).
 */
export function optionsNamesOf(r: NewGameRecord): OptionsNames {
  return { preset: r.preset, ranked: r.kind === 'daily-ranked', dailyPreset: r.daily?.preset ?? null };
}

/** A finished game's record for its replay; its options: `StoredOptions`, read through `gameOptionsOf`. */
export interface ReplayRecord extends StoredOptions {
  readonly id: string;
  readonly kind: GameKind;
  readonly status: MoveCommit['status'];
  readonly deal: string;
  readonly player: { id: string; name: string; bot: boolean } | null;
  /** The daily's date and preset of a daily game, with when its day closes. */
  readonly daily: { readonly date: string; readonly preset: DailyPreset; readonly closesAt: number } | null;
  /** A race game: whether its race has finished; else null. */
  readonly raceFinished: boolean | null;
  readonly log: readonly StoredEntry[];
}

/** How a commit that carried a leaderboard row ended. */
export type RowCommit = 'committed' | 'stale' | 'row-exists';

/**
 * Thrown by a store's `insert` when a row the game's kind adds at creation already exists (its unique key:
 * one ranked attempt per player and daily); nothing is stored.
 */
export class RowExists extends Error {
  constructor() {
    super('the row this game adds at creation already exists');
  }
}
