/**
 * The REST half of the client: every route of the server typed from its OpenAPI document
 * (`src/generated/openapi.ts`, made by openapi-typescript; see scripts/generate.ts), called through
 * openapi-fetch. A method per route the web app uses (games, players, daily, races, pairing, arenas,
 * ratings), named after its operationId; `api` reaches every other route with the same types.
 */
import createClient, { type Client } from 'openapi-fetch';
import { KlondikeError, errorFromBody } from './errors.js';
import type { components, paths } from './generated/openapi.js';

/** Schemas of the OpenAPI document (`Game`, `State`, `Move`, `PlayerView`, …). */
export type Schemas = components['schemas'];
/** `{"id","version","view","preset","dealNumber"}`: a game as its player sees it. */
export type GameResponse = Schemas['Game'];
/** `{"version","view"}` after a move, undo or resignation. */
export type StateResponse = Schemas['State'];
/** What a player may see of a game: face-up cards, counts of the hidden ones, status and score. */
export type View = Schemas['PlayerView'];
/** POST /api/games body. */
export type CreateGameBody = NonNullable<
  NonNullable<paths['/api/games']['post']['requestBody']>['content']['application/json']
>;
/** A move as the REST routes take it: `{"type":"draw"}`, `{"type":"recycle"}`, `{"type":"move","from","to","count"}`. */
export type RestMove =
  paths['/api/games/{id}/moves']['post']['requestBody']['content']['application/json']['move'];
/** POST /api/players answer: the token is shown this once. */
export type PlayerCreated = Schemas['PlayerCreated'];

/** The JSON body of a route's operation. */
type Body<P extends keyof paths, M extends 'post' | 'patch'> = NonNullable<
  NonNullable<paths[P][M]> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never
>;
/** The query parameters of a route's GET. */
type Query<P extends keyof paths> = paths[P]['get'] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;
/** The path parameters of a route's GET. */
type Path<P extends keyof paths> = paths[P]['get'] extends { parameters: { path: infer Q } } ? Q : never;
/** The presets a daily challenge is dealt in. */
type DailyPreset = Path<'/api/daily/{date}/{preset}'>['preset'];

/** Options of `KlondikeClient`. */
export interface KlondikeClientOptions {
  /** The server, e.g. `http://localhost:3000` (browsers: `''` or `location.origin` for the same origin). */
  readonly baseUrl: string;
  /** A player token (`Authorization: Bearer <token>`); `setToken` changes it later. */
  readonly token?: string;
  /**
   * A fetch implementation (default: the global one; Node 20+ and browsers have it). The client calls it with
   * one `Request`, so `fetch` itself or a wrapper taking a Request will do.
   */
  readonly fetch?: (request: Request) => Promise<Response>;
}

/** openapi-fetch's answer shape, reduced to what `unwrap` reads. */
interface FetchResult<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response: Response;
}

/** The data of a successful answer; otherwise throws the answer's `KlondikeError`. */
export function unwrap<T>(r: FetchResult<T>): T {
  if (r.response.ok && r.data !== undefined) return r.data;
  throw errorFromBody(r.response.status, r.error);
}

/**
 * A typed client of the REST API. Every method resolves with the documented answer or rejects with a
 * `KlondikeError` (`stale-version` and `illegal-move` carry the game's current `version`; `illegal-move`
 * also the refusing rule in `reason`). Network failures reject with code `network`.
 */
export class KlondikeClient {
  /** openapi-fetch client of every route (`client.api.GET('/api/daily', {})`), typed from the OpenAPI document. */
  readonly api: Client<paths>;
  /** The server address given. */
  readonly baseUrl: string;
  private token: string | undefined;

