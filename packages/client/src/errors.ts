/**
 * Typed errors of the Klondike API. The server answers every refusal with `{"error":{"code","message"}}`
 * (HTTP) or an `error` frame (WebSocket); the client turns both into a `KlondikeError` with the same code.
 */
import type { ApiErrorCode } from '@klondike/protocol';

/** Which rule refused an illegal move (the rules package's MoveError codes, as sent by the server). */
export type MoveRefusal = string;

/**
 * Error codes a `KlondikeError` may carry: every API error code of the server, plus the client's own
 * `network` (no answer: connection refused, socket closed for good) and `protocol` (an answer that is not
 * the documented shape).
 */
export type KlondikeErrorCode = ApiErrorCode | 'network' | 'protocol';

/** A refusal or failure of the Klondike API. `code` is the stable part to branch on. */
export class KlondikeError extends Error {
  /** Stable error code (`stale-version`, `illegal-move`, `not-found`, …). */
  readonly code: KlondikeErrorCode;
  /** HTTP status (REST calls), or undefined (socket frames, client-side failures). */
  readonly status: number | undefined;
  /** The game's current version (with `stale-version`, `illegal-move`): resync from here. */
  readonly version: number | undefined;
  /** Which rule refused the move (with `illegal-move`), e.g. `not-alternating`. */
  readonly reason: MoveRefusal | undefined;
  /** The game the error is about (socket frames). */
  readonly gameId: string | undefined;

  constructor(
    code: KlondikeErrorCode,
    message: string,
    details: { status?: number; version?: number; reason?: string; gameId?: string } = {},
  ) {
    super(message);
    this.name = 'KlondikeError';
    this.code = code;
    this.status = details.status;
    this.version = details.version;
    this.reason = details.reason;
    this.gameId = details.gameId;
  }
}

/** Whether `e` is a `KlondikeError`, optionally with the given code. */
export function isKlondikeError(e: unknown, code?: KlondikeErrorCode): e is KlondikeError {
  return e instanceof KlondikeError && (code === undefined || e.code === code);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** The `KlondikeError` of an HTTP error answer (`{"error":{"code","message",...}}`, or anything else). */
export function errorFromBody(status: number, body: unknown): KlondikeError {
  const e = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (e === undefined || typeof e.code !== 'string' || typeof e.message !== 'string')
    return new KlondikeError('protocol', `HTTP ${status} without an error body`, { status });
  return new KlondikeError(e.code as ApiErrorCode, e.message, {
    status,
    ...(typeof e.version === 'number' ? { version: e.version } : {}),
    ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
  });
}
