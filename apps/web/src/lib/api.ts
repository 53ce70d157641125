/**
 * REST calls of the game API (same origin), each response parsed with the protocol's zod schemas.
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  HintResponseSchema,
  StateResponseSchema,
  type CreateGameBody,
  type GameResponse,
  type HintResponse,
  type StateResponse,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { z } from 'zod';

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

async function request<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network', 'Cannot reach the server.', 0);
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    /* empty or non-JSON body */
  }
  if (!res.ok) {
    const parsed = ErrorBodySchema.safeParse(json);
    if (parsed.success) {
      const e = parsed.data.error;
      throw new ApiError(e.code, e.message, res.status, e.version, e.reason);
    }
    throw new ApiError('http', `The server answered ${res.status}.`, res.status);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ApiError('bad-response', 'The server sent an unexpected answer.', res.status);
  return parsed.data;
}

export function createGame(body: CreateGameBody): Promise<GameResponse> {
  return request('POST', '/api/games', GameResponseSchema, body);
}

export function getGame(id: string): Promise<GameResponse> {
  return request('GET', `/api/games/${encodeURIComponent(id)}`, GameResponseSchema);
}

export function postMove(id: string, move: Move, version: number): Promise<StateResponse> {
  return request('POST', `/api/games/${encodeURIComponent(id)}/moves`, StateResponseSchema, {
    move,
    version,
  });
}

export function postUndo(id: string, version: number): Promise<StateResponse> {
  return request('POST', `/api/games/${encodeURIComponent(id)}/undo`, StateResponseSchema, { version });
}

export function postResign(id: string, version: number): Promise<StateResponse> {
  return request('POST', `/api/games/${encodeURIComponent(id)}/resign`, StateResponseSchema, { version });
}

/** The solver's next move from the game's current position (403 `forbidden` when the game has hints off). */
export function getHint(id: string): Promise<HintResponse> {
  return request('GET', `/api/games/${encodeURIComponent(id)}/hint`, HintResponseSchema);
}