  constructor(options: KlondikeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    // Wrap fetch so a refused connection becomes a typed error like every other failure.
    const guarded = async (input: Request): Promise<Response> => {
      try {
        return await baseFetch(input);
      } catch (e) {
        throw new KlondikeError('network', `cannot reach ${this.baseUrl}: ${(e as Error).message}`);
      }
    };
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: guarded });
    this.api.use({
      onRequest: ({ request }) => {
        if (this.token !== undefined) request.headers.set('authorization', `Bearer ${this.token}`);
        return request;
      },
    });
  }

  /** Sends `token` as the player from now on (undefined: anonymous). */
  setToken(token: string | undefined): void {
    this.token = token;
  }

  /** The WebSocket address of the server (`ws(s)://…/api/ws`), for `KlondikeSocket`. */
  socketUrl(): string {
    const origin =
      this.baseUrl === '' && typeof location !== 'undefined'
        ? location.origin
        : this.baseUrl || 'http://localhost';
    return `${origin.replace(/^http/, 'ws')}/api/ws`;
  }

  /** GET /api/health (`getHealth`). */
  async getHealth(): Promise<{ status: 'ok' }> {
    return unwrap(await this.api.GET('/api/health', {}));
  }

  /** GET /api/status (`getStatus`): each part's health and the last incidents (docs/operations.md "Status page"). */
  async getStatus(): Promise<Schemas['ServiceStatus']> {
    return unwrap(await this.api.GET('/api/status', {}));
  }

  /** POST /api/games (`createGame`): a new game (preset, options, deal number or deal). Errors: `bad-request`. */
  async createGame(body: CreateGameBody = {}): Promise<GameResponse> {
    return unwrap(await this.api.POST('/api/games', { body }));
  }

  /** GET /api/games/:id (`getGame`). Errors: `not-found`; `forbidden`/`unauthorized` for another player's open daily. */
  async getGame(id: string): Promise<GameResponse> {
    return unwrap(await this.api.GET('/api/games/{id}', { params: { path: { id } } }));
  }

  /**
   * POST /api/games/:id/moves (`playMove`) with the version the caller last saw (the version rule: the server applies a
   * move only at that version). Errors: `stale-version` (409, `version` = current), `illegal-move` (422,
   * `reason`), `bad-request`, `not-found`, `conflict` (game over).
   */
  async playMove(id: string, move: RestMove, version: number): Promise<StateResponse> {
    return unwrap(
      await this.api.POST('/api/games/{id}/moves', { params: { path: { id } }, body: { move, version } }),
    );
  }

  /** POST /api/games/:id/undo (`undoMove`; with `version`, refused as stale when the game moved on). */
  async undoMove(id: string, version?: number): Promise<StateResponse> {
    return unwrap(
      await this.api.POST('/api/games/{id}/undo', {
        params: { path: { id } },
        body: version === undefined ? {} : { version },
      }),
    );
  }

  /** POST /api/games/:id/resign (`resignGame`; with `version`, refused as stale when the game moved on). */
  async resignGame(id: string, version?: number): Promise<StateResponse> {
    return unwrap(
      await this.api.POST('/api/games/{id}/resign', {
        params: { path: { id } },
        body: version === undefined ? {} : { version },
      }),
    );
  }

  /** GET /api/games/:id/legal-moves (`listLegalMoves`): every legal move at the current version. */
  async listLegalMoves(id: string): Promise<{ version: number; moves: RestMove[] }> {
    return unwrap(await this.api.GET('/api/games/{id}/legal-moves', { params: { path: { id } } }));
  }

  /**
   * POST /api/players (`createPlayer`): a new player, or a bot account with `bot: true`. The answer holds the token (shown
   * once); pass it to `setToken`. Errors: `conflict` (name taken), `bad-request`, `rate-limited`.
   */
  async createPlayer(name: string, options: { bot?: boolean } = {}): Promise<PlayerCreated> {
    return unwrap(
      await this.api.POST('/api/players', {
        body: options.bot === undefined ? { name } : { name, bot: options.bot },
      }),
    );
  }

  /** GET /api/me (`getMe`): the caller (needs a token). Errors: `unauthorized` (no token), `unknown-token`. */
  async getMe(): Promise<Schemas['Me']> {
    return unwrap(await this.api.GET('/api/me', {}));
  }

  /**
   * GET /api/me/games/current (`getCurrentGame`): the caller's unfinished game they acted on last (`game: null` when none), to
   * resume on this device: its moves then go through `playMove` with this client's token like any other of the
   * player's games. Errors: `unauthorized` (no token), `unknown-token`.
   */
  async getCurrentGame(): Promise<Schemas['CurrentGame']> {
    return unwrap(await this.api.GET('/api/me/games/current', {}));
  }

  /** PATCH /api/me (`updateMe`): renames the caller and/or replaces the settings sent. Errors: `conflict` (name taken). */
  async updateMe(body: Body<'/api/me', 'patch'>) {
    return unwrap(await this.api.PATCH('/api/me', { body }));
  }

  /** POST /api/me/transfer (`createTransferCode`): a single-use sign-in code for another device (10 minutes). */
  async createTransferCode() {
    return unwrap(await this.api.POST('/api/me/transfer', {}));
  }

  /** POST /api/players/transfer (`redeemTransferCode`): a new token of the code's player. Errors: `not-found`. */
  async redeemTransferCode(code: string): Promise<PlayerCreated> {
    return unwrap(await this.api.POST('/api/players/transfer', { body: { code } }));
  }

  /** POST /api/me/sign-out-everywhere (`signOutEverywhere`): revokes every token of the caller. */
  async signOutEverywhere() {
    return unwrap(await this.api.POST('/api/me/sign-out-everywhere', {}));
  }

  // ---------- games: solver, replay ----------

  /** GET /api/games/:id/hint (`getHint`): the solver's next move. Errors: `forbidden` (hints off), `solver-busy`. */
  async getHint(id: string) {
    return unwrap(await this.api.GET('/api/games/{id}/hint', { params: { path: { id } } }));
  }

  /** GET /api/games/:id/winnable (`getWinnable`): the "still winnable?" answer (its own allowance). */
  async getWinnable(id: string) {
    return unwrap(await this.api.GET('/api/games/{id}/winnable', { params: { path: { id } } }));
  }

  /** GET /api/games/:id/replay (`getGameReplay`): a finished game's deal and steps. Errors: `not-found`, `conflict`. */
  async getGameReplay(id: string) {
    return unwrap(await this.api.GET('/api/games/{id}/replay', { params: { path: { id } } }));
  }

  /**
   * GET /api/games/:id/review (`getGameReview`): a finished game's review (docs/review.md), or
   * `{"status":"pending","retryAfterMs"}` while it is computed (ask again after that long). Errors:
   * `forbidden` (the deal may not be shown yet), `not-found`, `solver-busy`.
   */
  async getGameReview(id: string) {
    return unwrap(await this.api.GET('/api/games/{id}/review', { params: { path: { id } } }));
  }

  // ---------- players' public pages ----------

  /** GET /api/players/:id (`getPlayer`): a player's public page. Errors: `not-found`. */
  async getPlayer(id: string) {
    return unwrap(await this.api.GET('/api/players/{id}', { params: { path: { id } } }));
  }

  /** GET /api/players/:id/ratings (`getPlayerRatings`): ratings with one history point per rating period. */
  async getPlayerRatings(id: string) {
    return unwrap(await this.api.GET('/api/players/{id}/ratings', { params: { path: { id } } }));
  }

  /** GET /api/players/:id/stats (`getPlayerStatistics`): a player's statistics. */
  async getPlayerStatistics(id: string) {
    return unwrap(await this.api.GET('/api/players/{id}/stats', { params: { path: { id } } }));
  }

  /** GET /api/players/:id/games (`listPlayerGames`): a page of the player's finished games (its own token only). */
  async listPlayerGames(id: string, query: Query<'/api/players/{id}/games'> = {}) {
    return unwrap(await this.api.GET('/api/players/{id}/games', { params: { path: { id }, query } }));
  }

  /** GET /api/leaderboard (`getAllTimeLeaderboard`): the all-time board of people or of bot accounts. */
  async getAllTimeLeaderboard(query: Query<'/api/leaderboard'> = {}) {
    return unwrap(await this.api.GET('/api/leaderboard', { params: { query } }));
  }

  /** GET /api/ratings/:pool (`getRatingLeaderboard`): a page of a rating leaderboard, best first. */
  async getRatingLeaderboard(
    pool: Path<'/api/ratings/{pool}'>['pool'],
    query: Query<'/api/ratings/{pool}'> = {},
  ) {
    return unwrap(await this.api.GET('/api/ratings/{pool}', { params: { path: { pool }, query } }));
  }

  // ---------- daily challenge ----------

  /** GET /api/daily (`getDailyChallenges`): today's challenges. */
  async getDailyChallenges() {
    return unwrap(await this.api.GET('/api/daily', {}));
  }

  /** GET /api/daily/archive (`getDailyArchive`): the past days. */
  async getDailyArchive() {
    return unwrap(await this.api.GET('/api/daily/archive', {}));
  }

  /** GET /api/daily/:date/:preset (`getDailyReveal`): a closed day's deal and solution. Errors: `conflict` (still open). */
  async getDailyReveal(date: string, preset: DailyPreset) {
    return unwrap(await this.api.GET('/api/daily/{date}/{preset}', { params: { path: { date, preset } } }));
  }

  /** POST /api/daily/:date/:preset/attempt (`startDailyAttempt`): the caller's one ranked attempt. Errors: `conflict`. */
  async startDailyAttempt(date: string, preset: DailyPreset): Promise<GameResponse> {
    return unwrap(
      await this.api.POST('/api/daily/{date}/{preset}/attempt', { params: { path: { date, preset } } }),
    );
  }

  /** POST /api/daily/:date/:preset/practice (`startDailyPractice`): an unranked game of the day's deal. */
  async startDailyPractice(date: string, preset: DailyPreset): Promise<GameResponse> {
    return unwrap(
      await this.api.POST('/api/daily/{date}/{preset}/practice', { params: { path: { date, preset } } }),
    );
  }

  /** GET /api/daily/:date/:preset/leaderboard (`getDailyLeaderboard`): a page, or the page around the caller. */
  async getDailyLeaderboard(
    date: string,
    preset: DailyPreset,
    query: Query<'/api/daily/{date}/{preset}/leaderboard'> = {},
  ) {
    return unwrap(
      await this.api.GET('/api/daily/{date}/{preset}/leaderboard', {
        params: { path: { date, preset }, query },
      }),
    );
  }

  // ---------- races and pairing ----------

  /** POST /api/races (`createRace`): a room, the caller its host. */
  async createRace(body: Body<'/api/races', 'post'>) {
    return unwrap(await this.api.POST('/api/races', { body }));
  }

  /** GET /api/races/:code (`getRace`): a room as the caller sees it. Errors: `not-found`. */
  async getRace(code: string) {
    return unwrap(await this.api.GET('/api/races/{code}', { params: { path: { code } } }));
  }

  /** POST /api/races/:code/join (`joinRace`): takes a seat. Errors: `conflict` (full or started). */
  async joinRace(code: string) {
    return unwrap(await this.api.POST('/api/races/{code}/join', { params: { path: { code } } }));
  }

  /** POST /api/races/:code/ready (`setRaceReady`). */
  async setRaceReady(code: string, ready: boolean) {
    return unwrap(
      await this.api.POST('/api/races/{code}/ready', { params: { path: { code } }, body: { ready } }),
    );
  }

  /** POST /api/races/:code/start (`startRace`): starts the countdown (the host). */
  async startRace(code: string) {
    return unwrap(await this.api.POST('/api/races/{code}/start', { params: { path: { code } } }));
  }

  /** GET /api/races/:code/results (`getRaceResults`): placements, stats and games of a finished race. */
  async getRaceResults(code: string) {
    return unwrap(await this.api.GET('/api/races/{code}/results', { params: { path: { code } } }));
  }

  /** POST /api/races/:code/rematch (`rematchRace`): the rematch room (made by the first who asks). */
  async rematchRace(code: string) {
    return unwrap(await this.api.POST('/api/races/{code}/rematch', { params: { path: { code } } }));
  }

  /** GET /api/pairing (`getPairing`): where the caller stands in the quick-pairing pools. */
  async getPairing() {
    return unwrap(await this.api.GET('/api/pairing', {}));
  }

  /** POST /api/pairing (`enterPairing`): enters a preset's pool (`waiting`, or `paired` with the race code). */
  async enterPairing(preset: Body<'/api/pairing', 'post'>['preset']) {
    return unwrap(await this.api.POST('/api/pairing', { body: { preset } }));
  }

  /** DELETE /api/pairing (`leavePairing`): leaves the pool. Errors: `conflict` (the race is being made). */
  async leavePairing() {
    return unwrap(await this.api.DELETE('/api/pairing', {}));
  }

  // ---------- arenas ----------

  /** GET /api/arenas (`listArenas`): upcoming, running and recently finished arenas. */
  async listArenas() {
    return unwrap(await this.api.GET('/api/arenas', {}));
  }

  /** POST /api/arenas (`createArena`): makes an arena (a token is needed). */
  async createArena(body: Body<'/api/arenas', 'post'>) {
    return unwrap(await this.api.POST('/api/arenas', { body }));
  }

  /** GET /api/arenas/:id (`getArena`). Errors: `not-found`. */
  async getArena(id: string) {
    return unwrap(await this.api.GET('/api/arenas/{id}', { params: { path: { id } } }));
  }

  /** POST /api/arenas/:id/join (`joinArena`): joins, or comes back from a pause (a private one needs its code). */
  async joinArena(id: string, inviteCode?: string) {
    return unwrap(
      await this.api.POST('/api/arenas/{id}/join', {
        params: { path: { id } },
        body: inviteCode === undefined ? {} : { inviteCode },
      }),
    );
  }

  /** POST /api/arenas/:id/leave (`leaveArena`): pauses (no new pairings). */
  async leaveArena(id: string) {
    return unwrap(await this.api.POST('/api/arenas/{id}/leave', { params: { path: { id } } }));
  }

  /** POST /api/arenas/:id/berserk (`berserkArena`): berserk in the caller's arena race, before its countdown ends. */
  async berserkArena(id: string) {
    return unwrap(await this.api.POST('/api/arenas/{id}/berserk', { params: { path: { id } } }));
  }

  // Names of 0.1, before the methods took the OpenAPI document's operationIds; kept until 1.0.

  /** @deprecated Use `getHealth` (operationId `getHealth`). */
  health(): Promise<{ status: 'ok' }> {
    return this.getHealth();
  }

  /** @deprecated Use `playMove` (operationId `playMove`). */
  move(id: string, move: RestMove, version: number): Promise<StateResponse> {
    return this.playMove(id, move, version);
  }

  /** @deprecated Use `undoMove` (operationId `undoMove`). */
  undo(id: string, version?: number): Promise<StateResponse> {
    return this.undoMove(id, version);
  }

  /** @deprecated Use `resignGame` (operationId `resignGame`). */
  resign(id: string, version?: number): Promise<StateResponse> {
    return this.resignGame(id, version);
  }

  /** @deprecated Use `listLegalMoves` (operationId `listLegalMoves`). */
  legalMoves(id: string): Promise<{ version: number; moves: RestMove[] }> {
    return this.listLegalMoves(id);
  }

  /** @deprecated Use `getMe` (operationId `getMe`). */
  me(): Promise<Schemas['Me']> {
    return this.getMe();
  }

  /** @deprecated Use `getCurrentGame` (operationId `getCurrentGame`). */
  currentGame(): Promise<Schemas['CurrentGame']> {
    return this.getCurrentGame();
  }
}
