/**
 * @klondike/client — a typed client of the Klondike Online API.
 *
 * - `KlondikeClient`: every REST route, typed from the server's OpenAPI document (openapi-typescript +
 *   openapi-fetch); refusals reject with `KlondikeError`.
 * - `GameSession`: one game's session (the version rule, the queue of requests, resync, an optional
 *   optimistic apply), pure and transport-free; `KlondikeSocket` and the web app's `useGame` adapt it.
 * - `KlondikeSocket` / `GameHandle`: the WebSocket (`/api/ws`): subscribe, play with the version rule,
 *   resync after a gap or a reconnect, typed error frames.
 * - `createConnection`: the connection they run on (reconnects with backoff, `auth` first on every
 *   connection, checked frames), for a client that handles the frames itself (the web app does).
 *
 * See the package README and docs/api.md of the repository.
 */
export { KlondikeClient, unwrap } from './rest.js';
export type {
  CreateGameBody,
  GameResponse,
  KlondikeClientOptions,
  PlayerCreated,
  RestMove,
  Schemas,
  StateResponse,
  View,
} from './rest.js';
export { GameHandle, KlondikeSocket } from './socket.js';
export { GameSession } from './session.js';
export type {
  ConfirmedState,
  GameSessionOptions,
  RequestKind,
  RequestOutcome,
  SentRequest,
  SessionEvent,
  SessionRefusal,
  SessionRequest,
  SessionTransport,
} from './session.js';
export { backoffDelay, createConnection } from './connection.js';
export type {
  Connection,
  ConnectionOptions,
  ConnectionStatus,
  FrameCheck,
  FrameChecker,
} from './connection.js';
export type {
  ClientFrame,
  GameState,
  KlondikeSocketOptions,
  Move,
  PlayerView,
  ServerFrame,
  SocketEvent,
  StateFrame,
  WebSocketClass,
  WebSocketLike,
} from './socket.js';
export { KlondikeError, errorFromBody, isKlondikeError } from './errors.js';
export type { KlondikeErrorCode, MoveRefusal } from './errors.js';
export type { components, paths } from './generated/openapi.js';
