/**
 * The web app's REST client: one @klondike/client `KlondikeClient` (every route typed from the server's OpenAPI
 * document; the same client published for API users, so the web app exercises it) and the player token. When a
 * token is set (`setApiToken`, by usePlayer) every call sends it as `Authorization: Bearer <token>`; a token the
 * server does not know (401 `unknown-token`) is reported once to `onTokenRejected` and the call is retried
 * without it. Every answer is checked with the protocol's zod schemas (loaded on first use, schemas.ts) and a
 * refusal becomes an `ApiError` (errors.ts). The calls of one area live beside it (dailyApi.ts, playersApi.ts,
 * raceApi.ts, arenaApi.ts, ratingsApi.ts): pages and components import those or a composable, never this
 * module, which holds the token (a lint rule, .dependency-cruiser.cjs `web-pages-reach-api-through-helpers`).
 */
import type { KlondikeClient } from '@klondike/client';
import type {
  CreateGameBody,
  CurrentGame,
  GameResponse,
  HintResponse,
  SettingsPatch,
  StateResponse,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { z } from 'zod';
import { tr } from '../i18n';
import { loadSchemas, type Protocol } from './schemas';
import { ApiError } from './errors';

export { ApiError } from './errors';

/** Picks the schema that checks an answer from the protocol's schemas (loaded on first use, schemas.ts). */
export type Pick<T> = (p: Protocol) => z.ZodType<T>;

let authToken: string | null = null;
let tokenRejected: ((token: string) => void) | null = null;
/** The client of the current token (made on first use, remade when the token changes). */
let client: KlondikeClient | null = null;

/** The player token sent with every call (null: none). */
export function setApiToken(token: string | null): void {
  authToken = token;
  client = null;
}

/** Called when the server refuses the token (unknown or revoked): the caller forgets it. */
export function onTokenRejected(handler: (token: string) => void): void {
  tokenRejected = handler;
}

/**
 * The page's fetch, looked up at each call (so a stub or a service worker's wrapper is seen) and called as a
 * same-origin request: the path and query, the method, the headers and the body as text.
 */
async function pageFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  return globalThis.fetch(url.origin === location.origin ? `${url.pathname}${url.search}` : request.url, {
    method: request.method,
    headers: Object.fromEntries(request.headers.entries()),
    ...(body ? { body } : {}),
  });
}

/** The client package, loaded with the first call (beside the schemas: the first page draws without it). */
type ClientModule = typeof import('@klondike/client');
let clientModule: Promise<ClientModule> | undefined;
function loadClient(): Promise<ClientModule> {
  clientModule ??= import('@klondike/client').catch((e: unknown) => {
    clientModule = undefined; // offline: the next call tries again
    throw e;
  });
  return clientModule;
}
// Loaded right after the first page, as the schemas are (main.ts): the first call rarely waits for it.
loadClient().catch(() => undefined);

/** The typed client that sends `token` (same origin). */
function clientFor(m: ClientModule, token: string | null): KlondikeClient {
  const options = { baseUrl: location.origin, fetch: pageFetch, ...(token ? { token } : {}) };
  if (token !== authToken) return new m.KlondikeClient(options);
  client ??= new m.KlondikeClient(options);
  return client;
}

/**
 * One REST call through the typed client: `token` sent (and dropped once when the server does not know it),
 * the answer checked with the schema `schema` picks (`bad-response` when it does not parse), a refusal thrown
 * as ApiError with the server's code (`network` when the server cannot be reached, `http` when a refusal has
 * no error body).
 */
export async function callApi<T>(
  call: (client: KlondikeClient) => Promise<unknown>,
  schema: Pick<T>,
  token: string | null = authToken,
): Promise<T> {
  // The schemas load while the call is on its way (the first call of a page loads them).
  const schemas = loadSchemas();
  schemas.catch(() => undefined); // a failed load is reported below, once the answer is in
  let m: ClientModule;
  try {
    m = await loadClient();
  } catch {
    throw new ApiError('network', tr('api.network'), 0);
  }
  let answer: unknown;
  try {
    answer = await call(clientFor(m, token));
  } catch (e) {
    if (!m.isKlondikeError(e)) throw e;
    if (e.code === 'unknown-token' && token) {
      // The server does not know this token (a reset, another server): forget it and go on as a guest.
      tokenRejected?.(token);
      return callApi(call, schema, null);
    }
    if (e.code === 'network') throw new ApiError('network', tr('api.network'), 0);
    if (e.code === 'protocol')
      throw new ApiError('http', tr('api.http', { status: e.status ?? 0 }), e.status ?? 0);
    throw new ApiError(e.code, e.message, e.status ?? 0, e.version, e.reason);
  }
  const parsed = schema(await schemas).safeParse(answer);
  if (!parsed.success) throw new ApiError('bad-response', tr('api.badResponse'), 200);
  return parsed.data;
}

/** openapi-fetch's answer to a call through `client.api` (what `unwrap` of @klondike/client reads). */
export interface RouteAnswer {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response: Response;
}

