/**
 * WebSocket endpoint `/api/ws`, the transport: frames of protocol's ClientFrameSchema in, ServerFrameSchema
 * out. It keeps rate, size, parse, order and auth, answers `ping`, and hands every other frame to the
 * socket channel that declared its type (core/feature-module.ts; the list in edge/channels.ts).
 *
 * - Frames are paced by a token bucket (`framesPerSecond`): a refused run gets one `rate-limited` error
 *   frame, and a second's worth of refused frames in a row closes the connection with FLOOD_CLOSE_CODE.
 * - A frame larger than MAX_FRAME_BYTES gets an error frame `frame-too-large` (frames beyond the socket's
 *   hard limit, 16 × MAX_FRAME_BYTES, close the connection with 1009); malformed JSON or a frame that fails
 *   the schema gets `bad-request`. The connection stays open in both cases.
 * - A connection's frames are handled one at a time, in order. A channel's error becomes an `error` frame
 *   carrying the frame's `gameId` and `requestId`.
 * - `auth {token}` identifies the connection as a player (`authed {playerId, name}`, or an `unknown-token`
 *   error frame; `rate-limited` after `maxAuthAttempts`); every channel's session hears it (`authed`). When
 *   that token is revoked (rotation, sign-out everywhere; on any node) the connection gets an
 *   `unknown-token` error frame and is closed with TOKEN_REVOKED_CLOSE_CODE; frames still queued are dropped.
 * - A connection authenticated with a personal access token sends only the frames whose declared scope
 *   (`ClientFrameDoc.scope`) the token holds (`missing-scope` error frame otherwise); once the token has
 *   expired, its next frame gets `unknown-token` and the socket is closed with TOKEN_REVOKED_CLOSE_CODE.
 * - When the socket closes, every channel's session releases what it holds (`close`).
 */
import { ACCOUNT_SCOPE, type ClientFrame, type RequiredScope, type ServerFrame } from '@klondike/protocol';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type {
  ChannelConnection,
  ChannelSession,
  ClientFrameType,
  SocketChannel,
} from '../core/feature-module.js';
import { ApiError, apiErrorOf } from '../infra/errors.js';
import { PUBLIC, checkScope } from '../infra/http/api-security.js';
import { expired } from '../features/players/access-tokens.js';
import { type AuthedPlayer, hashToken } from '../features/players/players.js';
import type { TokenHolder, TokenRevocations } from '../features/players/token-revocation.js';
import { appChannels, appFrameScopes } from './channels.js';
import { type ChannelTable, channelTable } from './channel-table.js';
import { FrameCredits } from './frame-credits.js';
import { type ErrorFrameRefs, errorFrame, readFrame, refsOf } from './frames.js';

/** A connection whose unsent output exceeds this many bytes is a reader too slow to keep: it is closed. */
const MAX_BUFFERED_BYTES = 1 << 20;

/** What a connection needs from the server. */
export interface ConnectionDeps {
  /** The channels and their frame types (`channelTable`). */
  readonly channels: ChannelTable;
  /** The player of a token, or null (the token cache of plugin `auth`: app.playerOfToken). */
  readonly playerOfToken: (token: string) => Promise<AuthedPlayer | null>;
  /** Where an authenticated connection registers its token, to hear it revoked (app.tokenRevocations). */
  readonly tokens: Pick<TokenRevocations, 'register' | 'count'>;
  readonly log: FastifyBaseLogger;
  /** Frames per second before `rate-limited` error frames; 0 = no limit. */
  readonly framesPerSecond: number;
  /** `auth` frames one connection may send (each may cost a database look-up; `rate-limited` beyond). */
  readonly maxAuthAttempts: number;
  /** The node's socket counters (metrics), shared by every connection; default: counted nowhere. */
  readonly stats?: SocketStats;
  /**
   * The scope each client frame type needs from a personal access token (its `ClientFrameDoc.scope`,
   * edge/channels.ts `appFrameScopes`); a type missing here needs `account` (no personal token sends it).
   */
  readonly frameScopes?: ReadonlyMap<ClientFrameType, RequiredScope | null>;
  /** The clock, ms since the epoch (a personal token's expiry); default `Date.now`. */
  readonly now?: () => number;
}

/** The sockets' running counts of one node (plain numbers: the frame path only adds one). */
export interface SocketStats {
  /** Connections open now. */
  open: number;
  /** Frames received since start. */
  framesIn: number;
  /** Frames sent since start. */
  framesOut: number;
}

