/**
 * A `GameStore` in memory: the same version checks and unique rows as the database's, with nothing
 * durable. It lets `GameRooms` be built and tested without a database (a node of one, no bus).
 */
import type { GameOptions } from '@klondike/rules';
import { optionsToStore } from '../../infra/db/game-options.js';
import type { GameFacts, ResultRow } from './policies.js';
import {
  type DealSource,
  type GameStore,
  type MoveCommit,
  type NewGameRecord,
  type ReplayRecord,
  RowExists,
  type RowCommit,
  type StoredEntry,
  type StoredGame,
  optionsNamesOf,
} from './store.js';

interface Held {
  record: NewGameRecord;
  /**
   * The options as the database stores them: null when the preset, or a ranked attempt's daily, names them
   * (db/game-options.ts).
   */
  options: GameOptions | null;
  version: number;
  status: MoveCommit['status'];
  startedAt: number | null;
  endedAt: number | null;
  log: StoredEntry[];
}

/**
 * The in-memory store. `claimOf` names the unique key a new game claims, if any (as a kind's row at
 * creation does in the database: one ranked attempt per player and daily); a second claim of a key is
 * refused with `RowExists`.
 */
export class MemoryGameStore implements GameStore {
  private readonly games = new Map<string, Held>();
  private readonly claims = new Set<string>();
  /** The leaderboard rows stored, by game id. */
  readonly results = new Map<string, ResultRow>();

  constructor(private readonly claimOf: (game: NewGameRecord) => string | null = () => null) {}

  readonly writeMoves = (batch: readonly MoveCommit[]): Promise<ReadonlySet<string>> => {
    const done = new Set<string>();
    for (const w of batch) if (this.apply(w)) done.add(w.gameId);
    return Promise.resolve(done);
  };

  version(id: string): Promise<number | null> {
    return Promise.resolve(this.games.get(id)?.version ?? null);
  }

  load(id: string): Promise<StoredGame | null> {
    const g = this.games.get(id);
    if (!g) return Promise.resolve(null);
    const r = g.record;
    return Promise.resolve({
      id,
      kind: r.kind,
      raceCode: r.raceCode,
      daily: r.daily,
      owner: r.owner,
      options: g.options,
      ...optionsNamesOf(r),
      deal: r.deal,
      dealNumber: r.dealNumber,
      version: g.version,
      startedAt: g.startedAt,
      endedAt: g.endedAt,
      finished: this.results.has(id),
      log: [...g.log],
    });
  }

  dealSource(id: string): Promise<DealSource | null> {
    const g = this.games.get(id);
    if (!g) return Promise.resolve(null);
    const r = g.record;
    return Promise.resolve({
      deal: r.deal,
      dealKey: r.dealKey,
      dealNumber: r.dealNumber,
      options: g.options,
      ...optionsNamesOf(r),
    });
  }

  insert(game: NewGameRecord): Promise<void> {
    if (this.games.has(game.id)) return Promise.reject(new Error(`game ${game.id} exists`));
    const claim = this.claimOf(game);
    if (claim !== null) {
      if (this.claims.has(claim)) return Promise.reject(new RowExists());
      this.claims.add(claim);
    }
    this.games.set(game.id, {
      record: game,
      options: optionsToStore(optionsNamesOf(game), game.options),
      version: 0,
      status: game.status,
      startedAt: game.startedAt,
      endedAt: game.endedAt,
      log: [],
    });
    return Promise.resolve();
  }

  commitWithRow(game: GameFacts, w: MoveCommit, row: ResultRow): Promise<RowCommit> {
    if (this.games.get(w.gameId)?.version !== w.version - 1) return Promise.resolve('stale');
    if (this.results.has(game.id)) return Promise.resolve('row-exists');
    this.apply(w);
    this.results.set(game.id, row);
    return Promise.resolve('committed');
  }

  settle(game: GameFacts, row: ResultRow): Promise<boolean> {
    if (this.results.has(game.id)) return Promise.resolve(false);
    this.results.set(game.id, row);
    return Promise.resolve(true);
  }

  replay(id: string): Promise<ReplayRecord | null> {
    const g = this.games.get(id);
    if (!g) return Promise.resolve(null);
    const r = g.record;
    return Promise.resolve({
      id,
      kind: r.kind,
      status: g.status,
      deal: r.deal,
      options: g.options,
      ...optionsNamesOf(r),
      player: r.owner === null ? null : { id: r.owner, name: r.owner, bot: false },
      daily: r.daily,
      raceFinished: r.raceCode === null ? null : false,
      log: [...g.log],
    });
  }

  /** The version-checked append of one action; false when the stored version is not `w.version − 1`. */
  private apply(w: MoveCommit): boolean {
    const g = this.games.get(w.gameId);
    if (!g || g.version !== w.version - 1) return false;
    g.version = w.version;
    g.status = w.status;
    g.startedAt = w.startedAt;
    g.endedAt = w.endedAt;
    g.log.push({ seq: w.version, kind: w.kind, move: w.move, at: w.at });
    return true;
  }
}
