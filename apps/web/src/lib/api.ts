/**
 * REST calls of the API (same origin), each response parsed with the protocol's zod schemas. When a player
 * token is set (`setApiToken`, by usePlayer) every call sends it as `Authorization: Bearer <token>`; a token the
 * server does not know (401) is reported once to `onTokenRejected` and the call is retried without it.
 * The game calls go through @klondike/client (the typed client published for API users), so the web app
 * exercises it too. The calls of one area live beside it (dailyApi.ts, playersApi.ts, raceApi.ts, arenaApi.ts,
 * ratingsApi.ts) and the error in errors.ts: pages and components import those or a composable, never this
 * module, which holds the token (a lint rule, .dependency-cruiser.cjs `web-pages-reach-api-through-helpers`).
 */
import { KlondikeClient, isKlondikeError } from '@klondike/client';
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
type Pick<T> = (p: Protocol) => z.ZodType<T>;

let authToken: string | null = null;
let tokenRejected: ((token: string) => void) | null = null;

/** The player token sent with every call (null: none). */
export function setApiToken(token: string | null): void {
  authToken = token;
}

/** Called when the server refuses the token (unknown or revoked): the caller forgets it. */
export function onTokenRejected(handler: (token: string) => void): void {
  tokenRejected = handler;
}

/** The error code of a refusal's body (`{"error":{"code"}}`), read from a clone; null when it has none. */
async function errorCode(res: Response): Promise<string | null> {
  try {
    const { ErrorBodySchema } = await loadSchemas();
    const parsed = ErrorBodySchema.safeParse(await res.clone().json());
    return parsed.success ? parsed.data.error.code : null;
  } catch {
    return null;
  }
}

/** One REST call: sends the token, parses the answer with the schema `schema` picks, throws ApiError on a refusal. */
export async function request<T>(
  method: string,
  path: string,
  schema: Pick<T>,
  body?: unknown,
  token: string | null = authToken,
): Promise<T> {
  let res: Response;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network', tr('api.network'), 0);
  }
  if (res.status === 401 && token && (await errorCode(res)) === 'unknown-token') {
    // The server does not know this token (a reset, another server): forget it and go on as a guest.
    tokenRejected?.(token);
    return request(method, path, schema, body, null);
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    /* empty or non-JSON body */
  }
  const protocol = await loadSchemas();
  if (!res.ok) {
    const parsed = protocol.ErrorBodySchema.safeParse(json);
    if (parsed.success) {
      const e = parsed.data.error;
      throw new ApiError(e.code, e.message, res.status, e.version, e.reason);
    }
    throw new ApiError('http', tr('api.http', { status: res.status }), res.status);
  }
  const parsed = schema(protocol).safeParse(json);
  if (!parsed.success) throw new ApiError('bad-response', tr('api.badResponse'), res.status);
  return parsed.data;
}

/**
 * One game call through @klondike/client, with the same contract as `request`: the token sent (and dropped
 * once when the server does not know it), the answer parsed with `schema`, refusals thrown as ApiError.
 */
async function gameCall<T>(
  call: (client: KlondikeClient) => Promise<unknown>,
  schema: Pick<T>,
  token: string | null = authToken,
): Promise<T> {
  const client = new KlondikeClient({ baseUrl: location.origin, ...(token ? { token } : {}) });
  let answer: unknown;
  try {
    answer = await call(client);
  } catch (e) {
    if (!isKlondikeError(e)) throw e;
    if (e.code === 'unknown-token' && token) {
      tokenRejected?.(token);
      return gameCall(call, schema, null);
    }
    if (e.code === 'network') throw new ApiError('network', tr('api.network'), 0);
    if (e.code === 'protocol')
      throw new ApiError('http', tr('api.http', { status: e.status ?? 0 }), e.status ?? 0);
    throw new ApiError(e.code, e.message, e.status ?? 0, e.version, e.reason);
  }
  const parsed = schema(await loadSchemas()).safeParse(answer);
  if (!parsed.success) throw new ApiError('bad-response', tr('api.badResponse'), 200);
  return parsed.data;
}

