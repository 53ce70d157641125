/**
 * Quick pairing's socket channel. It takes no client frame: once a connection has sent `auth`, it hears
 * `paired {code}` when its player is paired (POST /api/pairing, or in an arena), until it authenticates as
 * someone else or closes.
 */
import type { ChannelConnection, ChannelSession, SocketChannel } from '../../core/feature-module.js';
import type { PairingService } from './service.js';

/** What the pairing channel needs of the pairing service (app.pairing). */
export type PairingChannelService = Pick<PairingService, 'listen'>;

/** One connection's `paired` listener (set at `auth`, replaced at a later `auth`). */
class PairingSession implements ChannelSession<never> {
  private stop: (() => void) | undefined;

  constructor(
    private readonly pairing: PairingChannelService,
    private readonly connection: ChannelConnection,
  ) {}

  /** Never called: the channel declares no frame. */
  handle(): Promise<void> {
    return Promise.resolve();
  }

  /** Listens for `paired` frames of `playerId` (and no longer for an earlier player's). */
  authed(playerId: string): void {
    this.stop?.();
    this.stop = this.pairing.listen(playerId, this.connection);
  }

  /** Stops listening. */
  close(): void {
    this.stop?.();
    this.stop = undefined;
  }
}

/** The pairing channel over `pairing` (e.g. `pairingChannel(app.pairing)`). */
export function pairingChannel(pairing: PairingChannelService): SocketChannel<never> {
  return {
    name: 'pairing',
    frames: [],
    open: (connection) => new PairingSession(pairing, connection),
  };
}
