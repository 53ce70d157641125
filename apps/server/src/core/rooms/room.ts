/**
 * The parts of the game log that hold no live state: a room's shape, how a new one is made and how one is
 * replayed from the store, the types of `GameRooms`' API, a casual game's spec from its request, a replay's
 * wire shape, game time by the server clock, and the wire view of a `playerView`. The live rooms are the
 * directory's (room-directory.ts); what happens to one is game-room.ts; a casual game's spec from its
 * request is casual-game.ts.
 */
import { randomBytes } from 'node:crypto';
import { type GameKind, MoveSchema, type ReplaySchema } from '@klondike/protocol';
import {
  type Deal,
  type GameAction,
  type GameOptions,
  type GameState,
  type GameStatus,
  type PlayerView,
  type PresetName,
  applyAction,
  formatDeal,
  gameStatus,
  isPresetName,
  newGame,
  parseDeal,
  playerView,
} from '@klondike/rules';
import type { z } from 'zod';
import type { EventBus } from '../../infra/bus/event-bus.js';
import { gameOptionsOf } from '../../infra/db/game-options.js';
import type { Actor, DailyRef, GameFacts, WireView } from './policies.js';
import { StateFrameText } from './state-frame-text.js';
import type { NewGameRecord, ReplayRecord, StoredGame } from './store.js';
import type { CommitObserver } from './group-commit.js';

/** GET /api/games/:id/replay response. */
export type Replay = z.infer<typeof ReplaySchema>;

/** Something that receives serialised server frames (a WebSocket connection). */
export interface Subscriber {
  /** Sends one frame, already serialised as JSON text. Must not throw. */
  send(frame: string): void;
}

/** Who asked for a write over a WebSocket: its answer (a state frame) carries the request id. */
export interface WriteOrigin {
  readonly subscriber: Subscriber;
  readonly requestId?: string;
}

/** Where a game stands with its clock stopped at some moment (`GameRooms.settle`). */
export interface Standing {
  readonly score: number;
  readonly moves: number;
  /** Game time by the server's clock, ms. */
  readonly timeMs: number;
}

/** How `GameRooms.act` is asked for an action. */
export interface ActOptions {
  /** The version the client acted on; undefined = no version check (undo/resign over REST without one). */
  readonly expectedVersion?: number;
  /** The socket that asked, when one did: its state frame carries the request id. */
  readonly origin?: WriteOrigin;
  /** Who is acting (null or absent: anonymous). */
  readonly actor?: Actor;
  /**
   * The scopes of the actor's personal access token (null or absent: a sign-in token or anonymous, no
   * limit): the game's kind needs its scope (game-room.ts `checkOwner`).
   */
  readonly scopes?: ReadonlySet<string> | null;
}

/** Options of `GameRooms`. */
export interface GameRoomsOptions {
  /** Most rooms kept in memory; idle rooms without subscribers are evicted first (least recently used). */
  readonly maxLiveGames?: number;
  /** The server clock in ms since the epoch (default `Date.now`); injectable for tests. */
  readonly now?: () => number;
  /**
   * Most writes admitted and not yet committed (waiting behind their game's earlier writes, waiting for a
   * flush, or in one), default 256; past it a write is refused with `overloaded` before anything changes.
   */
  readonly commitQueue?: number;
  /** Group-commit flushes in flight at once (default 1; PGlite runs one statement at a time anyway). */
  readonly commitConcurrency?: number;
  /** Hears each stored action's commit latency (metrics on: edge/plugins/metrics.ts); default none. */
  readonly commitObserver?: CommitObserver;
  /**
   * The bus to the other nodes (default: none). Every committed `state` frame is published on
   * `game:<id>`; a node whose sockets follow a game forwards the frames other nodes committed to them and
   * re-reads the game from the database before its next use.
   */
  readonly bus?: EventBus;
}