/** Counters nobody reads (a connection made without the node's). */
const UNCOUNTED: SocketStats = { open: 0, framesIn: 0, framesOut: 0 };

/** Close code for a connection cut for flooding (RFC 6455 1008: policy violation). */
export const FLOOD_CLOSE_CODE = 1008;

/** Close code for a connection whose token was revoked (4401, reason `token-revoked`): sign in again. */
export const TOKEN_REVOKED_CLOSE_CODE = 4401;

/** One client connection: the channels' `ChannelConnection`, and a holder of its player's token. */
export class Connection implements ChannelConnection, TokenHolder {
  /** Each channel's session, opened at the channel's first frame or at `auth`. */
  private readonly sessions = new Map<SocketChannel, ChannelSession<ClientFrameType>>();
  private authAttempts = 0;
  /** Stops hearing its token revoked (set once the connection sent `auth`). */
  private stopRevocation: (() => void) | undefined;
  /** The last frame's handling (frames are handled one after another, in order). */
  private queue: Promise<void> = Promise.resolve();
  /** Frames received and not yet handled to the end. */
  private inHand = 0;
  private readonly handled = (): void => {
    this.inHand--;
  };
  /** Frame credits: see edge/frame-credits.ts. */
  private readonly credits: FrameCredits;
  private isClosed = false;
  private player: AuthedPlayer | null = null;
  private readonly stats: SocketStats;

  /** Wraps an open socket. */
  constructor(
    private readonly socket: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.credits = new FrameCredits(deps.framesPerSecond);
    this.stats = deps.stats ?? UNCOUNTED;
    this.stats.open++;
  }

  /** See `ChannelConnection.playerId`. */
  get playerId(): string | null {
    return this.player?.id ?? null;
  }

  /** See `ChannelConnection.scopes`. */
  get scopes(): ReadonlySet<string> | null {
    return this.player?.access?.scopes ?? null;
  }

