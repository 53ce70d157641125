/**
 * The socket transport's frame reading and error frames: one incoming message checked for size, JSON and
 * protocol's ClientFrameSchema, and an `ApiError` as the `error` frame the client gets.
 */
import { ClientFrameSchema, MAX_FRAME_BYTES, type ClientFrame, type ServerFrame } from '@klondike/protocol';
import type { RawData } from 'ws';
import { ApiError } from '../infra/errors.js';

/** What an error frame carries besides the error: the frame's game and request, when it had them. */
export interface ErrorFrameRefs {
  readonly gameId?: string;
  readonly requestId?: string;
}

/** An incoming message read: a client frame, or the error to answer it with (and its size, when too large). */
export type ReadFrame =
  | { readonly frame: ClientFrame }
  | { readonly error: ApiError; readonly refs: ErrorFrameRefs; readonly tooLarge?: number };

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data.byteLength;
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function requestIdOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('requestId' in value)) return undefined;
  const id = value.requestId;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
}

/**
 * Reads one message: `frame-too-large` over MAX_FRAME_BYTES (with its size in bytes), `bad-request` for
 * malformed JSON or a frame that fails the schema (naming each issue; with the frame's `requestId` if it
 * had a valid-looking one).
 */
export function readFrame(data: RawData): ReadFrame {
  const bytes = byteLength(data);
  if (bytes > MAX_FRAME_BYTES)
    return {
      error: new ApiError('frame-too-large', `frames are limited to ${MAX_FRAME_BYTES} bytes`),
      refs: {},
      tooLarge: bytes,
    };
  let json: unknown;
  try {
    json = JSON.parse(text(data));
  } catch {
    return { error: new ApiError('bad-request', 'the frame is not valid JSON'), refs: {} };
  }
  const parsed = ClientFrameSchema.safeParse(json);
  if (parsed.success) return { frame: parsed.data };
  const requestId = requestIdOf(json);
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(frame)'}: ${i.message}`).join('; ');
  return {
    error: new ApiError('bad-request', `invalid frame: ${issues}`),
    refs: requestId !== undefined ? { requestId } : {},
  };
}

/** The `gameId` and `requestId` of a client frame, for an error frame answering it. */
export function refsOf(frame: ClientFrame): ErrorFrameRefs {
  const gameId = 'gameId' in frame ? frame.gameId : undefined;
  const requestId = 'requestId' in frame ? frame.requestId : undefined;
  return {
    ...(gameId !== undefined ? { gameId } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
  };
}

/** The `error` frame of `e` (its code, message, and its details' `version` and `reason`) with `refs`. */
export function errorFrame(e: ApiError, refs: ErrorFrameRefs = {}): ServerFrame {
  return {
    type: 'error',
    code: e.code,
    message: e.message,
    ...(refs.gameId !== undefined ? { gameId: refs.gameId } : {}),
    ...(e.details.version !== undefined ? { version: e.details.version } : {}),
    ...(e.details.reason !== undefined ? { reason: e.details.reason } : {}),
    ...(refs.requestId !== undefined ? { requestId: refs.requestId } : {}),
  };
}
