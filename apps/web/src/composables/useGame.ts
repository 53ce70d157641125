/**
 * The current game: `{gameId, version, view}` as last confirmed by the server, plus a queue of the player's
 * pending operations. State from the server replaces local state whole. Pile moves are shown optimistically
 * (applied to the confirmed view) until the server answers; an error, a resync or a state from elsewhere rolls
 * them back. Operations go one at a time, each with the version it was based on, over the WebSocket when it is
 * open and subscribed, else over REST. Draw, recycle, undo and resign are not optimistic (the stock is
 * hidden), so while one is in flight further input is refused.
 */
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

type OpKind = 'move' | 'undo' | 'resign';
interface Op {
  readonly id: string;
  readonly kind: OpKind;
  readonly move?: Move;
  sent: boolean;
  sentAt: number;
  via: 'ws' | 'rest' | null;
}

/** Result of asking for a move. */
export type Outcome = 'sent' | 'illegal' | 'busy' | 'no-game';

const ACK_TIMEOUT_MS = 6000;

function isOptimistic(op: Op): boolean {
  return op.kind === 'move' && op.move?.type === 'move';
}

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

/**
 * One game on the table, over `socket` (frames) and `api` (REST: loading, creating, and moves while the socket
 * is down). Listens to the socket and runs a watchdog timer until `dispose()`, which the component or effect
 * scope that created it calls by itself when it ends (onScopeDispose).
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
  const confirmed = shallowRef<Confirmed | null>(null);
  const ops = shallowRef<readonly Op[]>([]);
  const subscribed = ref(false);
  /** Bumped on every fresh deal (the table plays its deal animation). */
  const dealSeq = ref(0);
  const autoCompleting = ref(false);
  let seq = 0;

  /** The view to show: confirmed state with the pending pile moves applied. */
  const view = computed<PlayerView | null>(() => {
    const c = confirmed.value;
    if (!c) return null;
    let v = c.view;
    for (const op of ops.value) {
      if (!isOptimistic(op)) break;
      const next = applyViewMove(v, op.move as Move);
      if (!next) break;
      v = next;
    }
    return v;
  });
  const version = computed(() => confirmed.value?.version ?? -1);
  const busy = computed(() => ops.value.some((op) => !isOptimistic(op)));

  // ---------- accepting state ----------

  /** Takes a state from the server. `force` accepts an older version too (load, subscribe answer). */
  function accept(version: number, v: PlayerView, force: boolean): boolean {
    const c = confirmed.value;
    if (!force && c && version < c.version) return false;
    confirmed.value = { version, view: v };
    return true;
  }

  function announceAck(op: Op, before: PlayerView | null, after: PlayerView): void {
    if (op.kind === 'undo') announce(tr('move.undone'));
    else if (op.kind === 'resign') announce(tr('move.resigned'));
    else if (op.move) announce(describeMove(op.move, before, after));
    announceStatus(before, after);
  }

  function announceStatus(before: PlayerView | null, after: PlayerView): void {
    if (before?.status === after.status) return;
    if (after.status === 'won')
      later(
        () => announce(tr('move.won', { score: after.score, moves: tr('common.moves', {}, after.moves) })),
        400,
      );
    if (after.status === 'blocked') later(() => announce(tr('move.blocked')), 400);
  }

  function ack(op: Op, version: number, v: PlayerView): void {
    const before = confirmed.value?.view ?? null;
    accept(version, v, false);
    ops.value = ops.value.filter((o) => o !== op);
    announceAck(op, before, v);
    pump();
    if (autoCompleting.value) later(autoStep, 70);
  }

  /** The server refused the head operation: roll back every pending operation. */
  function fail(code: string, message: string, serverVersion: number | undefined): void {
    ops.value = [];
    autoCompleting.value = false;
    if (code !== 'stale-version') {
      toast(errorText(code, message));
      announce(errorText(code, message));
    }
    if (
      code === 'stale-version' ||
      code === 'not-subscribed' ||
      (serverVersion !== undefined && serverVersion !== version.value)
    ) {
      resync();
    }
  }

  // ---------- socket ----------

  function subscribe(): void {
    const id = gameId.value;
    if (!id) return;
    const frame: ClientFrame = confirmed.value
      ? { type: 'subscribe', gameId: id, version: confirmed.value.version }
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
        if (accept(g.version, g.view, true)) ops.value = [];
      })
      .catch(() => {
        /* the socket will resync when it is back */
      });
  }

  function onFrame(frame: ServerFrame): void {
    if (frame.type === 'state') {
      if (frame.gameId !== gameId.value) return;
      subscribed.value = true;
      const head = ops.value[0];
      if (head && head.sent && head.via === 'ws' && frame.requestId === head.id) {
        ack(head, frame.version, frame.view);
        return;
      }
      const before = confirmed.value?.view ?? null;
      const force = frame.cause === 'subscribe';
      if (!accept(frame.version, frame.view, force)) return;
      if (ops.value.length > 0 && !(frame.requestId && ops.value.some((o) => o.id === frame.requestId))) {
        // A state we did not ask for (another tab, a resync): it replaces local state, pending moves roll back.
        ops.value = [];
        autoCompleting.value = false;
      }
      if (frame.cause === 'move' && frame.move && !frame.requestId)
        announce(describeMove(frame.move, before, frame.view));
      announceStatus(before, frame.view);
      pump();
      return;
    }
    if (frame.type === 'error') {
      // An error about another game, or about no game at all (a race room, an auth attempt), is not ours to
      // report: whoever asked shows it. Only a connection's frame limit concerns every game on it.
      if (frame.gameId !== gameId.value && !(frame.gameId === undefined && frame.code === 'rate-limited'))
        return;
      const head = ops.value[0];
      if (head && head.sent && head.via === 'ws' && frame.requestId === head.id) {
        fail(frame.code, frame.message, frame.version);
        return;
      }
      if (frame.requestId) return; // an answer to something we no longer wait for
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
    const head = ops.value[0];
    if (head && head.sent && head.via === 'ws') {
      // Its answer is lost with the connection: show the server's truth instead.
      ops.value = [];
      autoCompleting.value = false;
      resync();
    }
  });

  // Watchdog: an answer that never comes.
  const watchdog = setInterval(() => {
    const head = ops.value[0];
    if (head && head.sent && Date.now() - head.sentAt > ACK_TIMEOUT_MS) {
      ops.value = [];
      autoCompleting.value = false;
      toast(tr('game.slow'));
      resync();
    }
  }, 1000);

  // ---------- sending ----------

  function pump(): void {
    const head = ops.value[0];
    const c = confirmed.value;
    const id = gameId.value;
    if (!head || head.sent || !c || !id) return;
    head.sent = true;
    head.sentAt = Date.now();
    const v = c.version;
    if (socket.status.value === 'open' && subscribed.value) {
      let frame: ClientFrame;
      if (head.kind === 'move')
        frame = { type: 'move', gameId: id, move: head.move as Move, version: v, requestId: head.id };
      else if (head.kind === 'undo') frame = { type: 'undo', gameId: id, version: v, requestId: head.id };
      else frame = { type: 'resign', gameId: id, version: v, requestId: head.id };
      if (socket.send(frame)) {
        head.via = 'ws';
        return;
      }
    }
    head.via = 'rest';
    const call =
      head.kind === 'move'
        ? api.postMove(id, head.move as Move, v)
        : head.kind === 'undo'
          ? api.postUndo(id, v)
          : api.postResign(id, v);
    call.then(
      (res) => {
        if (gameId.value !== id) return;
        if (ops.value[0] === head) ack(head, res.version, res.view);
        else accept(res.version, res.view, false);
      },
      (e: unknown) => {
        if (gameId.value !== id || ops.value[0] !== head) return;
        if (e instanceof ApiError) fail(e.code, e.message, e.version);
        else fail('internal', tr('common.error'), undefined);
      },
    );
  }

  function enqueue(kind: OpKind, move?: Move): void {
    const op: Op = {
      id: `c${Date.now().toString(36)}-${++seq}`,
      kind,
      move,
      sent: false,
      sentAt: 0,
      via: null,
    };
    ops.value = [...ops.value, op];
    pump();
  }

  /** Asks the server to make `move`; pile moves show at once. */
  function move(m: Move): Outcome {
    const v = view.value;
    if (!v || !gameId.value) return 'no-game';
    if (busy.value) return 'busy';
    if (!isLegalViewMove(v, m)) return 'illegal';
    enqueue('move', m);
    return 'sent';
  }

  function undo(): Outcome {
    const v = view.value;
    if (!v || !gameId.value) return 'no-game';
    if (busy.value) return 'busy';
    if (!v.canUndo) return 'illegal';
    autoCompleting.value = false;
    enqueue('undo');
    return 'sent';
  }

  function resign(): Outcome {
    const v = view.value;
    if (!v || !gameId.value) return 'no-game';
    if (v.status !== 'playing' && v.status !== 'blocked') return 'illegal';
    if (busy.value) return 'busy';
    enqueue('resign');
    return 'sent';
  }

  function autoStep(): void {
    if (!autoCompleting.value || ops.value.length > 0) return;
    const v = confirmed.value?.view;
    const next = v && v.status === 'playing' ? nextFoundationMove(v) : null;
    if (!next) {
      autoCompleting.value = false;
      return;
    }
    enqueue('move', next);
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
    ops.value = [];
    autoCompleting.value = false;
    subscribed.value = false;
    confirmed.value = { version: g.version, view: g.view };
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