/** What a node publishes on `game:<id>` after a commit: the new version and the `state` frame's JSON text. */
export interface RemoteCommit {
  readonly version: number;
  readonly frame: string;
}

export function isRemoteCommit(m: unknown): m is RemoteCommit {
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof (m as { version?: unknown }).version === 'number' &&
    typeof (m as { frame?: unknown }).frame === 'string'
  );
}

/**
 * A game that a kind's own service creates (a daily's attempt or practice game, a race's seat): its deal,
 * options and the facts stored with it. Its response names no deal number.
 */
export interface NewGameSpec {
  readonly kind: GameKind;
  readonly deal: Deal;
  readonly dealKey: string | null;
  readonly options: GameOptions;
  readonly preset: PresetName | null;
  /** The player the game is for (it then takes that player's actions only), or null. */
  readonly owner: string | null;
  /** The daily it plays (a daily kind), else null. */
  readonly daily: DailyRef | null;
  /** The race's invite code (kind `race`), else null. */
  readonly raceCode: string | null;
  /** The clock starts at the creation, not at the first action (a ranked attempt: its cards are seen). */
  readonly clockFromCreation: boolean;
}

export interface Room extends GameFacts {
  readonly id: string;
  /** What the game is (its policy's kind). */
  readonly kind: GameKind;
  /** The invite code of a race game, else null. */
  readonly raceCode: string | null;
  readonly preset: PresetName | null;
  readonly dealNumber: number | null;
  /** The deal in public notation (secret until the game has ended). */
  readonly deal: string;
  state: GameState;
  status: GameStatus;
  version: number;
  /** Server time (ms) the clock started: the first logged action, or the creation (`clockFromCreation`); or null. */
  startedAt: number | null;
  /** Server time (ms) at which the game became won/resigned/blocked, or null while playing. */
  endedAt: number | null;
  readonly subscribers: Set<Subscriber>;
  /** Tail of the room's write queue. */
  tail: Promise<void>;
  /** Writes queued or running. */
  pending: number;
  /** The player the game was created for, or null (anonymous: anyone may play it). */
  readonly owner: string | null;
  /** The daily it plays, or null. */
  readonly daily: DailyRef | null;
  /** Its leaderboard row exists (a ranked attempt), so it takes no more actions. */
  finished: boolean;
  /**
   * The view of `state` as last read (any clock), or null until the next read: everything in it but `score`
   * and `elapsedMs` depends on the position only. Built with `status`, so the R13 search runs once per new
   * position (at the move), not on every read.
   */
  view: WireView | null;
  /** Writes the text of the room's `state` frames, reusing that of the parts of the view a move left alone. */
  readonly frameText: StateFrameText;
  /** Another node committed a newer version: re-read from the database before the next use. */
  stale: boolean;
  /** The newest version whose frame the subscribers here got from another node (0: none). */
  heard: number;
  /** Stops listening to this game's commits on other nodes (set while it has local subscribers). */
  unlisten: (() => void) | null;
}

/** What the store holds of a room: everything but its live parts. */
export type Stored = Omit<
  Room,
  'subscribers' | 'tail' | 'pending' | 'view' | 'frameText' | 'stale' | 'heard' | 'unlisten'
>;

/** A stored game replayed from its deal. */
export function replayed(row: StoredGame): Stored {
  const id = row.id;
  const options = gameOptionsOf(row, `game ${id}`);
  const dealResult = parseDeal(row.deal);
  if (!dealResult.ok) throw new Error(`game ${id}: stored deal unreadable: ${dealResult.error.message}`);
  let state = newGame(dealResult.value, options);
  for (const entry of row.log) {
    const action: GameAction =
      entry.kind === 'move' ? { type: 'move', move: MoveSchema.parse(entry.move) } : { type: entry.kind };
    const r = applyAction(state, action);
    if (!r.ok) throw new Error(`game ${id}: log entry ${entry.seq} does not replay: ${r.error.code}`);
    state = r.value;
  }
  if (row.log.length !== row.version)
    throw new Error(`game ${id}: version ${row.version} but ${row.log.length} log entries`);
  return {
    id,
    kind: row.kind,
    raceCode: row.raceCode,
    preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
    dealNumber: row.dealNumber,
    deal: row.deal,
    state,
    status: gameStatus(state),
    version: row.version,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    owner: row.owner,
    daily: row.daily,
    finished: row.finished,
  };
}

