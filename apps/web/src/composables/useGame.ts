/**
 * The current game: a Vue adapter of @klondike/client's `GameSession`. `{gameId, version, view}` as last
 * confirmed by the server, plus the session's queue of the player's pending requests. State from the server
 * replaces local state whole. Pile moves are shown optimistically (applied to the confirmed view) until the
 * server answers; an error, a resync or a state from elsewhere rolls them back. Requests go one at a time, each
 * with the version it was based on, over the WebSocket when it is open and subscribed, else over REST. Draw,
 * recycle, undo and resign are not optimistic (the stock is hidden), so while one is in flight further input
 * is refused.
 */
import { GameSession, type SentRequest, type SessionRequest } from '@klondike/client/session';
import type { ClientFrame, CreateGameBody, GameResponse, ServerFrame } from '@klondike/protocol';
import {
  applyViewMove,
  isLegalViewMove,
  nextFoundationMove,
  type Move,
  type PlayerView,
  type PresetName,
} from '@klondike/rules';
import { computed, getCurrentScope, onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import { ApiError, createGame, getGame, postMove, postResign, postUndo } from '../lib/api';
import { serverText, tr } from '../i18n';
import { describeMove } from '../lib/format';
import { useNotify } from './useNotify';
import type { Socket } from './useSocket';

export interface Confirmed {
  readonly version: number;
  readonly view: PlayerView;
}

/** Result of asking for a move. */
export type Outcome = 'sent' | 'illegal' | 'busy' | 'no-game';

const ACK_TIMEOUT_MS = 6000;

/** Friendly text for an error code from the server. */
function errorText(code: string, message: string): string {
  switch (code) {
    case 'illegal-move':
      return serverText(message, 'common.notAllowed');
    case 'stale-version':
      return tr('game.stale');
    case 'not-found':
      return tr('game.notFound');
    case 'rate-limited':
      return tr('game.rateLimited');
    case 'network':
      return tr('game.network');
    case 'unauthorized':
      return tr('game.unauthorized');
    case 'forbidden':
      return serverText(message && tr('game.forbiddenWhy', { message }), 'game.forbidden');
    default:
      return serverText(message, 'common.error');
  }
}

/** The REST calls a game makes (the socket is down, or not subscribed yet); a fake one in tests. */
export interface GameApi {
  readonly createGame: typeof createGame;
  readonly getGame: typeof getGame;
  readonly postMove: typeof postMove;
  readonly postUndo: typeof postUndo;
  readonly postResign: typeof postResign;
}

/** The server's REST API (lib/api.ts). */
export const restGameApi: GameApi = { createGame, getGame, postMove, postUndo, postResign };

/** A pile move: shown at once (draws, recycles, undos and resignations wait for the server: the stock is hidden). */
function isPileMove(r: SessionRequest<Move>): boolean {
  return r.kind === 'move' && r.move?.type === 'move';
}

/**
 * One game on the table, over `socket` (frames) and `api` (REST: loading, creating, and moves while the socket
 * is down): a Vue adapter of @klondike/client's `GameSession` (the version rule, the queue, resync, the
 * optimistic pile moves, with the `rollback` queue), whose state it mirrors in refs. Listens to the socket and
 * runs a watchdog timer until `dispose()`, which the component or effect scope that created it calls by itself
 * when it ends (onScopeDispose).
 */
export function useGame(socket: Socket, api: GameApi = restGameApi) {
  const { toast, announce } = useNotify();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  /** setTimeout that dispose() cancels. */
  function later(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }
  const gameId = ref<string | null>(null);
  const preset = ref<PresetName | null>(null);
  const dealNumber = ref<number | null>(null);
  const subscribed = ref(false);
  /** Bumped on every fresh deal (the table plays its deal animation). */
  const dealSeq = ref(0);
  const autoCompleting = ref(false);
  /** The request in flight over the socket (its answer is lost if the socket closes), else null. */
  let overSocket: string | null = null;

  const session = new GameSession<PlayerView, Move>({
    queue: 'rollback',
    idPrefix: `c${Date.now().toString(36)}-`,
    optimistic: { shows: isPileMove, apply: applyViewMove },
    transport: { send, resync },
  });
  const confirmed = shallowRef<Confirmed | null>(null);
  const shown = shallowRef<PlayerView | null>(null);
  const pending = shallowRef<readonly SessionRequest<Move>[]>([]);
  session.onChange(() => {
    confirmed.value = session.confirmed;
    shown.value = session.view;
    pending.value = session.pending;
    if (overSocket !== null && session.inFlight?.requestId !== overSocket) overSocket = null;
  });
  /** The view to show: the confirmed one with the pending pile moves applied. */
  const view = computed<PlayerView | null>(() => shown.value);
  const version = computed(() => confirmed.value?.version ?? -1);
  const busy = computed(() => pending.value.some((r) => !isPileMove(r)));

  // ---------- what the session tells ----------

  function announceStatus(before: PlayerView | null, after: PlayerView): void {
    if (before?.status === after.status) return;
    if (after.status === 'won')
      later(
        () => announce(tr('move.won', { score: after.score, moves: tr('common.moves', {}, after.moves) })),
        400,
      );
    if (after.status === 'blocked') later(() => announce(tr('move.blocked')), 400);
  }

  /** The state frame being taken (its move is announced when it came from elsewhere). */
  let frameTaken: Extract<ServerFrame, { type: 'state' }> | null = null;

  session.onEvent((e) => {
    if (e.type === 'acknowledged') {
      const after = e.state.view;
      if (e.request.kind === 'undo') announce(tr('move.undone'));
      else if (e.request.kind === 'resign') announce(tr('move.resigned'));
      else if (e.request.move) announce(describeMove(e.request.move, e.before, after));
      announceStatus(e.before, after);
      if (autoCompleting.value) later(autoStep, 70);
    } else if (e.type === 'state') {
      const f = frameTaken;
      if (f && f.cause === 'move' && f.move && !f.requestId) announce(describeMove(f.move, e.before, f.view));
      if (f) announceStatus(e.before, e.state.view);
    } else if (e.type === 'refused') {
      if (e.refusal.code !== 'stale-version') {
        toast(errorText(e.refusal.code, e.refusal.message));
        announce(errorText(e.refusal.code, e.refusal.message));
      }
    } else {
      autoCompleting.value = false;
    }
  });

  // ---------- the session's transport ----------

  function subscribe(): void {
    const id = gameId.value;
    if (!id) return;
    const c = session.confirmed;
    const frame: ClientFrame = c
      ? { type: 'subscribe', gameId: id, version: c.version }
      : { type: 'subscribe', gameId: id };
    socket.send(frame);
  }

  /** Asks for the authoritative state (subscribe answer over the socket, else REST). */
  function resync(): void {
    if (socket.status.value === 'open') {
      subscribed.value = false;
      subscribe();
      return;
    }
    const id = gameId.value;
    if (!id) return;
    api
      .getGame(id)
      .then((g) => {
        if (gameId.value !== g.id) return;
        session.receive({ version: g.version, view: g.view }, { resync: true });
      })
      .catch(() => {
        /* the socket will resync when it is back */
      });
  }

  /** Sends a request over the socket when it is open and subscribed, else over REST. */
  function send(r: SentRequest<Move>): boolean {
    const id = gameId.value;
    if (!id) return false;
    if (socket.status.value === 'open' && subscribed.value) {
      const base = { gameId: id, version: r.version, requestId: r.requestId };
      const frame: ClientFrame =
        r.kind === 'move' && r.move
          ? { type: 'move', move: r.move, ...base }
          : r.kind === 'undo'
            ? { type: 'undo', ...base }
            : { type: 'resign', ...base };
      if (socket.send(frame)) {
        overSocket = r.requestId;
        return true;
      }
    }
    const call =
      r.kind === 'move' && r.move
        ? api.postMove(id, r.move, r.version)
        : r.kind === 'undo'
          ? api.postUndo(id, r.version)
          : api.postResign(id, r.version);
    call.then(
      (res) => {
        if (gameId.value !== id) return;
        session.receive({ version: res.version, view: res.view }, { requestId: r.requestId });
      },
      (e: unknown) => {
        if (gameId.value !== id) return;
        if (e instanceof ApiError)
          session.refuse(r.requestId, {
            code: e.code,
            message: e.message,
            ...(e.version !== undefined ? { version: e.version } : {}),
            ...(e.reason !== undefined ? { reason: e.reason } : {}),
          });
        else session.refuse(r.requestId, { code: 'internal', message: tr('common.error') });
      },
    );
    return true;
  }

  function onFrame(frame: ServerFrame): void {
    if (frame.type === 'state') {
      if (frame.gameId !== gameId.value) return;
      subscribed.value = true;
      frameTaken = frame;
      session.receive(
        { version: frame.version, view: frame.view },
        {
          ...(frame.requestId !== undefined ? { requestId: frame.requestId } : {}),
          resync: frame.cause === 'subscribe',
        },
      );
      frameTaken = null;
      return;
    }
    if (frame.type === 'error') {
      // An error about another game, or about no game at all (a race room, an auth attempt), is not ours to
      // report: whoever asked shows it. Only a connection's frame limit concerns every game on it.
      if (frame.gameId !== gameId.value && !(frame.gameId === undefined && frame.code === 'rate-limited'))
        return;
      if (frame.requestId) {
        // The answer to the request in flight (else to something we no longer wait for).
        if (frame.requestId === overSocket)
          session.refuse(frame.requestId, {
            code: frame.code,
            message: frame.message,
            ...(frame.version !== undefined ? { version: frame.version } : {}),
            ...(frame.reason !== undefined ? { reason: frame.reason } : {}),
          });
        return;
      }
      if (frame.code === 'not-subscribed') {
        subscribed.value = false;
        subscribe();
      } else {
        toast(errorText(frame.code, frame.message));
      }
    }
  }

  const offFrame = socket.onFrame(onFrame);
  const offOpen = socket.onOpen(() => {
    subscribed.value = false;
    subscribe();
  });
  const stopStatus = watch(socket.status, (s) => {
    if (s === 'open') return;
    subscribed.value = false;
    // The answer of a request sent over the socket is lost with it: show the server's truth instead.
    if (overSocket !== null && session.inFlight?.requestId === overSocket) session.lost();
  });

  // Watchdog: an answer that never comes.
  const watchdog = setInterval(() => {
    const head = session.inFlight;
    if (head && Date.now() - head.sentAt > ACK_TIMEOUT_MS) {
      session.rollback();
      toast(tr('game.slow'));
      resync();
    }
  }, 1000);

  // ---------- asking ----------

  /** Asks the server to make `move`; pile moves show at once. */
  function move(m: Move): Outcome {
    const v = view.value;
    if (!v || !gameId.value) return 'no-game';
    if (busy.value) return 'busy';
    if (!isLegalViewMove(v, m)) return 'illegal';
    session.request('move', m);
    return 'sent';
  }

  function undo(): Outcome {
    const v = view.value;
    if (!v || !gameId.value) return 'no-game';
    if (busy.value) return 'busy';
    if (!v.canUndo) return 'illegal';
    autoCompleting.value = false;
    session.request('undo', undefined);
    return 'sent';
  }

  function resign(): Outcome {
    const v = view.value;
    if (!v || !gameId.value) return 'no-game';
    if (v.status !== 'playing' && v.status !== 'blocked') return 'illegal';
    if (busy.value) return 'busy';
    session.request('resign', undefined);
    return 'sent';
  }

  function autoStep(): void {
    if (!autoCompleting.value || session.pending.length > 0) return;
    const v = session.confirmed?.view;
    const next = v && v.status === 'playing' ? nextFoundationMove(v) : null;
    if (!next) {
      autoCompleting.value = false;
      return;
    }
    session.request('move', next);
  }

  /** Sends the foundation moves one by one (R15). */
  function autoComplete(): void {
    if (!view.value?.canAutoComplete) return;
    autoCompleting.value = true;
    autoStep();
  }

  // ---------- games ----------

  function setGame(g: GameResponse, fresh: boolean): void {
    const old = gameId.value;
    if (old && old !== g.id) socket.send({ type: 'unsubscribe', gameId: old });
    gameId.value = g.id;
    preset.value = g.preset;
    dealNumber.value = g.dealNumber;
    autoCompleting.value = false;
    subscribed.value = false;
    overSocket = null;
    session.reset({ version: g.version, view: g.view });
    if (fresh) dealSeq.value++;
    subscribe();
  }

  /**
   * Shows game `id` (GET, then subscribe); `fresh` plays the deal animation (a game just dealt elsewhere).
   * Throws ApiError when it does not exist.
   */
  async function load(id: string, options: { fresh?: boolean } = {}): Promise<void> {
    setGame(await api.getGame(id), options.fresh === true);
  }

  /** Deals a new game (POST /api/games) and shows it. Throws ApiError on a refused body. */
  async function create(body: CreateGameBody): Promise<GameResponse> {
    const g = await api.createGame(body);
    setGame(g, true);
    return g;
  }

  /** Shows a game fetched or created elsewhere; `fresh` (default) plays the deal animation. */
  function show(g: GameResponse, fresh = true): void {
    setGame(g, fresh);
  }

  let disposed = false;
  /** Stops listening to the socket, unsubscribes from the game and cancels every timer. Idempotent. */
  function dispose(): void {
    if (disposed) return;
    disposed = true;
    offFrame();
    offOpen();
    stopStatus();
    clearInterval(watchdog);
    for (const t of timers) clearTimeout(t);
    timers.clear();
    autoCompleting.value = false;
    if (gameId.value) socket.send({ type: 'unsubscribe', gameId: gameId.value });
  }
  if (getCurrentScope()) onScopeDispose(dispose);

  return {
    show,
    dispose,
    gameId,
    preset,
    dealNumber,
    confirmed,
    view,
    version,
    busy,
    subscribed,
    dealSeq,
    autoCompleting,
    move,
    undo,
    resign,
    autoComplete,
    load,
    create,
    resync,
  };
}

export type Game = ReturnType<typeof useGame>;

/** What the card table needs of a game: the live game or a read-only replay. */
export interface TableSource {
  readonly view: Readonly<Ref<PlayerView | null>>;
  readonly version: Readonly<Ref<number>>;
  readonly busy: Readonly<Ref<boolean>>;
  readonly dealSeq: Readonly<Ref<number>>;
  move(m: Move): Outcome;
}