export function createGame(body: CreateGameBody): Promise<GameResponse> {
  return gameCall(
    (c) => c.createGame(body),
    (p) => p.GameResponseSchema,
  );
}

export function getGame(id: string): Promise<GameResponse> {
  return gameCall(
    (c) => c.getGame(id),
    (p) => p.GameResponseSchema,
  );
}

export function postMove(id: string, move: Move, version: number): Promise<StateResponse> {
  return gameCall(
    (c) => c.playMove(id, move, version),
    (p) => p.StateResponseSchema,
  );
}

export function postUndo(id: string, version: number): Promise<StateResponse> {
  return gameCall(
    (c) => c.undoMove(id, version),
    (p) => p.StateResponseSchema,
  );
}

export function postResign(id: string, version: number): Promise<StateResponse> {
  return gameCall(
    (c) => c.resignGame(id, version),
    (p) => p.StateResponseSchema,
  );
}

/** The solver's next move from the game's current position (403 `forbidden` when the game has hints off). */
export function getHint(id: string): Promise<HintResponse> {
  return request('GET', `/api/games/${encodeURIComponent(id)}/hint`, (p) => p.HintResponseSchema);
}

/**
 * The "still winnable?" badge's answer (the hint's, with the next move when `won`) through its own route,
 * whose allowance is apart from the hints' (the badge asks after every move).
 */
export function getWinnable(id: string): Promise<HintResponse> {
  return request('GET', `/api/games/${encodeURIComponent(id)}/winnable`, (p) => p.HintResponseSchema);
}

/** A game response as created by the daily routes. */
export type { GameResponse };

// ---------- players ----------

export function createPlayer(name: string): Promise<z.infer<Protocol['PlayerCreatedSchema']>> {
  return request('POST', '/api/players', (p) => p.PlayerCreatedSchema, { name });
}

/** The caller, with a given token (to check a token before keeping it) or the current one. */
export function getMe(token?: string): Promise<z.infer<Protocol['MeSchema']>> {
  return request('GET', '/api/me', (p) => p.MeSchema, undefined, token ?? authToken);
}

/**
 * The signed-in player's unfinished game they acted on last, on any device (GET /api/me/games/current), or
 * null when they have none. Throws ApiError (`unauthorized` without a token).
 */
export async function getCurrentGame(): Promise<CurrentGame | null> {
  return (await request('GET', '/api/me/games/current', (p) => p.CurrentGameResponseSchema)).game;
}

export function renameMe(name: string): Promise<z.infer<Protocol['MeSchema']>> {
  return request('PATCH', '/api/me', (p) => p.MeSchema, { name });
}

/** Stores a change of the signed-in player's settings (PATCH /api/me; the keys sent replace the stored ones). */
export function patchMySettings(settings: SettingsPatch): Promise<z.infer<Protocol['MeSchema']>> {
  return request('PATCH', '/api/me', (p) => p.MeSchema, { settings });
}

/** A single-use sign-in code for another device (valid 10 minutes) and its link. */
export function getTransfer(): Promise<z.infer<Protocol['TransferSchema']>> {
  return request('POST', '/api/me/transfer', (p) => p.TransferSchema);
}

/** Exchanges a sign-in code for a new token of its player (this device). */
export function redeemTransfer(code: string): Promise<z.infer<Protocol['PlayerCreatedSchema']>> {
  return request('POST', '/api/players/transfer', (p) => p.PlayerCreatedSchema, { code });
}

/** Signs the player out on every device (this one included). */
export function signOutEverywhere(): Promise<z.infer<Protocol['SignedOutSchema']>> {
  return request('POST', '/api/me/sign-out-everywhere', (p) => p.SignedOutSchema);
}

// ---------- replays ----------

export function getReplay(gameId: string): Promise<z.infer<Protocol['ReplaySchema']>> {
  return request('GET', `/api/games/${encodeURIComponent(gameId)}/replay`, (p) => p.ReplaySchema);
}
