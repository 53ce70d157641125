/**
 * WebSocket endpoint `/api/ws`: frames of protocol's ClientFrameSchema in, ServerFrameSchema out.
 *
 * - A frame larger than MAX_FRAME_BYTES gets an error frame `frame-too-large` (frames beyond the socket's
 *   hard limit, 16 × MAX_FRAME_BYTES, close the connection with 1009); malformed JSON or a frame that fails
 *   the schema gets `bad-request`. The connection stays open in both cases.
 * - `subscribe {gameId, version?}` answers with a `state` frame (cause `subscribe`) at the current version:
 *   the reconnect/resync path. `move`/`undo`/`resign` need a subscription (`not-subscribed` otherwise),
 *   follow the REST version rule, and end in a `state` frame to every subscriber of the game (the sender's
 *   copy carries its `requestId`), or in an error frame to the sender alone.
 * - `auth {token}` identifies the connection as a player (`authed {playerId, name}`, or an `unauthorized`
 *   error frame): needed to play a game created for a player, and to subscribe to a daily game of a day
 *   still open (its player only). Without it such frames get `unauthorized`; as another player, `forbidden`.
 *   When that token is revoked (rotation, sign-out everywhere; on any node) the connection gets an
 *   `unknown-token` error frame and is closed with TOKEN_REVOKED_CLOSE_CODE; frames still queued are dropped.
 * - `watch-leaderboard {date, preset}` answers with a `leaderboard` frame (the current row count) and then
 *   sends one whenever a row is added to that daily's leaderboard.
 * - `race-subscribe {code}` joins a race room's live channel: as its racer when the connection has sent `auth`
 *   as one, else as a spectator. It answers with a `race` frame and then sends `race` frames on every room
 *   change and `race-progress` frames after every racer's move (counts only, never a card). A racer's last
 *   race socket closing makes them `away`. A connection gets `RACE_RATE_MAX` unknown-code subscribes, then
 *   `rate-limited` (codes cannot be enumerated over the socket either).
 * - A connection that sent `auth` hears `paired {code}` when its player is paired (POST /api/pairing, or
 *   in an arena).
 * - `arena-subscribe {id}` answers with an `arena` frame and sends one on every change of its standings or
 *   status (`me` as the connection's player sees it); `arena-unsubscribe {id}` stops.
 * - A connection's frames are handled one at a time, in order.
 */
import { ClientFrameSchema, MAX_FRAME_BYTES, type ClientFrame, type ServerFrame } from '@klondike/protocol';
import type { GameAction } from '@klondike/rules';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { DailyService } from '../features/daily/service.js';
import { ApiError, apiErrorOf } from '../infra/errors.js';
import { type AuthedPlayer, hashToken } from '../features/players/players.js';
import type { TokenHolder, TokenRevocations } from '../features/players/token-revocation.js';
import type { PairingService } from '../features/pairing/service.js';
import type { ArenaService } from '../features/arenas/service.js';
import type { RaceService } from '../features/races/service.js';
import type { GameRooms, Subscriber } from '../core/rooms/game-rooms.js';
import '../types.js';

/** A connection whose unsent output exceeds this many bytes is a reader too slow to keep: it is closed. */
const MAX_BUFFERED_BYTES = 1 << 20;

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

/** What a connection needs from the server. */
export interface ConnectionDeps {
  readonly rooms: GameRooms;
  readonly daily: DailyService;
  /** The player of a token, or null (the token cache of plugin `auth`: app.playerOfToken). */
  readonly playerOfToken: (token: string) => Promise<AuthedPlayer | null>;
  /** Where an authenticated connection registers its token, to hear it revoked (app.tokenRevocations). */
  readonly tokens: Pick<TokenRevocations, 'register' | 'count'>;
  readonly log: FastifyBaseLogger;
  /** Frames per second before `rate-limited` error frames; 0 = no limit. */
  readonly framesPerSecond: number;
  readonly races: RaceService;
  /** Quick pairing: an authed connection hears `paired` for its player. */
  readonly pairing: PairingService;
  /** Arenas: `arena-subscribe` gets the arena's live standings. */
  readonly arenas: ArenaService;
  /** Unknown race codes a connection may subscribe to before `rate-limited`; 0 = no limit. */
  readonly raceLookups: number;
  /** Games one connection may be subscribed to at once (`rate-limited` beyond). */
  readonly maxSubscriptions: number;
  /** `auth` frames one connection may send (each may cost a database look-up; `rate-limited` beyond). */
  readonly maxAuthAttempts: number;
}

