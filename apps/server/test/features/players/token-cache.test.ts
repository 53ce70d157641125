/**
 * The bearer-token cache of plugin `auth`: hits expire after TOKEN_CACHE_MS; a rename forgets them; a look-up
 * that raced a revocation is not remembered.
 */
import { describe, expect, it } from 'vitest';
import { PlayerTokenCache, TOKEN_CACHE_MS } from '../../../src/features/players/token-cache.js';

describe('PlayerTokenCache', () => {
  it('remembers a token for TOKEN_CACHE_MS, then looks it up again', () => {
    let now = 1_000;
    const cache = new PlayerTokenCache(() => now);
    cache.set('tok', { id: 'p1', name: 'Ada', bot: false });
    expect(cache.get('tok')).toEqual({ id: 'p1', name: 'Ada', bot: false });
    now += TOKEN_CACHE_MS - 1;
    expect(cache.get('tok')).toEqual({ id: 'p1', name: 'Ada', bot: false });
    now += 1;
    expect(cache.get('tok')).toBeUndefined();
    expect(cache.get('other')).toBeUndefined();
  });

  it('forget(playerId) drops every token of that player only', () => {
    const cache = new PlayerTokenCache(() => 0);
    cache.set('a1', { id: 'a', name: 'A', bot: false });
    cache.set('a2', { id: 'a', name: 'A', bot: false });
    cache.set('b1', { id: 'b', name: 'B', bot: false });
    cache.forget('a');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')).toEqual({ id: 'b', name: 'B', bot: false });
  });
});

describe('PlayerTokenCache and revocations during a look-up', () => {
  it('a token revoked while its look-up was on its way is not remembered', () => {
    const cache = new PlayerTokenCache(() => 0);
    const began = cache.generation; // the look-up starts, reads the token (still there) from the database …
    cache.forget('a'); // … the token is revoked meanwhile …
    cache.set('a1', { id: 'a', name: 'A', bot: false }, began); // … and its stale answer arrives
    expect(cache.get('a1')).toBeUndefined();
    cache.set('a2', { id: 'a', name: 'A', bot: false }, cache.generation);
    expect(cache.get('a2')).toEqual({ id: 'a', name: 'A', bot: false });
    cache.clear();
    expect(cache.get('a2')).toBeUndefined();
  });
});
