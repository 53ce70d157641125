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
  private forgets = 0;

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

  /**
   * How many times tokens were forgotten so far: a look-up that began before a `forget` may have read a token
   * revoked meanwhile, so it passes the count it saw to `set`, which then remembers nothing.
   */
  get generation(): number {
    return this.forgets;
  }

  /**
   * Remembers `token` → `player` for TOKEN_CACHE_MS; nothing when `generation` (the count the look-up began
   * at) is given and tokens were forgotten since.
   */
  set(token: string, player: AuthedPlayer, generation?: number): void {
    if (generation !== undefined && generation !== this.forgets) return;
    this.entries.delete(token);
    this.entries.set(token, { player, until: this.now() + TOKEN_CACHE_MS });
    if (this.entries.size > TOKEN_CACHE_SIZE) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  /** Forgets every cached token of a player (after a rename, a token rotation or a sign-out). */
  forget(playerId: string): void {
    this.forgets++;
    for (const [token, e] of this.entries) if (e.player.id === playerId) this.entries.delete(token);
  }

  /** Forgets every cached token (a revocation may have been missed: the bus was away). */
  clear(): void {
    this.forgets++;
    this.entries.clear();
  }
}
