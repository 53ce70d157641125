/**
 * A feature's anatomy (docs/architecture.md "A feature is a folder"): each folder under `src/features/`
 * exports one `FeatureModule` from its `module.ts`, and `app.ts` registers the list. The socket transport
 * (`edge/socket.ts`) keeps rate, size, parse, order and auth, and hands each frame to the channel that
 * declared its type.
 */
import type { ClientFrame, GameKind, RequiredScope, ServerFrame } from '@klondike/protocol';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ConfigSlice } from '../infra/config.js';
import type { KindRows } from '../infra/db/game-store.js';
import type { GamePolicy } from './rooms/policies.js';
import type { Subscriber } from './rooms/room.js';

/** A client frame's `type` (protocol's ClientFrameSchema). */
export type ClientFrameType = ClientFrame['type'];

/**
 * The client frame of type `T` (a union of types: the union of their frames). Written as an indexed map,
 * not `Extract<ClientFrame, { type: T }>`, so that TypeScript sees it grow with `T`: a channel of a few
 * frame types (`SocketChannel<'race-subscribe' | 'race-unsubscribe'>`) is then a `SocketChannel`.
 */
export type ClientFrameOf<T extends ClientFrameType> = {
  [K in ClientFrameType]: Extract<ClientFrame, { type: K }>;
}[T];

/**
 * The side of one client connection that a channel sees. It is a room `Subscriber` (it receives serialised
 * frames), so a channel may subscribe it to its own fan-out.
 */
export interface ChannelConnection extends Subscriber {
  /** The player the connection authenticated as (`auth` frame), or null. */
  readonly playerId: string | null;
  /**
   * The scopes of the personal access token the connection authenticated with; null or absent: a sign-in
   * token or none (no limit). The transport checks each frame's declared scope; a channel passes these on where an
   * action needs more (a game kind's scope, `GameRooms.act`).
   */
  readonly scopes?: ReadonlySet<string> | null;
  /** True once the socket has closed: a channel checks it after each await and undoes what it just did. */
  readonly closed: boolean;
  /** Serialises and sends one frame (dropped when the socket is closed). */
  sendFrame(frame: ServerFrame): void;
}

/**
 * One connection's state in a channel, from the connection's first frame of the channel (or its `auth`)
 * to the socket's close.
 */
export interface ChannelSession<T extends ClientFrameType> {
  /**
   * Handles one frame of the channel's types. Errors: rejects with an `ApiError` (infra/errors.ts), which
   * the transport sends as an `error` frame carrying the frame's `gameId` and `requestId`.
   */
  handle(frame: ClientFrameOf<T>): Promise<void>;
  /** The connection authenticated as `playerId` (a later `auth` replaces an earlier one). */
  authed?(playerId: string): void;
  /** The socket closed: release every subscription, watch and listener of this connection. */
  close(): void;
}

/** A feature's frames on the socket: the frame types it handles and its per-connection session. */
export interface SocketChannel<T extends ClientFrameType = ClientFrameType> {
  /** The channel's name (the feature's), for logs. */
  readonly name: string;
  /** The client frame types this channel handles; no two channels share one. */
  readonly frames: readonly T[];
  /** Opens the channel's session for one connection (called once per connection, lazily or at `auth`). */
  open(connection: ChannelConnection): ChannelSession<T>;
}

/** One kind of game as its feature declares it: its rules, and the rows it adds to its game's writes. */
export interface GameKindSpec {
  /** What the kind adds to the game log's rules (rooms/policies.ts). */
  readonly policy: GamePolicy;
  /**
   * The rows the kind inserts in the same transaction as its game's writes (a ranked daily's attempt and
   * leaderboard row), or none.
   */
  readonly rows?: KindRows;
}

/** The kinds of game one feature owns (no two features declare the same kind). */
export type GameKinds = Partial<Readonly<Record<GameKind, GameKindSpec>>>;

/** A server frame's `type` (protocol's ServerFrameSchema). */
export type ServerFrameType = ServerFrame['type'];

/**
 * How a client frame is documented: its operation id, summary, the frames that answer it, and the scope a
 * personal access token needs to send it.
 */
export interface ClientFrameDoc {
  readonly operationId: string;
  /**
   * The scope the frame needs (docs/api.md "Tokens and scopes"): a connection authenticated with a personal
   * access token without it gets a `missing-scope` error frame; null: none (`auth`, `ping`). The transport
   * (edge/socket.ts) enforces it and the AsyncAPI document shows it (`x-scope`).
   */
  readonly scope: RequiredScope | null;
  readonly summary: string;
  readonly description?: string;
  /** The server frames answering this one (an `error` frame can always answer instead). */
  readonly replies: readonly ServerFrameType[];
}

/** How a server frame is documented; `push`: also sent unasked (an operation of its own). */
export interface ServerFrameDoc {
  readonly summary: string;
  readonly description?: string;
  readonly push?: { readonly operationId: string; readonly summary: string };
}

/**
 * The AsyncAPI documentation of the frames a module's channel handles (`client`) and sends (`server`); every
 * frame type of the protocol is documented by exactly one module, or by the connection itself.
 */
export interface FrameDocs {
  readonly client?: Partial<Readonly<Record<ClientFrameType, ClientFrameDoc>>>;
  readonly server?: Partial<Readonly<Record<ServerFrameType, ServerFrameDoc>>>;
}

/** One feature, as `app.ts` registers it. */
export interface FeatureModule {
  /** The feature's name (its folder's). */
  readonly name: string;
  /**
   * The feature's Fastify plugin (fastify-plugin, with its declared `name` and `dependencies`): it builds
   * the feature's services and decorates the app with them (the decoration's type is declared in the
   * plugin's own file, by module augmentation of `FastifyInstance`).
   */
  readonly plugin: FastifyPluginAsync;
  /** The feature's HTTP routes (each with its zod schemas), registered after every plugin. */
  readonly routes?: readonly FastifyPluginAsync[];
  /** The feature's socket channel, built once the app's plugins are ready. */
  readonly channel?: (app: FastifyInstance) => SocketChannel;
  /** The documentation of the frames its channel handles and sends (edge/api-docs/asyncapi.ts). */
  readonly frames?: FrameDocs;
  /**
   * The kinds of game the feature owns, declared once every plugin is registered (so a policy may use the
   * feature's service) and before any route: `app.gameKinds.declare` (core/games/kinds.ts).
   */
  readonly games?: (app: FastifyInstance) => GameKinds;
  /**
   * The feature's settings: its environment variables' zod schema, defaults and messages, read into its
   * fields of `AppConfig` (which its `config.ts` declares by augmenting infra/config.ts's interface).
   */
  readonly config?: ConfigSlice;
}
