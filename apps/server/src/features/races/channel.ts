/**
 * The races' socket channel: `race-subscribe {code}` joins a race room's live channel, as its racer when
 * the connection has sent `auth` as one, else as a spectator. It answers with a `race` frame and then sends
 * `race` frames on every room change and `race-progress` frames after every racer's move (counts only,
 * never a card); `race-unsubscribe {code}` leaves. A racer's last race socket closing makes them `away`. A
 * connection gets `lookups` unknown-code subscribes, then `rate-limited` (codes cannot be enumerated over
 * the socket either).
 */
import { ApiError } from '../../infra/errors.js';
import type {
  ChannelConnection,
  ChannelSession,
  ClientFrameOf,
  SocketChannel,
} from '../../core/feature-module.js';
import type { RaceService } from './service.js';

/** The client frames of the races channel. */
export type RaceFrameType = 'race-subscribe' | 'race-unsubscribe';

/** What the races channel needs of the race service (app.races). */
export type RaceChannelService = Pick<RaceService, 'subscribe' | 'unsubscribe' | 'leaveAll'>;

/** The races channel's settings. */
export interface RaceChannelOptions {
  /** Unknown race codes one connection may subscribe to before `rate-limited`; 0 = no limit (config raceRateMax). */
  readonly lookups: number;
}

/** One connection's race rooms and its count of unknown codes; every room left when the socket closes. */
class RaceSession implements ChannelSession<RaceFrameType> {
  private unknownCodes = 0;

  constructor(
    private readonly races: RaceChannelService,
    private readonly options: RaceChannelOptions,
    private readonly connection: ChannelConnection,
  ) {}

  /** See `ChannelSession.handle`. Errors: `rate-limited` (too many unknown codes), `not-found`. */
  async handle(frame: ClientFrameOf<RaceFrameType>): Promise<void> {
    const conn = this.connection;
    if (frame.type === 'race-unsubscribe') {
      this.races.unsubscribe(frame.code, conn);
      return;
    }
    const limit = this.options.lookups;
    if (limit > 0 && this.unknownCodes >= limit)
      throw new ApiError('rate-limited', 'too many unknown race codes on this connection');
    try {
      await this.races.subscribe(frame.code, conn, conn.playerId);
      if (conn.closed) this.races.leaveAll(conn);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'not-found') this.unknownCodes++;
      throw e;
    }
  }

  /** Leaves every race room the connection joined. */
  close(): void {
    this.races.leaveAll(this.connection);
  }
}

/** The races channel over `races` (e.g. `raceChannel(app.races, { lookups: app.config.raceRateMax })`). */
export function raceChannel(
  races: RaceChannelService,
  options: RaceChannelOptions,
): SocketChannel<RaceFrameType> {
  return {
    name: 'races',
    frames: ['race-subscribe', 'race-unsubscribe'],
    open: (connection) => new RaceSession(races, options, connection),
  };
}
