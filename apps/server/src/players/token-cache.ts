/**
 * The bearer-token cache of plugin `auth`: a known token's player is remembered for TOKEN_CACHE_MS, so a
 * burst of requests with one token costs one database look-up.
 */
import type { AuthedPlayer } from './players.js';

/** How long a known token's player is remembered, ms (a token revoked elsewhere stops working within it). */
export const TOKEN_CACHE_MS = 5_000;
/** Most tokens remembered at once (the oldest are forgotten first). */
const TOKEN_CACHE_SIZE = 10_000;

/** Players of recently seen bearer tokens (hits only: an unknown token is looked up every time). */
export class PlayerTokenCache {
  private readonly entries = new Map<string, { player: AuthedPlayer; until: number }>();

  /** `now` is the clock in ms. */
  constructor(private readonly now: () => number = Date.now) {}

  /** The cached player of `token`, or undefined when unknown or expired. */
  get(token: string): AuthedPlayer | undefined {
    const e = this.entries.get(token);
    if (e === undefined) return undefined;
    if (e.until > this.now()) return e.player;
    this.entries.delete(token);
    return undefined;
  }

  /** Remembers `token` → `player` for TOKEN_CACHE_MS. */
  set(token: string, player: AuthedPlayer): void {
    this.entries.delete(token);
    this.entries.set(token, { player, until: this.now() + TOKEN_CACHE_MS });
    if (this.entries.size > TOKEN_CACHE_SIZE) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  /** Forgets every cached token of a player (after a rename, a token rotation or a sign-out). */
  forget(playerId: string): void {
    for (const [token, e] of this.entries) if (e.player.id === playerId) this.entries.delete(token);
  }
}
