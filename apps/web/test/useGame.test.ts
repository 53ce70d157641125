// @vitest-environment happy-dom
/**
 * useGame against a fake socket and a fake REST API (its collaborators; the composable itself is real): the
 * optimistic queue, rollback on a refusal or a resync, the REST fallback while the socket is down, and dispose.
 */
import { GameResponseSchema, type ClientFrame, type GameResponse } from '@klondike/protocol';
import {
  applyMove,
  dealFromNumber,
  legalMoves,
  newGame,
  playerView,
  resolveOptions,
  type GameState,
  type Move,
  type PlayerView,
} from '@klondike/rules';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import { useGame, type GameApi } from '../src/composables/useGame';
import { useNotify } from '../src/composables/useNotify';
import type { Socket } from '../src/composables/useSocket';
import { fakeSocket } from './fixtures';

const GAME_ID = 'g-test-1';

/** A started game and one legal pile move of it (deal 7 under classic draw 1 has several). */
function position(): { state: GameState; view: PlayerView; pileMove: Move; after: GameState } {
  const deal = dealFromNumber(7);
  if (!deal.ok) throw new Error('deal');
  const state = newGame(deal.value, resolveOptions('classic-draw1'));
  const pileMove = legalMoves(state).find((m) => m.type === 'move');
  if (!pileMove) throw new Error('deal 7 has no pile move at the start');
  const r = applyMove(state, pileMove);
  if (!r.ok) throw new Error(r.error.code);
  return { state, view: playerView(state, 0), pileMove, after: r.value };
}

/** A view as it arrives over the network: serialised and parsed with the protocol's schema. */
function wire(view: PlayerView): GameResponse['view'] {
  return GameResponseSchema.shape.view.parse(JSON.parse(JSON.stringify(view)));
}

function response(version: number, view: PlayerView): GameResponse {
  return {
    id: GAME_ID,
    version,
    view: wire(view),
    preset: 'classic-draw1',
    dealNumber: 7,
    kind: 'casual',
    daily: null,
    race: null,
  };
}

function fakeApi(overrides: Partial<GameApi> = {}): GameApi {
  const fail = () => Promise.reject(new Error('not expected in this test'));
  return {
    createGame: fail,
    getGame: fail,
    postMove: fail,
    postUndo: fail,
    postResign: fail,
    ...overrides,
  };
}

const scopes: ReturnType<typeof effectScope>[] = [];
/** useGame inside an effect scope (as in a component), stopped after each test. */
function mount(socket: Socket, api: GameApi) {
  const scope = effectScope();
  scopes.push(scope);
  const game = scope.run(() => useGame(socket, api));
  if (!game) throw new Error('scope');
  return { game, scope };
}
afterEach(() => {
  while (scopes.length) scopes.pop()?.stop();
  vi.useRealTimers();
});

