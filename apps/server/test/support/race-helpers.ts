/**
 * Helpers of the race tests: players, authenticated calls, race sockets, frame predicates and the card
 * audit of race frames.
 */
import {
  ErrorBodySchema,
  PlayerCreatedSchema,
  RaceSchema,
  type Race,
  type ServerFrame,
} from '@klondike/protocol';
import { applyMove, legalMoves } from '@klondike/rules';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { newPlayer as newNamedPlayer, WsClient, wsUrl } from './helpers.js';

/** A created player: id, name and token. */
export type TestPlayer = ReturnType<typeof PlayerCreatedSchema.parse>;
/** A `race` frame. */
export type RaceFrame = Extract<ServerFrame, { type: 'race' }>;
/** A `race-progress` frame. */
export type ProgressFrame = Extract<ServerFrame, { type: 'race-progress' }>;
/** A `state` frame. */
export type StateFrame = Extract<ServerFrame, { type: 'state' }>;

/** Whether a frame is a `race` frame (optionally: matching `pred`). */
export const isRace =
  (pred: (r: Race) => boolean = () => true) =>
  (f: ServerFrame): f is RaceFrame =>
    f.type === 'race' && pred(f.race);
/** Whether a frame is a `race-progress` frame. */
export const isProgress = (f: ServerFrame): f is ProgressFrame => f.type === 'race-progress';
/** Whether a frame is an `error` frame. */
export const isError = (f: ServerFrame): boolean => f.type === 'error';

/** Any quoted card code, as JSON writes one. */
export const CARD_IN_JSON = /"(?:[A2-9TJQK][CDHS])"/;

let counter = 0;

/** Creates a player with a unique name starting `prefix` (helpers.ts `newPlayer` takes the exact name). */
export async function newPlayer(app: FastifyInstance, prefix = 'racer'): Promise<TestPlayer> {
  return newNamedPlayer(app, `${prefix}${++counter}${Math.floor(Math.random() * 1000)}`.slice(0, 20));
}

/** An HTTP call, with the player's token when given. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  opts: { as?: TestPlayer; payload?: object } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    ...(opts.as ? { headers: { authorization: `Bearer ${opts.as.token}` } } : {}),
    ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  });
}

/** Expects an error response with this status and code. */
export function expectError(r: LightMyRequestResponse, status: number, code: string): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(ErrorBodySchema.parse(r.json()).error.code).toBe(code);
}

/** Parses a RaceSchema response, expecting `status`. */
export function raceOf(r: LightMyRequestResponse, status = 200): Race {
  expect(r.statusCode, r.body).toBe(status);
  return RaceSchema.parse(r.json());
}

/** Opens a socket (authenticated as `as` when given) subscribed to race `code`; waits for its first `race` frame. */
export async function raceSocket(
  app: FastifyInstance,
  code: string,
  as?: TestPlayer,
  track?: WsClient[],
): Promise<WsClient> {
  const c = await WsClient.connect(wsUrl(app));
  track?.push(c);
  if (as) await c.request({ type: 'auth', token: as.token }, (f) => f.type === 'authed');
  await c.request(
    { type: 'race-subscribe', code },
    isRace((r) => r.code === code),
  );
  return c;
}

/** Subscribes a socket to a game and returns the state frame. */
export async function subscribeGame(c: WsClient, gameId: string): Promise<StateFrame> {
  const f = await c.request(
    { type: 'subscribe', gameId },
    (x) => (x.type === 'state' && x.gameId === gameId) || x.type === 'error',
  );
  if (f.type !== 'state') throw new Error(`subscribe failed: ${JSON.stringify(f)}`);
  return f;
}

/**
 * Plays `p`'s fresh game `gameId` (version 0, held in this server's memory) over REST until its score rises:
 * the first legal move that scores, else a draw or a recycle of the stock. Returns the game's version after it.
 */
export async function scorePoints(app: FastifyInstance, p: TestPlayer, gameId: string): Promise<number> {
  let version = 0;
  for (let i = 0; i < 200; i++) {
    const state = app.rooms.peekState(gameId);
    if (state === undefined) throw new Error(`game ${gameId} is not in memory`);
    const moves = legalMoves(state);
    const scoring = moves.find((m) => {
      const next = applyMove(state, m);
      return next.ok && next.value.score > state.score;
    });
    const move = scoring ?? moves.find((m) => m.type === 'draw' || m.type === 'recycle');
    if (move === undefined) throw new Error('no move left');
    const r = await call(app, 'POST', `/api/games/${gameId}/moves`, { as: p, payload: { move, version } });
    expect(r.statusCode, r.body).toBe(200);
    version = r.json<{ version: number }>().version;
    if (scoring !== undefined) return version;
  }
  throw new Error('no scoring move in 200 moves');
}
