/**
 * The game log's storage, as the rooms see it: load a game and its log, insert a new one, commit an action
 * (grouped with other games' actions by the core's group commit, group-commit.ts, or alone with a
 * leaderboard row), settle a game with a row and no action. The core owns this interface; its rows are the
 * database's plain types (infra/db/game-rows.ts), so no import points from infra/db back up here. Two
 * implementations: the database's (infra/db/game-store.ts, handed in by core/games/plugin.ts) and an
 * in-memory one (memory-store.ts) that lets the rooms be built, and tested, without a database.
 *
 * The rows a kind of game adds to these writes (a ranked daily attempt's claim at creation, its leaderboard
 * row at its end) are the kind's own: the database store is given them by the module that owns that kind
 * (daily/rows.ts), and stores them in the same transaction as the game's write.
 */
import type { BatchWriter, MoveCommit } from '../../infra/db/move-log.js';
import type {
  DealSource,
  GameRef,
  NewGameRecord,
  ReplayRecord,
  ResultRow,
  RowCommit,
  StoredGame,
} from '../../infra/db/game-rows.js';

export type { BatchWriter, MoveCommit } from '../../infra/db/move-log.js';
export type {
  DealSource,
  NewGameRecord,
  ReplayRecord,
  RowCommit,
  StoredEntry,
  StoredGame,
} from '../../infra/db/game-rows.js';
export { RowExists, optionsNamesOf } from '../../infra/db/game-rows.js';

/** The storage of the game log. Database failures reject as they are. */
export interface GameStore {
  /** The group-commit statement: one flush of actions of distinct games (infra/db/move-log.ts). */
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
  commitWithRow(game: GameRef, w: MoveCommit, row: ResultRow): Promise<RowCommit>;
  /** Stores a leaderboard row without an action; false when it already existed. */
  settle(game: GameRef, row: ResultRow): Promise<boolean>;
  /** A game's replay record, or null. */
  replay(id: string): Promise<ReplayRecord | null>;
}
