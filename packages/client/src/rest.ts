/**
 * The REST half of the client: every route of the server typed from its OpenAPI document
 * (`src/generated/openapi.ts`, made by openapi-typescript; see scripts/generate.ts), called through
 * openapi-fetch. Convenience methods cover the game loop and players; `api` reaches every other route with
 * the same types.
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

/** Options of `KlondikeClient`. */
export interface KlondikeClientOptions {
  /** The server, e.g. `http://localhost:3000` (browsers: `''` or `location.origin` for the same origin). */
  readonly baseUrl: string;
  /** A player token (`Authorization: Bearer <token>`); `setToken` changes it later. */
  readonly token?: string;
  /** A fetch implementation (default: the global one; Node 20+ and browsers have it). */
  readonly fetch?: typeof fetch;
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