/** Close code for a connection cut for flooding (RFC 6455 1008: policy violation). */
export const FLOOD_CLOSE_CODE = 1008;

/** Close code for a connection whose token was revoked (4401, reason `token-revoked`): sign in again. */
export const TOKEN_REVOKED_CLOSE_CODE = 4401;

/** One client connection: a subscriber of the games it subscribed to. */
export class Connection implements Subscriber, TokenHolder {
  private readonly games = new Set<string>();
  private unknownRaces = 0;
  private authAttempts = 0;
  /** Stops hearing `paired` frames (set once the connection sent `auth`). */
  private stopPairing: (() => void) | undefined;
  /** Stops hearing its token revoked (set once the connection sent `auth`). */
  private stopRevocation: (() => void) | undefined;
  /** The last frame's handling (frames are handled one after another, in order). */
  private queue: Promise<void> = Promise.resolve();
  /** Frames received and not yet handled to the end. */
  private inHand = 0;
  private readonly handled = (): void => {
    this.inHand--;
  };
  /**
   * Frame credits (a token bucket, as lila-ws does): up to one second's worth, refilled continuously at
   * `framesPerSecond`. A frame without a credit is refused with `rate-limited`; a second's worth of refused
   * frames in a row is a flood, and the connection is cut.
   */
  private credits: number;
  private creditsAt = Date.now();
  private refusedInRow = 0;
  /** Set once the socket has closed: queued frames are dropped, late subscriptions undone. */
  private closed = false;
  private readonly rooms: GameRooms;
  private readonly log: FastifyBaseLogger;
  private readonly framesPerSecond: number;
  /** The player the connection has identified as (`auth`), or null. */
  private player: AuthedPlayer | null = null;

  /** Wraps an open socket. */
  constructor(
    private readonly socket: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.rooms = deps.rooms;
    this.log = deps.log;
    this.framesPerSecond = deps.framesPerSecond;
    this.credits = deps.framesPerSecond;
  }

  /** Takes one frame credit; false when there is none (refill first). */
  private takeCredit(): boolean {
    const now = Date.now();
    const rate = this.framesPerSecond;
    this.credits = Math.min(rate, this.credits + ((now - this.creditsAt) * rate) / 1000);
    this.creditsAt = now;
    if (this.credits < 1) return false;
    this.credits -= 1;
    return true;
  }

