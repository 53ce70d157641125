/**
 * The daily's socket channel:
 * - `watch-leaderboard {date, preset}` answers with a `leaderboard` frame (the current row count) and then
 *   sends one whenever a row is added to that daily's leaderboard, until the socket closes;
 * - `daily-attempt {date, preset, requestId?}` opens the player's one ranked attempt (as the REST route) and
 *   answers `daily-opened` with the game; the connection follows the game from then on (its `state` frames),
 *   as after a `subscribe`, until it unsubscribes or closes. At midnight this is the opening without an HTTP
 *   request, a token look-up or a second node loading the game for the player's socket.
 */
import type {
  ChannelConnection,
  ChannelSession,
  ClientFrameOf,
  SocketChannel,
} from '../../core/feature-module.js';
import type { GameRooms } from '../../core/rooms/game-rooms.js';
import { ApiError } from '../../infra/errors.js';
import type { DailyService } from './service.js';

/** What the daily channel needs of the daily service (app.daily). */
export type DailyChannelService = Pick<DailyService, 'watch' | 'watchers' | 'attempt'>;

/** What the daily channel needs of the game rooms (app.rooms): following a game it opened. */
export type DailyChannelRooms = Pick<GameRooms, 'follow' | 'unsubscribe'>;

/** The client frames of the daily channel. */
export type DailyFrameType = 'watch-leaderboard' | 'daily-attempt';

/** One connection's leaderboard watches and the attempts it opened, all let go when the socket closes. */
class DailySession implements ChannelSession<DailyFrameType> {
  /** Games this connection follows because it opened them here. */
  private readonly opened = new Set<string>();

  constructor(
    private readonly daily: DailyChannelService,
    private readonly rooms: DailyChannelRooms,
    private readonly connection: ChannelConnection,
  ) {}

  /**
   * See `ChannelSession.handle`. Errors: `not-found` (no such published daily); for `daily-attempt` also
   * `unauthorized` (no `auth` yet) and `conflict` (a second attempt, a closed day).
   */
  async handle(frame: ClientFrameOf<DailyFrameType>): Promise<void> {
    if (frame.type === 'daily-attempt') return this.attempt(frame);
    const conn = this.connection;
    const total = await this.daily.watch(frame.date, frame.preset, conn);
    if (conn.closed) {
      this.daily.watchers.removeAll(conn);
      return;
    }
    conn.sendFrame({ type: 'leaderboard', date: frame.date, preset: frame.preset, total });
  }

  /** Opens the ranked attempt, follows its game and answers `daily-opened` (see the file's comment). */
  private async attempt(frame: ClientFrameOf<'daily-attempt'>): Promise<void> {
    const conn = this.connection;
    const playerId = conn.playerId;
    if (playerId === null)
      throw new ApiError('unauthorized', 'send {"type":"auth","token"} before opening a ranked attempt');
    const game = await this.daily.attempt(frame.date, frame.preset, { id: playerId });
    // The attempt stands whatever happens to this socket: the player finds it again by REST or `subscribe`.
    if (conn.closed) return;
    await this.rooms.follow(game.id, conn, playerId);
    if (conn.closed) {
      this.rooms.unsubscribe(game.id, conn);
      return;
    }
    this.opened.add(game.id);
    const requestId = frame.requestId;
    conn.sendFrame({ type: 'daily-opened', game, ...(requestId !== undefined ? { requestId } : {}) });
  }

  /** Stops every leaderboard watch of the connection and lets go of the games it opened. */
  close(): void {
    this.daily.watchers.removeAll(this.connection);
    for (const id of this.opened) this.rooms.unsubscribe(id, this.connection);
    this.opened.clear();
  }
}

/** The daily channel over `daily` and `rooms` (e.g. `dailyChannel(app.daily, app.rooms)`). */
export function dailyChannel(
  daily: DailyChannelService,
  rooms: DailyChannelRooms,
): SocketChannel<DailyFrameType> {
  return {
    name: 'daily',
    frames: ['watch-leaderboard', 'daily-attempt'],
    open: (connection) => new DailySession(daily, rooms, connection),
  };
}
