/**
 * Revoked tokens reach every node: a token rotation or a sign-out everywhere tells this node's holders of
 * the token (authenticated sockets) and, over the event bus channel `tokens`, every other node's, which also
 * forget the player's cached tokens (players/token-cache.ts). A holder told of a revocation de-authenticates
 * itself (a socket is closed, edge/socket.ts).
 *
 * Redis away: the message is lost, so when the bus comes back every node checks the tokens of its holders
 * against the database (`recheck`) and forgets its token cache.
 */
import { z } from 'zod';
import type { EventBus } from '../../infra/bus/event-bus.js';
import type { PlayerRepository } from './repository.js';
import type { PlayerTokenCache } from './token-cache.js';

/** The bus channel revocations travel on. */
export const TOKENS_CHANNEL = 'tokens';

/** What was revoked: one token of a player (rotation) or, without `tokenHash`, every token (sign-out). */
export interface TokenRevocation {
  readonly playerId: string;
  /** SHA-256 of the revoked token, lowercase hex (players.ts `hashToken`); absent: all of the player's. */
  readonly tokenHash?: string;
}

const RevocationSchema = z.object({
  playerId: z.string().min(1).max(64),
  tokenHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

/** Something authenticated with a token (a socket after `auth`). `revoked` must not throw. */
export interface TokenHolder {
  /** The token it holds was revoked: it must stop acting for the player at once. */
  revoked(): void;
}

/** One node's authenticated holders, by player, and the revocations that reach them. */
export class TokenRevocations {
  /** playerId → holder → SHA-256 of the token it holds. */
  private readonly holders = new Map<string, Map<TokenHolder, string>>();
  private readonly stopListening: () => void;
  private readonly stopReconnect: () => void;
  private revocationCount = 0;

  /** Listens to `tokens` on `bus`; `cache` is the auth plugin's token cache; `players` answers `recheck`. */
  constructor(
    private readonly bus: EventBus,
    private readonly cache: PlayerTokenCache,
    private readonly players: Pick<PlayerRepository, 'liveTokenHashes'>,
    private readonly onRecheckError: (err: unknown) => void = () => {},
  ) {
    this.stopListening = bus.subscribe(TOKENS_CHANNEL, (message) => {
      const parsed = RevocationSchema.safeParse(message);
      if (parsed.success) this.apply(parsed.data);
    });
    this.stopReconnect = bus.onReconnect(() => {
      this.recheck().catch(this.onRecheckError);
    });
  }

  /**
   * How many revocations this node has heard so far: a holder that looked its token up while this changed
   * may have raced a revocation and checks again.
   */
  get count(): number {
    return this.revocationCount;
  }

  /**
   * Registers `holder` as authenticated by the token whose SHA-256 is `tokenHash` for `playerId`. Returns
   * the function that unregisters it (on close, or before it authenticates again).
   */
  register(playerId: string, tokenHash: string, holder: TokenHolder): () => void {
    let mine = this.holders.get(playerId);
    if (mine === undefined) {
      mine = new Map();
      this.holders.set(playerId, mine);
    }
    mine.set(holder, tokenHash);
    return () => {
      const set = this.holders.get(playerId);
      if (set?.get(holder) !== tokenHash) return;
      set.delete(holder);
      if (set.size === 0) this.holders.delete(playerId);
    };
  }

  /** Revokes on this node at once and on every other node through the bus (call after the commit). */
  revoke(revocation: TokenRevocation): void {
    this.apply(revocation);
    this.bus.publish(TOKENS_CHANNEL, revocation);
  }

  /** Forgets the player's cached tokens and tells the matching holders. */
  private apply(revocation: TokenRevocation): void {
    this.revocationCount++;
    this.cache.forget(revocation.playerId);
    const mine = this.holders.get(revocation.playerId);
    if (mine === undefined) return;
    for (const [holder, hash] of [...mine]) {
      if (revocation.tokenHash !== undefined && hash !== revocation.tokenHash) continue;
      mine.delete(holder);
      holder.revoked();
    }
    if (mine.size === 0) this.holders.delete(revocation.playerId);
  }

  /**
   * Checks every holder's token against the database and revokes those that no longer exist (revocations
   * published while the bus was away were lost); forgets the whole token cache first.
   */
  async recheck(): Promise<void> {
    this.cache.clear();
    const held = [...this.holders].flatMap(([playerId, mine]) =>
      [...mine.values()].map((tokenHash) => ({ playerId, tokenHash })),
    );
    if (held.length === 0) return;
    const hashes = [...new Set(held.map((h) => h.tokenHash))];
    const alive = await this.players.liveTokenHashes(hashes);
    for (const h of held) if (!alive.has(h.tokenHash)) this.apply(h);
  }

  /** Stops listening to the bus. */
  close(): void {
    this.stopListening();
    this.stopReconnect();
  }
}
