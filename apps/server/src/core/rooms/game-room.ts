/**
 * One game's room: what happens to one game, in its write queue (`exclusive`: one write at a time, in
 * arrival order, a promise chain per room).
 *
 * `act` is the move path, top to bottom: admit the write (the commit queue's bound), load the room, authorise
 * the actor (an owned game takes its player's actions only; the kind's `checkWrite`), catch the room up when
 * another node wrote it, check the version, apply the pure rules (`applyAction`, then `stepOf`), commit
 * (group-commit.ts; durable before anything changes), change the room, fan the `state` frame out to the
 * subscribers here and, with several nodes, to the others, and only then — once the write has left the
 * game's queue — tell the kind's hooks (`afterResult`, `afterCommit`: a race's progress, and its end,
 * which acts on the other racers' games). A write refused by the rules or the version check changes
 * nothing; one whose commit failed changes nothing either.
 *
 * The room does not know where the other rooms live or how nodes hear each other: it is handed a
 * `RoomContext` (game-rooms.ts builds it) whose `peers` are the cluster sync (cluster-sync.ts).
 */
import { GAME_KIND_SCOPES, type StateResponse } from '@klondike/protocol';
import { type GameAction, applyAction, currentScore, playerView } from '@klondike/rules';
import { ApiError } from '../../infra/errors.js';
import { checkScope } from '../../infra/http/api-security.js';
import type { MoveLog } from './group-commit.js';
import type { Actor, GameFacts, GamePolicy, ResultRow, WireView } from './policies.js';
import {
  type ActOptions,
  type Room,
  type Standing,
  type Subscriber,
  type WriteOrigin,
  elapsedMs,
  wireView,
} from './room.js';
import type { StateFrame } from './state-frame-text.js';
import { stepOf } from './step.js';
import type { GameStore } from './store.js';

/** What a room's reads and frames depend on: the server clock and the policy of the game's kind. */
export interface RoomRules {
  /** The server clock, ms since the epoch. */
  now(): number;
  /** The policy of the room's kind (as declared now: `GameRooms.usePolicies`). */
  policy(room: Room): GamePolicy;
}

/** What a room needs from the other nodes (cluster-sync.ts); with one node, `clustered` is false. */
export interface Peers {
  /** Other nodes may write the games here: a write first checks the stored version (`freshen`). */
  readonly clustered: boolean;
  /**
   * The room of game `id` for a write: in memory, or loaded; caught up first when another node wrote it.
   * Errors: `not-found`; database failures as they are.
   */
  room(id: string): Room | Promise<Room>;
  /**
   * Several nodes, in the room's queue, before a write: re-reads the room when the client is ahead of it
   * (`expectedVersion` > its version) or, for a write without a version, when the store is.
   */
  freshen(room: Room, expectedVersion: number | undefined): Promise<void>;
  /** Several nodes: tells the others of a commit (its version and its `state` frame's text). */
  publish(room: Room, version: number, frame: string): void;
  /** Starts or stops following the game's commits on other nodes as it gains or loses subscribers here. */
  listen(room: Room): void;
  /**
   * Re-reads a room whose copy lost a version check (another node wrote the game), in place so its
   * subscribers stay, and sends them the fresh state. Resolves with the stored version.
   */
  refresh(room: Room): Promise<number>;
}

/** Everything a room's operations use: the rules, the store, the commits and the other nodes. */
export interface RoomContext extends RoomRules {
  readonly store: GameStore;
  readonly log: MoveLog;
  readonly peers: Peers;
}

/**
 * Applies a move, undo or resignation to game `id`, commits it, then sends a `state` frame to every
 * subscriber (the origin's copy carries its request id) and returns the new version and view.
 * See `ActOptions` (`expectedVersion` undefined = no version check).
 * Errors: `overloaded` when the commit queue is full; `not-found`; `unauthorized`/`forbidden` when the game
 * belongs to another player; the kind's `checkWrite` refusal (`conflict` when a ranked attempt has ended or
 * its day has closed); `stale-version` with the current version; `illegal-move` with the rules' reason and
 * the current version; `unavailable`/`commit-failed` when the commit failed; other database failures as
 * they are. Nothing changes on a refusal.
 */