  /** Sends a serialised frame if the socket is open; closes a socket whose reader has fallen too far behind. */
  send(frame: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate();
      return;
    }
    this.socket.send(frame);
  }

  private sendFrame(frame: ServerFrame): void {
    this.send(JSON.stringify(frame));
  }

  private error(e: ApiError, extra: { gameId?: string; requestId?: string } = {}): void {
    this.sendFrame({
      type: 'error',
      code: e.code,
      message: e.message,
      ...(extra.gameId !== undefined ? { gameId: extra.gameId } : {}),
      ...(e.details.version !== undefined ? { version: e.details.version } : {}),
      ...(e.details.reason !== undefined ? { reason: e.details.reason } : {}),
      ...(extra.requestId !== undefined ? { requestId: extra.requestId } : {}),
    });
  }

  /** Handles one incoming frame (size, rate, JSON and schema checks here; the rest queued in order). */
  onMessage(data: RawData): void {
    if (this.closed) return;
    if (this.framesPerSecond > 0) {
      if (!this.takeCredit()) {
        if (++this.refusedInRow > this.framesPerSecond) {
          this.log.warn({ refused: this.refusedInRow }, 'websocket flood: connection cut');
          this.socket.close(FLOOD_CLOSE_CODE, 'flooding');
          this.close();
          return;
        }
        // One error frame per run of refused frames; the rest of the run is dropped without an answer, so a
        // flood costs the server as little as possible until it is cut.
        if (this.refusedInRow === 1)
          this.error(new ApiError('rate-limited', `more than ${this.framesPerSecond} frames per second`));
        return;
      }
      this.refusedInRow = 0;
    }
    if (byteLength(data) > MAX_FRAME_BYTES) {
      // Debug only: any client can send these at will (issue 53), so they must not fill the log.
      this.log.debug({ bytes: byteLength(data) }, 'websocket frame too large');
      this.error(new ApiError('frame-too-large', `frames are limited to ${MAX_FRAME_BYTES} bytes`));
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text(data));
    } catch {
      this.error(new ApiError('bad-request', 'the frame is not valid JSON'));
      return;
    }
    const parsed = ClientFrameSchema.safeParse(json);
    if (!parsed.success) {
      const requestId = requestIdOf(json);
      const issues = parsed.error.issues
        .map((i) => `${i.path.join('.') || '(frame)'}: ${i.message}`)
        .join('; ');
      this.error(
        new ApiError('bad-request', `invalid frame: ${issues}`),
        requestId !== undefined ? { requestId } : {},
      );
      return;
    }
    const frame = parsed.data;
    // With nothing in hand the frame is handled now; else after the frames before it. `handle` never rejects.
    const idle = this.inHand === 0;
    this.inHand++;
    const run = idle ? this.handle(frame) : this.queue.then(() => this.handle(frame));
    this.queue = run.then(this.handled, this.handled);
  }

  private async handle(frame: ClientFrame): Promise<void> {
    if (this.closed) return; // queued before the socket closed: nobody is there to answer
    const gameId = 'gameId' in frame ? frame.gameId : undefined;
    const requestId = 'requestId' in frame ? frame.requestId : undefined;
    try {
      switch (frame.type) {
        case 'ping':
          this.sendFrame({ type: 'pong' });
          return;
        case 'auth': {
          if (++this.authAttempts > this.deps.maxAuthAttempts)
            throw new ApiError(
              'rate-limited',
              `at most ${this.deps.maxAuthAttempts} auth frames per connection`,
            );
          const heard = this.deps.tokens.count;
          let player = await this.deps.playerOfToken(frame.token);
          // A revocation heard during the look-up may be of this token: look again, after it.
          if (player !== null && this.deps.tokens.count !== heard)
            player = await this.deps.playerOfToken(frame.token);
          if (player === null) throw new ApiError('unknown-token', 'unknown player token');
          if (this.closed) return;
          this.player = player;
          this.stopRevocation?.();
          this.stopRevocation = this.deps.tokens.register(player.id, hashToken(frame.token), this);
          this.stopPairing?.();
          this.stopPairing = this.deps.pairing.listen(player.id, this);
          this.sendFrame({ type: 'authed', playerId: player.id, name: player.name });
          return;
        }
        case 'watch-leaderboard': {
          const total = await this.deps.daily.watch(frame.date, frame.preset, this);
          if (this.closed) {
            this.deps.daily.watchers.removeAll(this);
            return;
          }
          this.sendFrame({ type: 'leaderboard', date: frame.date, preset: frame.preset, total });
          return;
        }
        case 'subscribe':
          if (!this.games.has(frame.gameId) && this.games.size >= this.deps.maxSubscriptions)
            throw new ApiError(
              'rate-limited',
              `at most ${this.deps.maxSubscriptions} games per connection: unsubscribe from one first`,
            );
          await this.rooms.subscribe(frame.gameId, this, this.player?.id ?? null);
          if (this.closed) {
            this.rooms.unsubscribe(frame.gameId, this);
            return;
          }
          this.games.add(frame.gameId);
          return;
        case 'unsubscribe':
          this.rooms.unsubscribe(frame.gameId, this);
          this.games.delete(frame.gameId);
          return;
        case 'race-subscribe': {
          const limit = this.deps.raceLookups;
          if (limit > 0 && this.unknownRaces >= limit)
            throw new ApiError('rate-limited', 'too many unknown race codes on this connection');
          try {
            await this.deps.races.subscribe(frame.code, this, this.player?.id ?? null);
            if (this.closed) this.deps.races.leaveAll(this);
          } catch (e) {
            if (e instanceof ApiError && e.code === 'not-found') this.unknownRaces++;
            throw e;
          }
          return;
        }
        case 'arena-subscribe':
          await this.deps.arenas.subscribe(frame.id, this, this.player?.id ?? null);
          if (this.closed) this.deps.arenas.unsubscribe(frame.id, this);
          return;
        case 'arena-unsubscribe':
          this.deps.arenas.unsubscribe(frame.id, this);
          return;
        case 'race-unsubscribe':
          this.deps.races.unsubscribe(frame.code, this);
          return;
        case 'move':
        case 'undo':
        case 'resign': {
          if (!this.rooms.isSubscribed(frame.gameId, this)) {
            throw new ApiError('not-subscribed', `subscribe to game ${frame.gameId} before playing it`);
          }
          const action: GameAction =
            frame.type === 'move' ? { type: 'move', move: frame.move } : { type: frame.type };
          await this.rooms.act(frame.gameId, action, {
            expectedVersion: frame.version,
            origin: { subscriber: this, ...(requestId !== undefined ? { requestId } : {}) },
            actor: this.player?.id ?? null,
          });
          return;
        }
      }
    } catch (e) {
      const extra = {
        ...(gameId !== undefined ? { gameId } : {}),
        ...(requestId !== undefined ? { requestId } : {}),
      };
      const known = apiErrorOf(e);
      if (known) {
        this.error(known, extra);
      } else {
        this.log.error({ err: e, gameId }, 'websocket frame failed');
        this.error(new ApiError('internal', 'internal error'), extra);
      }
    }
  }

  /** See `TokenHolder.revoked`: says so in an error frame and closes the socket (4401). */
  revoked(): void {
    if (this.closed) return;
    this.error(
      new ApiError('unknown-token', 'this token was revoked (signed out or rotated): sign in again'),
    );
    this.socket.close(TOKEN_REVOKED_CLOSE_CODE, 'token-revoked');
    this.close();
  }

  /** Forgets every subscription and leaderboard watch (the socket closed). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const id of this.games) this.rooms.unsubscribe(id, this);
    this.games.clear();
    this.deps.daily.watchers.removeAll(this);
    this.deps.races.leaveAll(this);
    this.deps.arenas.leaveAll(this);
    this.stopPairing?.();
    this.stopRevocation?.();
  }
}

/** The `/api/ws` route (needs @fastify/websocket registered on the instance). */
export const wsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/ws', { websocket: true, schema: { hide: true } }, (socket, req) => {
    const conn = new Connection(socket, {
      rooms: app.rooms,
      daily: app.daily,
      playerOfToken: app.playerOfToken,
      tokens: app.tokenRevocations,
      log: req.log,
      framesPerSecond: app.config.wsFramesPerSecond,
      races: app.races,
      pairing: app.pairing,
      arenas: app.arenas,
      raceLookups: app.config.raceRateMax,
      maxSubscriptions: app.config.wsMaxSubscriptions,
      maxAuthAttempts: app.config.wsMaxAuthAttempts,
    });
    socket.on('message', (data) => conn.onMessage(data));
    socket.on('close', () => conn.close());
    socket.on('error', (err) => req.log.debug({ err }, 'websocket error'));
  });
};
