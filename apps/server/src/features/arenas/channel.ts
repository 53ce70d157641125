/**
 * The arenas' socket channel: `arena-subscribe {id}` answers with an `arena` frame and sends one on every
 * change of its standings or status (`me` as the connection's player sees it); `arena-unsubscribe {id}`
 * stops.
 */
import type {
  ChannelConnection,
  ChannelSession,
  ClientFrameOf,
  SocketChannel,
} from '../../core/feature-module.js';
import type { ArenaService } from './service.js';

/** The client frames of the arenas channel. */
export type ArenaFrameType = 'arena-subscribe' | 'arena-unsubscribe';

/** What the arenas channel needs of the arena service (app.arenas). */
export type ArenaChannelService = Pick<ArenaService, 'subscribe' | 'unsubscribe' | 'leaveAll'>;

/** One connection's arena subscriptions, all left when the socket closes. */
class ArenaSession implements ChannelSession<ArenaFrameType> {
  constructor(
    private readonly arenas: ArenaChannelService,
    private readonly connection: ChannelConnection,
  ) {}

  /** See `ChannelSession.handle`. Errors: `not-found` (no such arena, or one the player may not see). */
  async handle(frame: ClientFrameOf<ArenaFrameType>): Promise<void> {
    const conn = this.connection;
    if (frame.type === 'arena-unsubscribe') {
      this.arenas.unsubscribe(frame.id, conn);
      return;
    }
    await this.arenas.subscribe(frame.id, conn, conn.playerId);
    if (conn.closed) this.arenas.unsubscribe(frame.id, conn);
  }

  /** Leaves every arena the connection subscribed to. */
  close(): void {
    this.arenas.leaveAll(this.connection);
  }
}

/** The arenas channel over `arenas` (e.g. `arenaChannel(app.arenas)`). */
export function arenaChannel(arenas: ArenaChannelService): SocketChannel<ArenaFrameType> {
  return {
    name: 'arenas',
    frames: ['arena-subscribe', 'arena-unsubscribe'],
    open: (connection) => new ArenaSession(arenas, connection),
  };
}