  /** See `ChannelConnection.closed`: queued frames are then dropped, late subscriptions undone. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Sends a serialised frame if the socket is open; closes a socket whose reader has fallen too far behind. */
  send(frame: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate();
      return;
    }
    this.stats.framesOut++;
    this.socket.send(frame);
  }

  /** See `ChannelConnection.sendFrame`. */
  sendFrame(frame: ServerFrame): void {
    this.send(JSON.stringify(frame));
  }

  private error(e: ApiError, refs: ErrorFrameRefs = {}): void {
    this.sendFrame(errorFrame(e, refs));
  }

  /** Handles one incoming frame (size, rate, JSON and schema checks here; the rest queued in order). */
  onMessage(data: RawData): void {
    this.stats.framesIn++;
    if (this.isClosed) return;
    const verdict = this.credits.take();
    if (verdict === 'flood') {
      this.deps.log.warn({ refused: this.credits.refusedInRow }, 'websocket flood: connection cut');
      this.socket.close(FLOOD_CLOSE_CODE, 'flooding');
      this.close();
      return;
    }
    if (verdict === 'refused')
      this.error(new ApiError('rate-limited', `more than ${this.credits.framesPerSecond} frames per second`));
    if (verdict !== 'ok') return;
    const read = readFrame(data);
    if ('error' in read) {
      // Debug only: any client can send oversized frames at will (issue 53), so they must not fill the log.
      if (read.tooLarge !== undefined)
        this.deps.log.debug({ bytes: read.tooLarge }, 'websocket frame too large');
      this.error(read.error, read.refs);
      return;
    }
    const frame = read.frame;
    // With nothing in hand the frame is handled now; else after the frames before it. `handle` never rejects.
    const idle = this.inHand === 0;
    this.inHand++;
    const run = idle ? this.handle(frame) : this.queue.then(() => this.handle(frame));
    this.queue = run.then(this.handled, this.handled);
  }

  /** The connection's session of `channel`, opened now if it is not yet. */
  private session(channel: SocketChannel): ChannelSession<ClientFrameType> {
    let session = this.sessions.get(channel);
    if (session === undefined) this.sessions.set(channel, (session = channel.open(this)));
    return session;
  }

  private async handle(frame: ClientFrame): Promise<void> {
    if (this.isClosed) return; // queued before the socket closed: nobody is there to answer
    try {
      if (frame.type === 'ping') this.sendFrame({ type: 'pong' });
      else if (frame.type === 'auth') await this.auth(frame.token);
      else {
        const access = this.player?.access;
        if (access !== undefined) {
          if (expired(access, (this.deps.now ?? Date.now)())) {
            this.revoked('this token has expired: make a new one');
            return;
          }
          const scope = this.deps.frameScopes?.get(frame.type);
          if (scope !== null) checkScope(access.scopes, scope ?? ACCOUNT_SCOPE);
        }
        const channel = this.deps.channels.byFrame.get(frame.type);
        if (channel === undefined) throw new Error(`no socket channel handles "${frame.type}"`);
        await this.session(channel).handle(frame);
      }
    } catch (e) {
      const refs = refsOf(frame);
      const known = apiErrorOf(e);
      if (known) {
        this.error(known, refs);
      } else {
        this.deps.log.error({ err: e, gameId: refs.gameId }, 'websocket frame failed');
        this.error(new ApiError('internal', 'internal error'), refs);
      }
    }
  }

  /** The `auth` frame. Errors: `rate-limited` (too many attempts), `unknown-token`. */
  private async auth(token: string): Promise<void> {
    const max = this.deps.maxAuthAttempts;
    if (++this.authAttempts > max)
      throw new ApiError('rate-limited', `at most ${max} auth frames per connection`);
    const heard = this.deps.tokens.count;
    let player = await this.deps.playerOfToken(token);
    // A revocation heard during the look-up may be of this token: look again, after it.
    if (player !== null && this.deps.tokens.count !== heard) player = await this.deps.playerOfToken(token);
    if (player === null) throw new ApiError('unknown-token', 'unknown player token');
    if (this.isClosed) return;
    this.player = player;
    this.stopRevocation?.();
    this.stopRevocation = this.deps.tokens.register(player.id, hashToken(token), this);
    for (const channel of this.deps.channels.channels) this.session(channel).authed?.(player.id);
    this.sendFrame({ type: 'authed', playerId: player.id, name: player.name });
  }

  /** See `TokenHolder.revoked`: says so in an error frame and closes the socket (4401). */
  revoked(message = 'this token was revoked (signed out, rotated or deleted): sign in again'): void {
    if (this.isClosed) return;
    this.error(new ApiError('unknown-token', message));
    this.socket.close(TOKEN_REVOKED_CLOSE_CODE, 'token-revoked');
    this.close();
  }

  /** The socket closed: every channel's session releases what it holds, and the token is no longer heard. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.stats.open--;
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
    this.stopRevocation?.();
  }
}

/** Options of the `/api/ws` route. */
export interface SocketRoutesOptions {
  /** Builds the channels from the app's decorations (default: edge/channels.ts `appChannels`). */
  readonly channels?: (app: FastifyInstance) => readonly SocketChannel[];
  /** The scope of each client frame type (default: edge/channels.ts `appFrameScopes`). */
  readonly frameScopes?: ReadonlyMap<ClientFrameType, RequiredScope | null>;
}

/**
 * The `/api/ws` route (needs @fastify/websocket registered on the instance). Errors: registration fails
 * (so the app does not start) when the channels are inconsistent (`channelTable`).
 */
// eslint-disable-next-line @typescript-eslint/require-await -- a `channelTable` throw must reach avvio as a rejection
export const wsRoutes: FastifyPluginAsync<SocketRoutesOptions> = async (app, options) => {
  const channels = channelTable((options.channels ?? appChannels)(app));
  const frameScopes = options.frameScopes ?? appFrameScopes();
  const stats: SocketStats = { open: 0, framesIn: 0, framesOut: 0 };
  app.metrics.gauge('websocket_connections', 'WebSocket connections open on this node.', () => stats.open);
  app.metrics.counter('websocket_frames_received_total', 'WebSocket frames received.', () => stats.framesIn);
  app.metrics.counter('websocket_frames_sent_total', 'WebSocket frames sent.', () => stats.framesOut);
  // Public: the socket authenticates in-band (`auth`), and each frame's scope is checked there.
  app.get('/api/ws', { websocket: true, schema: { hide: true, security: PUBLIC } }, (socket, req) => {
    // Every line a connection logs carries its id (the upgrade request's id, `reqId`, and `connId`).
    const log = req.log.child({ connId: req.id });
    const conn = new Connection(socket, {
      channels,
      playerOfToken: app.playerOfToken,
      tokens: app.tokenRevocations,
      log,
      stats,
      framesPerSecond: app.config.wsFramesPerSecond,
      maxAuthAttempts: app.config.wsMaxAuthAttempts,
      frameScopes,
      now: app.now,
    });
    socket.on('message', (data) => conn.onMessage(data));
    socket.on('close', () => conn.close());
    socket.on('error', (err) => log.debug({ err }, 'websocket error'));
  });
};
