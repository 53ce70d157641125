/**
 * openRankedAttempt (composables/useRankedAttempt.ts) against a fake socket and fake REST calls: the attempt
 * over the socket (`daily-opened`, an `error` frame), and REST when the socket cannot be used or its answer is
 * lost (with the player's own game found after a 409 then).
 */
import { GameResponseSchema, type GameResponse } from '@klondike/protocol';
import { dealFromNumber, newGame, playerView, resolveOptions } from '@klondike/rules';
import { fakeSocket } from './fixtures';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openRankedAttempt, type RankedAttemptDeps } from '../src/composables/useRankedAttempt';
import type { SocketStatus } from '../src/composables/useSocket';
import { ApiError } from '../src/lib/errors';
import { loadSchemas } from '../src/lib/schemas';

const DATE = '2026-12-06';

/** A ranked game as the server answers it. */
function game(id: string): GameResponse {
  const deal = dealFromNumber(7);
  if (!deal.ok) throw new Error('deal');
  const view = playerView(newGame(deal.value, resolveOptions('classic-draw1')), 0);
  return GameResponseSchema.parse(
    JSON.parse(
      JSON.stringify({
        id,
        version: 0,
        view,
        preset: 'classic-draw1',
        dealNumber: null,
        kind: 'daily-ranked',
        daily: { date: DATE, preset: 'classic-draw1' },
        race: null,
      }),
    ),
  );
}

/** A socket whose sent frames the test reads and whose answers it gives; REST calls that are recorded. */
function setup(opts: { status?: SocketStatus; authed?: boolean; rest?: () => Promise<GameResponse> } = {}) {
  const { socket, status, sent, frameHandlers: handlers, receive } = fakeSocket(opts.status ?? 'open');
  const rest = vi.fn(opts.rest ?? (() => Promise.resolve(game('g-rest'))));
  const findOwn = vi.fn((): Promise<string | null> => Promise.resolve(null));
  const deps: RankedAttemptDeps = {
    socket,
    authed: () => opts.authed ?? true,
    startOverRest: rest,
    findOwn,
    answerMs: 3000,
  };
  /** The requestId of the `daily-attempt` sent. */
  const requestId = (): string => {
    const f = sent[0];
    if (f?.type !== 'daily-attempt' || f.requestId === undefined) throw new Error('no daily-attempt sent');
    return f.requestId;
  };
  return { status, sent, handlers, rest, findOwn, deps, requestId, receive };
}

const conflict = () => new ApiError('conflict', 'already played', 409);

beforeAll(async () => {
  await loadSchemas(); // as in the app, where frames are parsed with them (the error's HTTP status)
});
afterEach(() => {
  vi.useRealTimers();
});

describe('openRankedAttempt', () => {
  it('opens over the socket: sends daily-attempt and takes the daily-opened answering its requestId', async () => {
    const s = setup();
    const opened = openRankedAttempt(DATE, 'classic-draw1', s.deps);
    expect(s.sent).toEqual([
      { type: 'daily-attempt', date: DATE, preset: 'classic-draw1', requestId: s.requestId() },
    ]);
    s.receive({ type: 'daily-opened', game: game('g-other'), requestId: 'someone-else' });
    s.receive({ type: 'daily-opened', game: game('g-socket'), requestId: s.requestId() });
    await expect(opened).resolves.toBe('g-socket');
    expect(s.rest).not.toHaveBeenCalled();
    expect(s.handlers.size).toBe(0);
  });

  it('rejects with the ApiError of an error frame answering it (no REST call)', async () => {
    const s = setup();
    const opened = openRankedAttempt(DATE, 'classic-draw3', s.deps);
    s.receive({ type: 'error', code: 'conflict', message: 'already played', requestId: s.requestId() });
    const e: unknown = await opened.catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 'conflict', message: 'already played', status: 409 });
    expect(s.rest).not.toHaveBeenCalled();
  });

  it('goes over REST without a frame when the socket is not open or not the player’s', async () => {
    for (const s of [setup({ status: 'closed' }), setup({ authed: false })]) {
      await expect(openRankedAttempt(DATE, 'classic-draw1', s.deps)).resolves.toBe('g-rest');
      expect(s.sent).toEqual([]);
      expect(s.rest).toHaveBeenCalledWith(DATE, 'classic-draw1');
    }
  });

  it('goes over REST when no answer comes in time, and ignores a late answer', async () => {
    vi.useFakeTimers();
    const s = setup();
    const opened = openRankedAttempt(DATE, 'classic-draw1', s.deps);
    await vi.advanceTimersByTimeAsync(2999);
    expect(s.rest).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(s.rest).toHaveBeenCalledWith(DATE, 'classic-draw1');
    s.receive({ type: 'daily-opened', game: game('g-late'), requestId: s.requestId() });
    await expect(opened).resolves.toBe('g-rest');
  });

  it('goes over REST when the socket answers unauthorized', async () => {
    const s = setup();
    const opened = openRankedAttempt(DATE, 'classic-draw1', s.deps);
    s.receive({ type: 'error', code: 'unauthorized', message: 'auth first', requestId: s.requestId() });
    await expect(opened).resolves.toBe('g-rest');
  });

  it('after the socket closed, a REST 409 leads to the player’s own game the lost frame opened', async () => {
    const s = setup({ rest: () => Promise.reject(conflict()) });
    s.findOwn.mockResolvedValue('g-lost-frame');
    vi.useFakeTimers(); // no answer timeout here: the close alone leads to REST
    const opened = openRankedAttempt(DATE, 'classic-draw3', s.deps);
    s.status.value = 'closed';
    await vi.advanceTimersByTimeAsync(0);
    expect(s.rest).toHaveBeenCalled();
    await expect(opened).resolves.toBe('g-lost-frame');
    expect(s.rest).toHaveBeenCalledWith(DATE, 'classic-draw3');
    expect(s.findOwn).toHaveBeenCalledWith(DATE, 'classic-draw3');
  });

  it('keeps the REST conflict when the player has no game of that daily being played', async () => {
    const s = setup({ rest: () => Promise.reject(conflict()) });
    vi.useFakeTimers();
    // The rejection is caught at once: it may come while the timers advance, before any later handler.
    const settled = openRankedAttempt(DATE, 'classic-draw1', s.deps).catch((e: unknown) => e);
    s.status.value = 'closed';
    await vi.advanceTimersByTimeAsync(0);
    expect(s.rest).toHaveBeenCalled();
    expect(await settled).toMatchObject({ code: 'conflict' });
    expect(s.findOwn).toHaveBeenCalled();
  });
});
