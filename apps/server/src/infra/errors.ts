/**
 * Typed API errors. Every refusal becomes `{"error":{"code","message",...}}` (protocol's ErrorBodySchema)
 * with the HTTP status of protocol's API_ERROR_STATUS, or a WebSocket error frame with the same fields.
 */
import { API_ERROR_STATUS, type ApiErrorCode, type ErrorBody } from '@klondike/protocol';
import type { MoveErrorCode } from '@klondike/rules';
import { isDatabaseUnavailable } from './db/availability.js';

/** Extra fields of an error: the current game version (409, 422) and the rule that refused a move (422). */
export interface ApiErrorDetails {
  /** Current version of the game (stale-version, illegal-move). */
  readonly version?: number;
  /** The rules package's MoveError code (illegal-move). */
  readonly reason?: MoveErrorCode;
}

/** An error the API reports to its caller; `status` follows API_ERROR_STATUS. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status for this code. */
  readonly status: number;

  /** `code` picks the HTTP status; `message` is shown to the caller. */
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
    this.status = API_ERROR_STATUS[code];
  }

  /** The response body. */
  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}

/** Builds an error body `{"error":{code,message,version?,reason?}}`. */
export function errorBody(code: ApiErrorCode, message: string, details: ApiErrorDetails = {}): ErrorBody {
  return {
    error: {
      code,
      message,
      ...(details.version !== undefined ? { version: details.version } : {}),
      ...(details.reason !== undefined ? { reason: details.reason } : {}),
    },
  };
}

/**
 * The ApiError to report for `e`: `e` itself when it is one, 503 `unavailable` when it says the database is
 * unreachable (db/availability.ts), else undefined (a bug: report 500 `internal` and log it).
 */
export function apiErrorOf(e: unknown): ApiError | undefined {
  if (e instanceof ApiError) return e;
  if (isDatabaseUnavailable(e))
    return new ApiError('unavailable', 'the database is unreachable for a moment; retry shortly');
  return undefined;
}