export async function act(
  ctx: RoomContext,
  id: string,
  action: GameAction,
  options: ActOptions = {},
): Promise<StateResponse> {
  const { expectedVersion, origin } = options;
  // 1. Admit: past the commit queue's bound the write is refused before anything is read.
  ctx.log.admit();
  try {
    // 2. Load: the room in memory (no promise to wait for), or read and replayed from the store.
    const found = ctx.peers.room(id);
    const room = found instanceof Promise ? await found : found;
    // 3. Authorise: an owned game takes its player's actions only.
    checkOwner(room, options.actor ?? null, options.scopes);
    const policy = ctx.policy(room);
    let at = 0;
    let ended = false;
    const answer = await exclusive(room, async () => {
      // ... and the kind's rule (a ranked attempt that has ended, a day that has closed).
      policy.checkWrite?.(room, ctx.now(), room.version);
      // 4. Freshness: a copy nobody here follows hears no other node's commits; a client ahead of it
      // catches it up first, and an action without a version applies to the stored game.
      if (ctx.peers.clustered) await ctx.peers.freshen(room, expectedVersion);
      if (expectedVersion !== undefined && expectedVersion !== room.version)
        throw new ApiError(
          'stale-version',
          `the game is at version ${room.version}, not ${expectedVersion}`,
          {
            version: room.version,
          },
        );
      // 5. The pure rules: the next state, then the step (status, clock, view, log entry, result row).
      const r = applyAction(room.state, action);
      if (!r.ok)
        throw new ApiError('illegal-move', r.error.message, { version: room.version, reason: r.error.code });
      const now = ctx.now();
      const { state, view, commit, result } = stepOf(room, action, r.value, now, policy);
      const version = commit.version;
      // 6. Commit: durable before the room changes.
      const outcome = await ctx.log.commit(room, commit, result);
      if (outcome === 'row-exists') {
        room.finished = true;
        throw new ApiError('conflict', 'this ranked attempt has already ended (the day may have closed)', {
          version: room.version,
        });
      }
      if (outcome === 'stale') {
        // Another node wrote this game: our copy is behind. Catch up and report the stored version.
        const stored = await ctx.peers.refresh(room);
        throw new ApiError('stale-version', `the game is at version ${stored}`, { version: stored });
      }
      // 7. The room changes.
      if (result !== null) room.finished = true;
      room.state = state;
      // Not kept: held here, a view lives until the game's next move (a second and more at a human pace),
      // long enough to be copied by the young generation's collections and often moved to the old one; its
      // frame is sent, and a read rebuilds it with the status known here (no second R13 search).
      room.view = null;
      room.status = commit.status;
      room.version = version;
      room.startedAt = commit.startedAt;
      room.endedAt = commit.endedAt;
      // 8. Fan out: the subscribers here, then the other nodes.
      const frame: StateFrame = {
        type: 'state',
        gameId: room.id,
        version,
        view,
        cause: action.type,
        ...(action.type === 'move' ? { move: action.move } : {}),
      };
      const text = fanOut(room, frame, origin);
      if (ctx.peers.clustered)
        ctx.peers.publish(room, version, text ?? room.frameText.text(frame, room.state));
      at = now;
      ended = result !== null;
      return { version, view };
    });
    // 9. Effects, once the write has left the game's queue: the kind's hooks may act on games, this one too,
    // without re-entering a write in progress.
    if (ended) policy.afterResult?.(room);
    policy.afterCommit?.({
      gameId: room.id,
      owner: room.owner,
      version: answer.version,
      view: answer.view,
      at,
    });
    return answer;
  } finally {
    ctx.log.release();
  }
}

/**
 * Settles a game without an action (GameRooms.settle), in its write queue: `decide` gets its facts, the
 * server time and its standing with the clock stopped at a given end, and names the leaderboard row to
 * store, or null. Resolves with whether a row was added (false for a game that already has its row); the
 * kind's `afterResult` is told after the queue released it.
 */
export async function settle(
  ctx: RoomContext,
  room: Room,
  decide: (game: GameFacts, now: number, at: (end: number) => Standing) => ResultRow | null,
): Promise<boolean> {
  const added = await exclusive(room, async () => {
    if (room.finished) return false;
    const row = decide(room, ctx.now(), (end) => {
      const timeMs = elapsedMs(room.startedAt, end, end);
      const view = playerView(room.state, timeMs);
      return { score: view.score, moves: view.moves, timeMs };
    });
    if (row === null) return false;
    const stored = await ctx.store.settle(room, row);
    room.finished = true;
    return stored;
  });
  if (added) ctx.policy(room).afterResult?.(room);
  return added;
}

