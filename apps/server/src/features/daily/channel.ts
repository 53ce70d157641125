/**
 * The daily's socket channel: `watch-leaderboard {date, preset}` answers with a `leaderboard` frame (the
 * current row count) and then sends one whenever a row is added to that daily's leaderboard, until the
 * socket closes.
 */
import type {
  ChannelConnection,
  ChannelSession,
  ClientFrameOf,
  SocketChannel,
} from '../../core/feature-module.js';
import type { DailyService } from './service.js';

/** What the daily channel needs of the daily service (app.daily). */
export type DailyChannelService = Pick<DailyService, 'watch' | 'watchers'>;

/** One connection's leaderboard watches, all removed when the socket closes. */
class DailySession implements ChannelSession<'watch-leaderboard'> {
  constructor(
    private readonly daily: DailyChannelService,
    private readonly connection: ChannelConnection,
  ) {}

  /** See `ChannelSession.handle`. Errors: `not-found` (no such published daily). */
  async handle(frame: ClientFrameOf<'watch-leaderboard'>): Promise<void> {
    const conn = this.connection;
    const total = await this.daily.watch(frame.date, frame.preset, conn);
    if (conn.closed) {
      this.daily.watchers.removeAll(conn);
      return;
    }
    conn.sendFrame({ type: 'leaderboard', date: frame.date, preset: frame.preset, total });
  }

  /** Stops every leaderboard watch of the connection. */
  close(): void {
    this.daily.watchers.removeAll(this.connection);
  }
}

/** The daily channel over `daily` (e.g. `dailyChannel(app.daily)`). */
export function dailyChannel(daily: DailyChannelService): SocketChannel<'watch-leaderboard'> {
  return {
    name: 'daily',
    frames: ['watch-leaderboard'],
    open: (connection) => new DailySession(daily, connection),
  };
}
