/**
 * Quick pairing's socket channel without Fastify: it takes no frame; an authed connection hears `paired`
 * for its player alone (a later `auth` replaces the earlier player), and stops hearing it when it closes.
 */
import { describe, expect, it } from 'vitest';
import type { PairingListener } from '../../../src/features/pairing/service.js';
import { pairingChannel, type PairingChannelService } from '../../../src/features/pairing/channel.js';
import { FakeConnection } from '../../support/fake-connection.js';

/** Pairing reduced to its listeners, by player. */
class FakePairing implements PairingChannelService {
  readonly listeners = new Map<string, Set<PairingListener>>();

  listen(playerId: string, listener: PairingListener): () => void {
    let set = this.listeners.get(playerId);
    if (set === undefined) this.listeners.set(playerId, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }
  /** Sends a `paired` frame to `playerId`'s listeners. */
  pair(playerId: string, code: string): void {
    for (const l of this.listeners.get(playerId) ?? []) l.send(JSON.stringify({ type: 'paired', code }));
  }
}

describe('the pairing channel', () => {
  it('declares no frame', () => {
    expect(pairingChannel(new FakePairing()).frames).toEqual([]);
  });

  it('an authed connection hears paired for its current player only, and nothing once closed', () => {
    const pairing = new FakePairing();
    const conn = new FakeConnection();
    const session = pairingChannel(pairing).open(conn);
    pairing.pair('p1', 'RACE000001');
    expect(conn.frames).toEqual([]);
    session.authed?.('p1');
    pairing.pair('p1', 'RACE000002');
    session.authed?.('p2');
    pairing.pair('p1', 'RACE000003');
    pairing.pair('p2', 'RACE000004');
    session.close();
    pairing.pair('p2', 'RACE000005');
    expect(conn.frames).toEqual([
      { type: 'paired', code: 'RACE000002' },
      { type: 'paired', code: 'RACE000004' },
    ]);
  });
});