/**
 * Adds a subscriber to the room and sends it a `state` frame (cause `subscribe`) with the current version
 * (unless `firstFrame` is false: its creator already holds that state), in the room's queue, so no frame of
 * a write is missed or reordered.
 */
export async function join(
  ctx: RoomContext,
  room: Room,
  subscriber: Subscriber,
  firstFrame = true,
): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/require-await -- `exclusive` needs a throw here as a rejection
  await exclusive(room, async () => {
    room.subscribers.add(subscriber);
    ctx.peers.listen(room);
    if (firstFrame) subscriber.send(room.frameText.text(currentFrame(ctx, room), room.state));
  });
}

/** Runs `fn` after every earlier write of this room (per-game serialisation). */
export function exclusive<T>(room: Room, fn: () => Promise<T>): Promise<T> {
  // Nothing queued for this game: every earlier write has settled, so `fn` starts now, and its own promise
  // is the write's (no turn of the queue, no promise adopting another).
  // `fn` must not start another write of this game before its first await (none does).
  const idle = room.pending === 0;
  room.pending++;
  const run = idle ? fn() : room.tail.then(fn);
  // The queue's tail settles with `run`, and its handlers run before the caller's (registered first), so
  // the write no longer counts as pending by the time its caller goes on.
  const done = (): void => {
    room.pending--;
  };
  room.tail = run.then(done, done);
  return run;
}

/**
 * A game created for a player takes actions only from that player; a personal access token (`scopes`) also
 * needs the scope of the game's kind (protocol's GAME_KIND_SCOPES: a ranked daily `daily:play`, a race
 * `race:play`). Errors: `unauthorized`, `forbidden`, `missing-scope`.
 */
export function checkOwner(room: Room, actor: Actor, scopes?: ReadonlySet<string> | null): void {
  checkScope(scopes, GAME_KIND_SCOPES[room.kind]);
  if (room.owner === null) return;
  if (actor === null)
    throw new ApiError('unauthorized', "this game belongs to a player: send that player's token");
  if (actor !== room.owner) throw new ApiError('forbidden', 'this game belongs to another player');
}

/** The view at `now`: the room's cached view of its position with the score and clock of `now`. */
export function viewAt(rules: RoomRules, room: Room, now: number): WireView {
  // The clock stopped at the game's end, or when its policy stopped it (a closed day).
  const end = room.endedAt ?? rules.policy(room).clockEnd?.(room, now) ?? null;
  const elapsed = elapsedMs(room.startedAt, end, now);
  if (room.view === null) room.view = wireView(playerView(room.state, elapsed, room.status));
  const ms = Math.max(0, Math.floor(elapsed));
  if (room.view.elapsedMs === ms) return room.view;
  return { ...room.view, score: currentScore(room.state, elapsed), elapsedMs: ms };
}

/** The room's current state as a `state` frame of cause `subscribe` (a (re)connect, a resync). */
export function currentFrame(rules: RoomRules, room: Room): StateFrame {
  const view = viewAt(rules, room, rules.now());
  return { type: 'state', gameId: room.id, version: room.version, view, cause: 'subscribe' };
}

/**
 * Sends a `state` frame to the room's subscribers here (`origin`'s copy with its request id). Returns the
 * frame's text as sent to the others, or undefined when it was not written (no other subscriber).
 * `frame.view` is the view of `room.state` (the room's frame writer keys its reused text on it).
 */
export function fanOut(room: Room, frame: StateFrame, origin?: WriteOrigin): string | undefined {
  // Serialised at most once for everyone else (often nobody: the mover is the only subscriber).
  let text: string | undefined;
  for (const s of room.subscribers)
    if (s !== origin?.subscriber) s.send((text ??= room.frameText.text(frame, room.state)));
  if (origin) {
    if (origin.requestId === undefined)
      origin.subscriber.send((text ??= room.frameText.text(frame, room.state)));
    else origin.subscriber.send(room.frameText.text(frame, room.state, origin.requestId));
  }
  return text;
}
