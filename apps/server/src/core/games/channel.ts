/**
 * The core games' socket channel: `subscribe {gameId, version?}` answers with a `state` frame (cause
 * `subscribe`) at the current version, the reconnect/resync path; `unsubscribe {gameId}` stops. `move`,
 * `undo` and `resign` need a subscription (`not-subscribed` otherwise), follow the REST version rule, and end
 * in a `state` frame to every subscriber of the game (the sender's copy carries its `requestId`), or in an
 * error frame to the sender alone. A connection holds at most `maxSubscriptions` games at once.
 */
import type { GameAction } from '@klondike/rules';
import { ApiError } from '../../infra/errors.js';
import type { ChannelConnection, ChannelSession, ClientFrameOf, SocketChannel } from '../feature-module.js';
import type { GameRooms } from '../rooms/game-rooms.js';

/** The client frames of the games channel. */
export type GameFrameType = 'subscribe' | 'unsubscribe' | 'move' | 'undo' | 'resign';

/** What the games channel needs of the game rooms (app.rooms). */
export type GameChannelRooms = Pick<GameRooms, 'subscribe' | 'unsubscribe' | 'isSubscribed' | 'act'>;

/** The games channel's settings. */
export interface GameChannelOptions {
  /** Games one connection may be subscribed to at once (`rate-limited` beyond; config wsMaxSubscriptions). */
  readonly maxSubscriptions: number;
}

/** One connection's games: the ids it subscribed to, all unsubscribed when the socket closes. */
class GameSession implements ChannelSession<GameFrameType> {
  private readonly games = new Set<string>();

  constructor(
    private readonly rooms: GameChannelRooms,
    private readonly options: GameChannelOptions,
    private readonly connection: ChannelConnection,
  ) {}

  /** See `ChannelSession.handle`. Errors: `rate-limited` (the cap), `not-subscribed`, and the rooms' own. */
  async handle(frame: ClientFrameOf<GameFrameType>): Promise<void> {
    const conn = this.connection;
    switch (frame.type) {
      case 'subscribe': {
        const max = this.options.maxSubscriptions;
        if (!this.games.has(frame.gameId) && this.games.size >= max)
          throw new ApiError(
            'rate-limited',
            `at most ${max} games per connection: unsubscribe from one first`,
          );
        await this.rooms.subscribe(frame.gameId, conn, conn.playerId);
        if (conn.closed) {
          this.rooms.unsubscribe(frame.gameId, conn);
          return;
        }
        this.games.add(frame.gameId);
        return;
      }
      case 'unsubscribe':
        this.rooms.unsubscribe(frame.gameId, conn);
        this.games.delete(frame.gameId);
        return;
      case 'move':
      case 'undo':
      case 'resign': {
        if (!this.rooms.isSubscribed(frame.gameId, conn))
          throw new ApiError('not-subscribed', `subscribe to game ${frame.gameId} before playing it`);
        const action: GameAction =
          frame.type === 'move' ? { type: 'move', move: frame.move } : { type: frame.type };
        const requestId = frame.requestId;
        await this.rooms.act(frame.gameId, action, {
          expectedVersion: frame.version,
          origin: { subscriber: conn, ...(requestId !== undefined ? { requestId } : {}) },
          actor: conn.playerId,
          scopes: conn.scopes,
        });
        return;
      }
    }
  }

  /** Unsubscribes the connection from every game it holds. */
  close(): void {
    for (const id of this.games) this.rooms.unsubscribe(id, this.connection);
    this.games.clear();
  }
}

/** The games channel over `rooms` (e.g. `gameChannel(app.rooms, { maxSubscriptions: app.config.wsMaxSubscriptions })`). */
export function gameChannel(
  rooms: GameChannelRooms,
  options: GameChannelOptions,
): SocketChannel<GameFrameType> {
  return {
    name: 'games',
    frames: ['subscribe', 'unsubscribe', 'move', 'undo', 'resign'],
    open: (connection) => new GameSession(rooms, options, connection),
  };
}