describe('useGame', () => {
  it('shows a pile move at once, sends it with its version, and takes the server state whole on the answer', async () => {
    const { view, pileMove, after } = position();
    const s = fakeSocket();
    const { game } = mount(s.socket, fakeApi({ getGame: () => Promise.resolve(response(0, view)) }));
    await game.load(GAME_ID);
    expect(s.sent).toContainEqual({ type: 'subscribe', gameId: GAME_ID, version: 0 });
    s.receive({ type: 'state', gameId: GAME_ID, version: 0, view: wire(view), cause: 'subscribe' });

    expect(game.move(pileMove)).toBe('sent');
    expect(game.view.value?.moves).toBe(1); // optimistic
    expect(game.version.value).toBe(0); // not confirmed yet
    const frame = s.sent.at(-1);
    expect(frame).toMatchObject({ type: 'move', gameId: GAME_ID, move: pileMove, version: 0 });
    const requestId = frame && 'requestId' in frame ? frame.requestId : undefined;
    expect(requestId).toBeTypeOf('string');

    const serverView = playerView(after, 1000);
    s.receive({
      type: 'state',
      gameId: GAME_ID,
      version: 1,
      view: wire(serverView),
      cause: 'move',
      move: pileMove,
      requestId,
    });
    expect(game.version.value).toBe(1);
    expect(game.view.value).toEqual(serverView); // the server's view, whole (turned-up card included)
  });

  it('refuses an illegal move locally and sends nothing', async () => {
    const { view } = position();
    const s = fakeSocket();
    const { game } = mount(s.socket, fakeApi({ getGame: () => Promise.resolve(response(0, view)) }));
    await game.load(GAME_ID);
    const before = s.sent.length;
    expect(game.move({ type: 'move', from: 'waste', to: 't1', count: 1 })).toBe('illegal'); // the waste is empty
    expect(s.sent.length).toBe(before);
  });

  it('rolls the optimistic move back when the server refuses it, and resyncs on stale-version', async () => {
    const { view, pileMove } = position();
    const s = fakeSocket();
    const { game } = mount(s.socket, fakeApi({ getGame: () => Promise.resolve(response(0, view)) }));
    await game.load(GAME_ID);
    s.receive({ type: 'state', gameId: GAME_ID, version: 0, view: wire(view), cause: 'subscribe' });
    game.move(pileMove);
    expect(game.view.value?.moves).toBe(1);
    const frame = s.sent.at(-1) as Extract<ClientFrame, { type: 'move' }>;
    s.receive({
      type: 'error',
      code: 'stale-version',
      message: 'stale',
      gameId: GAME_ID,
      version: 3,
      requestId: frame.requestId,
    });
    expect(game.view.value).toEqual(view); // rolled back
    expect(s.sent.at(-1)).toEqual({ type: 'subscribe', gameId: GAME_ID, version: 0 }); // resync asked
  });

  it('a state it did not ask for (another tab) replaces local state and drops pending moves', async () => {
    const { view, pileMove, state } = position();
    const s = fakeSocket();
    const { game } = mount(s.socket, fakeApi({ getGame: () => Promise.resolve(response(0, view)) }));
    await game.load(GAME_ID);
    s.receive({ type: 'state', gameId: GAME_ID, version: 0, view: wire(view), cause: 'subscribe' });
    game.move(pileMove);
    const drawn = applyMove(state, { type: 'draw' });
    if (!drawn.ok) throw new Error('draw');
    const elsewhere = playerView(drawn.value, 0);
    s.receive({
      type: 'state',
      gameId: GAME_ID,
      version: 1,
      view: wire(elsewhere),
      cause: 'move',
      move: { type: 'draw' },
    });
    expect(game.version.value).toBe(1);
    expect(game.view.value).toEqual(elsewhere);
    expect(game.busy.value).toBe(false);
  });

  it('falls back to REST while the socket is down', async () => {
    const { view, pileMove, after } = position();
    const s = fakeSocket('closed');
    const postMove = vi.fn((_id: string, _move: Move, version: number) =>
      Promise.resolve({ version: version + 1, view: wire(playerView(after, 0)) }),
    );
    const { game } = mount(
      s.socket,
      fakeApi({ getGame: () => Promise.resolve(response(0, view)), postMove }),
    );
    await game.load(GAME_ID);
    expect(game.move(pileMove)).toBe('sent');
    expect(postMove).toHaveBeenCalledWith(GAME_ID, pileMove, 0);
    await vi.waitFor(() => expect(game.version.value).toBe(1));
    expect(s.sent).toEqual([]); // nothing went over the closed socket
  });

  it('dispose (the scope ending) stops listening, unsubscribes and stops the watchdog', async () => {
    vi.useFakeTimers();
    const { view, pileMove } = position();
    const s = fakeSocket();
    const getGame = vi.fn(() => Promise.resolve(response(0, view)));
    const { game, scope } = mount(s.socket, fakeApi({ getGame }));
    await game.load(GAME_ID);
    s.receive({ type: 'state', gameId: GAME_ID, version: 0, view: wire(view), cause: 'subscribe' });
    expect(s.frameHandlers.size).toBe(1);
    expect(s.openHandlers.size).toBe(1);
    game.move(pileMove); // pending, never answered

    scope.stop();
    expect(s.frameHandlers.size).toBe(0);
    expect(s.openHandlers.size).toBe(0);
    expect(s.sent.at(-1)).toEqual({ type: 'unsubscribe', gameId: GAME_ID });
    const sentAfterDispose = s.sent.length;
    // The watchdog would resync an unanswered move after 6 s: disposed, it does nothing.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.sent.length).toBe(sentAfterDispose);
    expect(getGame).toHaveBeenCalledTimes(1);
    game.dispose(); // idempotent
    expect(s.sent.length).toBe(sentAfterDispose);
  });
});

describe('useGame and errors that are not its own', () => {
  it('an error frame about no game (a race room that does not exist) is not reported as a missing game', async () => {
    const { view } = position();
    const s = fakeSocket();
    const { game } = mount(s.socket, fakeApi({ getGame: () => Promise.resolve(response(0, view)) }));
    await game.load(GAME_ID);
    const { toasts } = useNotify();
    toasts.splice(0);
    s.receive({ type: 'error', code: 'not-found', message: 'no race ABCDEFGHJK' });
    s.receive({ type: 'error', code: 'not-found', message: 'no game x', gameId: 'some-other-game' });
    expect(toasts).toEqual([]);
    s.receive({ type: 'error', code: 'not-found', message: 'no game', gameId: GAME_ID });
    expect(toasts.map((t) => t.text)).toEqual(['That game does not exist (any more).']);
  });
});