/** A deal's first position under some options: the state, its view and the deal's text. */
interface FirstPosition {
  readonly state: GameState;
  readonly view: WireView;
  readonly dealText: string;
}

/**
 * The bits of `optionsKey` for each field of `GameOptions` but `redeals` (which it multiplies by
 * `REDEALS_UNIT`). `satisfies`: a field added to `GameOptions` fails to compile here until it has its bits.
 */
const OPTION_BITS = {
  draw: { 1: 0, 3: 1 },
  tableauMoves: { anyRun: 0, wholePile: 2 },
  foundationToTableau: 4,
  scoring: { standard: 0, vegas: 8, none: 16 },
  timed: 32,
  undo: 64,
  hints: 128,
  finalSinglePass: 256,
  redeals: null,
} as const satisfies {
  readonly [K in keyof GameOptions]-?: GameOptions[K] extends boolean
    ? number
    : GameOptions[K] extends string | number
      ? { readonly [V in GameOptions[K]]: number }
      : null;
};

/** `optionsKey`'s multiplier of `redeals + 1` (null: 0): above every sum of `OPTION_BITS`. */
const REDEALS_UNIT = 512;

/**
 * A key naming `options` in `firstPositions`, read from its fields alone (no text is built: it runs on every
 * game's creation, and the options are often a new object each time, e.g. `rankedOptions`): the same fields
 * give the same key whatever object or key order carries them, and two different option sets never share
 * one. A number below 2⁵³ when `redeals` is null or an integer from 0 to 2⁴⁰ (the API accepts 0 to 100);
 * any other count, which no request can give, falls back to the JSON text.
 */
function optionsKey(o: GameOptions): number | string {
  const bits =
    OPTION_BITS.draw[o.draw] +
    OPTION_BITS.tableauMoves[o.tableauMoves] +
    (o.foundationToTableau ? OPTION_BITS.foundationToTableau : 0) +
    OPTION_BITS.scoring[o.scoring] +
    (o.timed ? OPTION_BITS.timed : 0) +
    (o.undo ? OPTION_BITS.undo : 0) +
    (o.hints ? OPTION_BITS.hints : 0) +
    (o.finalSinglePass ? OPTION_BITS.finalSinglePass : 0);
  const r = o.redeals;
  if (r === null) return bits;
  if (Number.isInteger(r) && r >= 0 && r < 2 ** 40) return bits + REDEALS_UNIT * (r + 1);
  return JSON.stringify(o);
}

/**
 * First positions by deal (the same array: a daily's deal, parsed once per node) and options (`optionsKey`).
 * The states and views of the rules package are never changed in place, so one first position serves every
 * game dealt from that array under the same options: a midnight's openings build it once. A deal array
 * nobody holds any more is dropped.
 */
const firstPositions = new WeakMap<Deal, Map<number | string, FirstPosition>>();

/** The first position of `deal` under `options` (no move yet: the clock has not started), memoised by deal. */
function firstPosition(deal: Deal, options: GameOptions): FirstPosition {
  let byOptions = firstPositions.get(deal);
  if (byOptions === undefined)
    firstPositions.set(deal, (byOptions = new Map<number | string, FirstPosition>()));
  const key = optionsKey(options);
  let first = byOptions.get(key);
  if (first === undefined) {
    const state = newGame(deal, options);
    first = { state, view: wireView(playerView(state, 0)), dealText: formatDeal(deal) };
    byOptions.set(key, first);
  }
  return first;
}

