/**
 * Game policies: what each kind of game adds to the generic game log of `GameRooms`.
 *
 * `GameRooms` knows games, versions, commits and subscribers, and nothing of dailies or races. Each game
 * has a kind (`casual`, `daily-ranked`, `daily-practice`, `race`), fixed when it is created and stored with
 * it (its daily, its race seat), and the policy of its kind says:
 * - who may read it (`checkRead`: its view, legal moves, hint, subscription; or its deal, `reveal`),
 * - whether it takes another action now (`checkWrite`) and when its clock stopped (`clockEnd`),
 * - which leaderboard row its commit also inserts, in the same transaction (`resultRow`),
 * - what happens after a commit (`afterCommit`, `afterResult`).
 * Every game created for a player takes actions from that player only, whatever its kind (game-room.ts).
 *
 * Each kind's policy is declared by the module that owns the kind (`games` in its `module.ts`, handed to the
 * rooms by `core/games/kinds.ts`): the casual one here, the daily ones in `daily/policy.ts`, the race one in
 * `races/policy.ts`.
 */
import type { GameKind } from '@klondike/protocol';
import type { GameResponse } from '@klondike/protocol';
import type { DailyRef, GameRef, ResultRow } from '../../infra/db/game-rows.js';

export type { DailyRef, ResultRow } from '../../infra/db/game-rows.js';

/** Who is acting or reading: a player id, or null for an anonymous caller. */
export type Actor = string | null;

/** A view as the wire schemas type it (mutable arrays). */
export type WireView = GameResponse['view'];

/**
 * What a policy may know of a game: its identity and where it stands (never its hidden cards). It is also
 * the `GameRef` the store keys a kind's rows on (infra/db/game-rows.ts).
 */
export interface GameFacts extends GameRef {
  readonly id: string;
  readonly kind: GameKind;
  /** The player the game was created for, or null (anonymous: anyone may play it). */
  readonly owner: string | null;
  /** The daily of a daily game, else null. */
  readonly daily: DailyRef | null;
  /** The invite code of a race game, else null. */
  readonly raceCode: string | null;
  /** Server time (ms) the game became won/resigned/blocked, or null while playing. */
  readonly endedAt: number | null;
  /** Daily-ranked only: its leaderboard row exists, so it takes no more actions. */
  readonly finished: boolean;
}

/** A committed action of a game, as `afterCommit` hears it (after the commit, the broadcast and the queue). */
export interface CommittedAction {
  readonly gameId: string;
  /** The game's player, or null for an anonymous game. */
  readonly owner: string | null;
  /** The game version after the action. */
  readonly version: number;
  /** The view after the action (what the player sees; no hidden card). */
  readonly view: WireView;
  /** Server time of the action, ms since the epoch. */
  readonly at: number;
}

/** What the replay rule of a kind may know of a stored game (GET /api/games/:id/replay). */
export interface ReplayFacts {
  readonly id: string;
  readonly kind: GameKind;
  readonly status: 'playing' | 'won' | 'blocked' | 'resigned';
  /** A daily game: when its day closes (ms since the epoch); else null. */
  readonly daily: { readonly closesAt: number } | null;
  /** A race game: whether its race has finished; else null. */
  readonly raceFinished: boolean | null;
}

/** What ended with an action, for `resultRow`. */
export interface Ending {
  readonly status: 'won' | 'resigned' | 'blocked';
  readonly score: number;
  readonly timeMs: number;
  readonly moves: number;
  readonly endedAt: number;
}

/** The rules one kind of game adds to the game log. Every member is optional: absent = no extra rule. */
export interface GamePolicy {
  /**
   * Refuses (throws an `ApiError`, or returns a promise that rejects with one) a read by `actor` at server
   * time `now`: `read` = the view, legal moves, hints, a subscription; `reveal` = the deal. A promise is
   * for a rule that may need to look a fact up (a race the node's index misses).
   */
  checkRead?(game: GameFacts, actor: Actor, what: 'read' | 'reveal', now: number): void | Promise<void>;
  /** Refuses (throws an `ApiError` carrying `version`) another action at `now`, before it is applied. */
  checkWrite?(game: GameFacts, now: number, version: number): void;
  /**
   * Replaces the casual reveal rule (the deal once the game is won or resigned): throws an `ApiError` while
   * the deal must stay secret, else the deal is revealed whatever the game's status.
   */
  reveal?(game: GameFacts, now: number): void;
  /** Whether the game takes no more actions at `now` (legal moves are then empty). */
  over?(game: GameFacts, now: number): boolean;
  /** Game time (ms since the epoch) at which the clock stopped although the game was not ended, or null. */
  clockEnd?(game: GameFacts, now: number): number | null;
  /** The leaderboard row the commit of an action that ended the game also inserts, or null. */
  resultRow?(game: GameFacts, ending: Ending): ResultRow | null;
  /**
   * Replaces the casual replay rule (public once the game is won or resigned): throws an `ApiError` while
   * the replay of this finished game must stay secret (a daily of an open day, a race still on).
   */
  checkReplay?(this: void, game: ReplayFacts, now: number): void;
  /**
   * Told after every committed action of a game of this kind, once the action's write has left its game's
   * queue (before its caller gets the answer): it may start writes of games, this one included, which queue
   * as new writes (game-room.ts `act`). Must not throw.
   */
  afterCommit?(action: CommittedAction): void;
  /**
   * Told after a commit (or a settlement) that inserted the game's leaderboard row, once the write has left
   * its game's queue. Must not throw.
   */
  afterResult?(game: GameFacts): void;
}

/** The policy of every kind of game (each declared by its module: core/games/kinds.ts). */
export type GamePolicies = Readonly<Record<GameKind, GamePolicy>>;

/** Casual games have no rule beyond the game log's own (an owned game takes its player's actions only). */
export const casualPolicy: GamePolicy = {};

/** Policies before any daily or race service declared its own: casual rules for every kind. */
export const CASUAL_ONLY: GamePolicies = {
  casual: casualPolicy,
  'daily-ranked': casualPolicy,
  'daily-practice': casualPolicy,
  race: casualPolicy,
};