/**
 * `callApi` for a route the client has no method of: `call` sends it through `client.api` (openapi-fetch,
 * typed from the OpenAPI document) and the answer is unwrapped as the client's methods do (a refusal becomes
 * the server's typed error).
 */
export function callRoute<T>(
  call: (api: KlondikeClient['api']) => Promise<RouteAnswer>,
  schema: Pick<T>,
): Promise<T> {
  return callApi(async (c) => (await loadClient()).unwrap(await call(c.api)), schema);
}

export function createGame(body: CreateGameBody): Promise<GameResponse> {
  return callApi(
    (c) => c.createGame(body),
    (p) => p.GameResponseSchema,
  );
}

export function getGame(id: string): Promise<GameResponse> {
  return callApi(
    (c) => c.getGame(id),
    (p) => p.GameResponseSchema,
  );
}

export function postMove(id: string, move: Move, version: number): Promise<StateResponse> {
  return callApi(
    (c) => c.playMove(id, move, version),
    (p) => p.StateResponseSchema,
  );
}

export function postUndo(id: string, version: number): Promise<StateResponse> {
  return callApi(
    (c) => c.undoMove(id, version),
    (p) => p.StateResponseSchema,
  );
}

export function postResign(id: string, version: number): Promise<StateResponse> {
  return callApi(
    (c) => c.resignGame(id, version),
    (p) => p.StateResponseSchema,
  );
}

/** The solver's next move from the game's current position (403 `forbidden` when the game has hints off). */
export function getHint(id: string): Promise<HintResponse> {
  return callApi(
    (c) => c.getHint(id),
    (p) => p.HintResponseSchema,
  );
}

/**
 * The "still winnable?" badge's answer (the hint's, with the next move when `won`) through its own route,
 * whose allowance is apart from the hints' (the badge asks after every move).
 */
export function getWinnable(id: string): Promise<HintResponse> {
  return callApi(
    (c) => c.getWinnable(id),
    (p) => p.HintResponseSchema,
  );
}

/** A game response as created by the daily routes. */
export type { GameResponse };

// ---------- players ----------

export function createPlayer(name: string): Promise<z.infer<Protocol['PlayerCreatedSchema']>> {
  return callApi(
    (c) => c.createPlayer(name),
    (p) => p.PlayerCreatedSchema,
  );
}

/** The caller, with a given token (to check a token before keeping it) or the current one. */
export function getMe(token?: string): Promise<z.infer<Protocol['MeSchema']>> {
  return callApi(
    (c) => c.getMe(),
    (p) => p.MeSchema,
    token ?? authToken,
  );
}

/**
 * The signed-in player's unfinished game they acted on last, on any device (GET /api/me/games/current), or
 * null when they have none. Throws ApiError (`unauthorized` without a token).
 */
export async function getCurrentGame(): Promise<CurrentGame | null> {
  return (
    await callApi(
      (c) => c.getCurrentGame(),
      (p) => p.CurrentGameResponseSchema,
    )
  ).game;
}

export function renameMe(name: string): Promise<z.infer<Protocol['MeSchema']>> {
  return callApi(
    (c) => c.updateMe({ name }),
    (p) => p.MeSchema,
  );
}

/** Stores a change of the signed-in player's settings (PATCH /api/me; the keys sent replace the stored ones). */
export function patchMySettings(settings: SettingsPatch): Promise<z.infer<Protocol['MeSchema']>> {
  return callApi(
    (c) => c.updateMe({ settings }),
    (p) => p.MeSchema,
  );
}

/** A single-use sign-in code for another device (valid 10 minutes) and its link. */
export function getTransfer(): Promise<z.infer<Protocol['TransferSchema']>> {
  return callApi(
    (c) => c.createTransferCode(),
    (p) => p.TransferSchema,
  );
}

/** Exchanges a sign-in code for a new token of its player (this device). */
export function redeemTransfer(code: string): Promise<z.infer<Protocol['PlayerCreatedSchema']>> {
  return callApi(
    (c) => c.redeemTransferCode(code),
    (p) => p.PlayerCreatedSchema,
  );
}

/** Signs the player out on every device (this one included). */
export function signOutEverywhere(): Promise<z.infer<Protocol['SignedOutSchema']>> {
  return callApi(
    (c) => c.signOutEverywhere(),
    (p) => p.SignedOutSchema,
  );
}

// ---------- replays ----------

/** A game's review (docs/review.md), or `pending` while the server computes it. */
export type GameReviewAnswer =
  z.infer<Protocol['GameReviewSchema']> | z.infer<Protocol['GameReviewPendingSchema']>;

/** GET /api/games/:id/review: the review, or `{status: 'pending', retryAfterMs}` (ask again after that). */
export function getReview(gameId: string): Promise<GameReviewAnswer> {
  return callApi(
    (c) => c.getGameReview(gameId),
    (p) => p.GameReviewSchema.or(p.GameReviewPendingSchema),
  );
}

export function getReplay(gameId: string): Promise<z.infer<Protocol['ReplaySchema']>> {
  return callApi(
    (c) => c.getGameReplay(gameId),
    (p) => p.ReplaySchema,
  );
}