/**
 * A new game's room at version 0 (server time `now`, ms), the record the store inserts and its first view.
 * `dealNumber`: the deal number to echo (the creator chose it), or null.
 */
export function newRoom(
  g: NewGameSpec,
  dealNumber: number | null,
  now: number,
): { room: Room; record: NewGameRecord; view: WireView } {
  const preset = g.preset;
  const { state, view, dealText } = firstPosition(g.deal, g.options);
  const status = view.status;
  const room: Room = {
    id: newGameId(),
    kind: g.kind,
    raceCode: g.raceCode,
    preset,
    dealNumber,
    deal: dealText,
    state,
    status,
    version: 0,
    startedAt: g.clockFromCreation ? now : null,
    endedAt: status === 'playing' ? null : now,
    subscribers: new Set(),
    tail: Promise.resolve(),
    pending: 0,
    owner: g.owner,
    daily: g.daily,
    finished: false,
    view,
    frameText: new StateFrameText(),
    stale: false,
    heard: 0,
    unlisten: null,
  };
  const record: NewGameRecord = {
    id: room.id,
    kind: room.kind,
    raceCode: room.raceCode,
    daily: room.daily,
    owner: room.owner,
    preset,
    options: { ...g.options },
    deal: room.deal,
    dealNumber,
    dealKey: g.dealKey,
    status,
    score: view.score,
    moves: view.moves,
    createdAt: now,
    startedAt: room.startedAt,
    endedAt: room.endedAt,
  };
  return { room, record, view };
}

/** The live room of a game read from the store: no subscriber, no write queued, no view built yet. */
export function liveRoom(stored: Stored): Room {
  return {
    ...stored,
    subscribers: new Set(),
    tail: Promise.resolve(),
    pending: 0,
    view: null,
    frameText: new StateFrameText(),
    stale: false,
    heard: 0,
    unlisten: null,
  };
}

/** Puts what the database holds now into a room that was behind (its subscribers stay). */
export function reload(room: Room, fresh: Stored): void {
  room.stale = false;
  room.state = fresh.state;
  room.view = null;
  room.status = fresh.status;
  room.version = fresh.version;
  room.startedAt = fresh.startedAt;
  room.endedAt = fresh.endedAt;
  room.finished = fresh.finished;
}

/** Game time in ms by the server's clock: 0 before the first move, now − start while playing, end − start once ended. */
export function elapsedMs(startedAt: number | null, endedAt: number | null, now: number): number {
  if (startedAt === null) return 0;
  return Math.max(0, (endedAt ?? now) - startedAt);
}

/** A new random game id: 16 URL-safe characters (96 random bits). */
export function newGameId(): string {
  return randomBytes(12).toString('base64url');
}

/** `T` with every array and object field read-only, at every depth. */
type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * A `playerView` result typed as the wire shape, without copying it. The compiler checks that the view holds
 * every field of the wire shape with the same types (the assignment to `DeepReadonly<WireView>`); only
 * `readonly` is dropped, which is sound because playerView builds fresh arrays and objects on every call and
 * nothing else holds them. (A copy here cost garbage and a second view's worth of work per move.)
 */
export function wireView(view: PlayerView): WireView {
  const checked: DeepReadonly<WireView> = view;
  return checked as WireView;
}

/** A stored game's replay as GET /api/games/:id/replay answers it (steps timed from the first). */
export function replayOf(row: ReplayRecord): Replay {
  const first = row.log[0]?.at ?? 0;
  return {
    id: row.id,
    deal: row.deal,
    options: gameOptionsOf(row, `game ${row.id}`),
    preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
    player: row.player,
    steps: row.log.map((e) => ({
      type: e.kind,
      ...(e.kind === 'move' ? { move: MoveSchema.parse(e.move) } : {}),
      atMs: Math.max(0, e.at - first),
    })),
  };
}
