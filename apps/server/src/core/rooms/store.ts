/**
 * The game log's storage, as `GameRooms` sees it: load a game and its log, insert a new one, commit an
 * action (grouped with other games' actions, or alone with a leaderboard row), settle a game with a row and
 * no action. Two implementations: the database's (db/game-store.ts) and an in-memory one (memory-store.ts)
 * that lets the rooms be built, and tested, without a database.
 *
 * The rows a kind of game adds to these writes (a ranked daily attempt's claim at creation, its leaderboard
 * row at its end) are the kind's own: the database store is given them by the module that owns that kind
 * (daily/rows.ts), and stores them in the same transaction as the game's write.
 */
import type { DailyPreset, GameKind } from '@klondike/protocol';
import type { GameOptions } from '@klondike/rules';
import type { OptionsNames, StoredOptions } from '../../infra/db/game-options.js';
import type { BatchWriter, MoveCommit } from '../../infra/db/move-log.js';
import type { DailyRef, GameFacts, ResultRow } from './policies.js';

export type { BatchWriter, MoveCommit } from '../../infra/db/move-log.js';

/** One entry of a game's log as stored: `seq` = the game version it made (1, 2, …). */
export interface StoredEntry {
  readonly seq: number;
  readonly kind: 'move' | 'undo' | 'resign';
  /** The move (public notation, unchecked) when `kind` = move, else null. */
  readonly move: unknown;
  /** Server time of the action, ms since the epoch. */
  readonly at: number;
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
 * Thrown by `insert` when a row the game's kind adds at creation already exists (its unique key: one ranked
 * attempt per player and daily); nothing is stored.
 */
export class RowExists extends Error {
  constructor() {
    super('the row this game adds at creation already exists');
  }
}

/** The storage of the game log. Database failures reject as they are. */
export interface GameStore {
  /** The group-commit statement: one flush of actions of distinct games (db/move-log.ts). */
  readonly writeMoves: BatchWriter;
  /** A game's stored version, or null when there is no such game: the freshness probe of several nodes. */
  version(id: string): Promise<number | null>;
  /** A game and its log up to its version, or null. */
  load(id: string): Promise<StoredGame | null>;
  /** What another game's deal is, or null when there is no such game. */
  dealSource(id: string): Promise<DealSource | null>;
  /** Stores a new game at version 0, with the row its kind adds at creation. Errors: `RowExists`. */
  insert(game: NewGameRecord): Promise<void>;
  /**
   * Commits one action with the game's leaderboard row, in one transaction: `stale` when the stored version
   * is not `w.version − 1`, `row-exists` when the row is already there (nothing is stored then).
   */
  commitWithRow(game: GameFacts, w: MoveCommit, row: ResultRow): Promise<RowCommit>;
  /** Stores a leaderboard row without an action; false when it already existed. */
  settle(game: GameFacts, row: ResultRow): Promise<boolean>;
  /** A game's replay record, or null. */
  replay(id: string): Promise<ReplayRecord | null>;
}
