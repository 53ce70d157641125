/**
 * Opening the player's one ranked attempt at a daily: over the app's socket when it can (the `daily-attempt`
 * frame, answered `daily-opened {game}` or an `error` frame; no HTTP request, which matters at midnight when
 * every player opens at once), else over REST (POST /api/daily/:date/:preset/attempt).
 *
 * The socket is used when it is open and speaks as the player: the player's token is set. usePlayer hands
 * every token to the socket (`setAuth`), which sends it as the `auth` frame at once and first on every
 * (re)connection, and the server handles a connection's frames in order, so the attempt that follows is the
 * player's (an `unauthorized` answer all the same, say a token the server refused, falls back to REST).
 */
import type { GameResponse, ServerFrame } from '@klondike/protocol';
import { watch } from 'vue';
import { getDailyToday, startRankedAttempt } from '../lib/dailyApi';
import { ApiError } from '../lib/errors';
import type { DailyPreset } from '../lib/route';
import { loadedSchemas } from '../lib/schemas';
import { usePlayer } from './usePlayer';
import { type Socket, useSocket } from './useSocket';

/** How long the socket's answer may take before the opening goes over REST, ms. */
export const SOCKET_ANSWER_MS = 5000;

/** What opening an attempt needs: the socket, whether it speaks as the player, and the REST calls. */
export interface RankedAttemptDeps {
  readonly socket: Pick<Socket, 'status' | 'send' | 'onFrame'>;
  /** True when the socket's connection is the player's (their token is set on it). */
  readonly authed: () => boolean;
  /** POST /api/daily/:date/:preset/attempt: the game, or ApiError (`conflict` the second time). */
  readonly startOverRest: (date: string, preset: DailyPreset) => Promise<GameResponse>;
  /** The id of the player's own ranked game of that daily while it is being played, else null (REST). */
  readonly findOwn: (date: string, preset: DailyPreset) => Promise<string | null>;
  /** See SOCKET_ANSWER_MS. */
  readonly answerMs?: number;
}

let lastRequest = 0;

/**
 * Sends `daily-attempt` and waits for the frame answering it (same `requestId`): the game of `daily-opened`;
 * an `error` frame rejects with ApiError (its code and message, the REST status of the code); null when the
 * frame could not be sent, the socket left `open`, or nothing came within `answerMs` (the attempt may or may
 * not have been opened then).
 */
function askSocket(
  socket: RankedAttemptDeps['socket'],
  date: string,
  preset: DailyPreset,
  answerMs: number,
): Promise<GameResponse | null> {
  const requestId = `daily-attempt-${++lastRequest}`;
  return new Promise((resolve, reject) => {
    const done = (): void => {
      offFrame();
      stopStatus();
      clearTimeout(timer);
    };
    const offFrame = socket.onFrame((f: ServerFrame) => {
      if (f.type === 'daily-opened' && f.requestId === requestId) {
        done();
        resolve(f.game);
      } else if (f.type === 'error' && f.requestId === requestId) {
        done();
        const status = loadedSchemas()?.API_ERROR_STATUS[f.code] ?? 0;
        reject(new ApiError(f.code, f.message, status, f.version, f.reason));
      }
    });
    const stopStatus = watch(
      socket.status,
      (s) => {
        if (s === 'open') return;
        done();
        resolve(null);
      },
      { flush: 'sync' },
    );
    const timer = setTimeout(() => {
      done();
      resolve(null);
    }, answerMs);
    if (!socket.send({ type: 'daily-attempt', date, preset, requestId })) {
      done();
      resolve(null);
    }
  });
}

/**
 * Opens the player's ranked attempt at the daily `date`/`preset` and resolves with its game's id. Over the
 * socket when it is open and the player's (see the module comment), else over REST; when the socket's answer
 * is lost (no answer within `answerMs`, the socket closed, or `unauthorized`) it goes over REST too, and a 409
 * `conflict` there then most likely means the lost frame opened the attempt: the player's own game of that
 * daily, while being played, is the answer (the conflict stands when there is none). Rejects with ApiError as
 * the REST route does: `conflict` (a second attempt, a closed day), `not-found`, `unauthorized`,
 * `missing-scope`, `rate-limited`, `overloaded`, `network`...
 */
export async function openRankedAttempt(
  date: string,
  preset: DailyPreset,
  deps: RankedAttemptDeps,
): Promise<string> {
  if (deps.socket.status.value !== 'open' || !deps.authed())
    return (await deps.startOverRest(date, preset)).id;
  let game: GameResponse | null;
  try {
    game = await askSocket(deps.socket, date, preset, deps.answerMs ?? SOCKET_ANSWER_MS);
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 'unauthorized')) throw e;
    return (await deps.startOverRest(date, preset)).id;
  }
  if (game) return game.id;
  try {
    return (await deps.startOverRest(date, preset)).id;
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 'conflict')) throw e;
    const own = await deps.findOwn(date, preset).catch(() => null);
    if (own === null) throw e;
    return own;
  }
}

/** The player's ranked game of today's `date`/`preset` while being played (GET /api/daily/today), else null. */
async function findOwnRanked(date: string, preset: DailyPreset): Promise<string | null> {
  const today = await getDailyToday();
  const you = today.challenges.find((c) => c.date === date && c.preset === preset)?.you;
  return you?.status === 'playing' ? you.gameId : null;
}

/** `open(date, preset)`: openRankedAttempt on the app's socket, the player's token and the REST helpers. */
export function useRankedAttempt(): { open: (date: string, preset: DailyPreset) => Promise<string> } {
  const socket = useSocket();
  const { token } = usePlayer();
  const deps: RankedAttemptDeps = {
    socket,
    authed: () => token.value !== null,
    startOverRest: startRankedAttempt,
    findOwn: findOwnRanked,
  };
  return { open: (date, preset) => openRankedAttempt(date, preset, deps) };
}
