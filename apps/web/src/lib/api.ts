/**
 * REST calls of the API (same origin), each response parsed with the protocol's zod schemas. When a player
 * token is set (`setApiToken`, by usePlayer) every call sends it as `Authorization: Bearer <token>`; a token the
 * server does not know (401) is reported once to `onTokenRejected` and the call is retried without it.
 * The game calls go through @klondike/client (the typed client published for API users), so the web app
 * exercises it too.
 */
import { KlondikeClient, isKlondikeError } from '@klondike/client';
import type {
  CreateGameBody,
  CurrentGame,
  GameResponse,
  HintResponse,
  HistoryQuery,
  SettingsPatch,
  StateResponse,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { z } from 'zod';
import type { DailyPreset } from './route';
import { tr } from '../i18n';
import { loadSchemas, type Protocol } from './schemas';

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

/** A refused request: the server's typed error, or a network/parse failure (`code` 'network'). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly version?: number,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
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

export function getPlayerPage(id: string): Promise<z.infer<Protocol['PlayerPageSchema']>> {
  return request('GET', `/api/players/${encodeURIComponent(id)}`, (p) => p.PlayerPageSchema);
}

/** GET /api/players/:id/ratings: a player's ratings with one history point per rating period (public). */
export function getPlayerRatings(id: string): Promise<z.infer<Protocol['PlayerRatingHistorySchema']>> {
  return request('GET', `/api/players/${encodeURIComponent(id)}/ratings`, (p) => p.PlayerRatingHistorySchema);
}

/** GET /api/players/:id/stats: a player's statistics (public). */
export function getPlayerStats(id: string): Promise<z.infer<Protocol['PlayerStatisticsSchema']>> {
  return request('GET', `/api/players/${encodeURIComponent(id)}/stats`, (p) => p.PlayerStatisticsSchema);
}

/** GET /api/players/:id/games: a page of the player's own finished games (its token only), newest first. */
export function getPlayerHistory(
  id: string,
  query: Partial<HistoryQuery>,
): Promise<z.infer<Protocol['HistoryPageSchema']>> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const text = q.toString();
  return request(
    'GET',
    `/api/players/${encodeURIComponent(id)}/games${text ? `?${text}` : ''}`,
    (p) => p.HistoryPageSchema,
  );
}

// ---------- daily ----------

export function getDailyToday(): Promise<z.infer<Protocol['DailyTodaySchema']>> {
  return request('GET', '/api/daily', (p) => p.DailyTodaySchema);
}

export function getDailyArchive(): Promise<z.infer<Protocol['DailyArchiveSchema']>> {
  return request('GET', '/api/daily/archive', (p) => p.DailyArchiveSchema);
}

export function getDailyReveal(
  date: string,
  preset: DailyPreset,
): Promise<z.infer<Protocol['DailyRevealSchema']>> {
  return request('GET', `/api/daily/${date}/${preset}`, (p) => p.DailyRevealSchema);
}

/** Starts the caller's one ranked attempt (409 `conflict` the second time). */
export function startRankedAttempt(date: string, preset: DailyPreset): Promise<GameResponse> {
  return request('POST', `/api/daily/${date}/${preset}/attempt`, (p) => p.GameResponseSchema, {});
}

/** An unranked practice game of a daily's deal. */
export function startPractice(date: string, preset: DailyPreset): Promise<GameResponse> {
  return request('POST', `/api/daily/${date}/${preset}/practice`, (p) => p.GameResponseSchema, {});
}

/** A page of a daily leaderboard: `{offset, limit}` or the page around the caller. */
export function getDailyLeaderboard(
  date: string,
  preset: DailyPreset,
  page: { offset?: number; limit?: number; aroundMe?: boolean },
): Promise<z.infer<Protocol['LeaderboardSchema']>> {
  const q = new URLSearchParams();
  if (page.offset !== undefined) q.set('offset', String(page.offset));
  if (page.limit !== undefined) q.set('limit', String(page.limit));
  if (page.aroundMe) q.set('around', 'me');
  return request(
    'GET',
    `/api/daily/${date}/${preset}/leaderboard?${q.toString()}`,
    (p) => p.LeaderboardSchema,
  );
}

/** The all-time leaderboard of people (default) or of bot accounts (never mixed). */
export function getAllTimeLeaderboard(
  board: 'humans' | 'bots' = 'humans',
): Promise<z.infer<Protocol['AllTimeLeaderboardSchema']>> {
  return request('GET', `/api/leaderboard?board=${board}`, (p) => p.AllTimeLeaderboardSchema);
}

// ---------- replays ----------

export function getReplay(gameId: string): Promise<z.infer<Protocol['ReplaySchema']>> {
  return request('GET', `/api/games/${encodeURIComponent(gameId)}/replay`, (p) => p.ReplaySchema);
}
