/**
 * The races' socket channel without Fastify: a connection gets `lookups` subscribes to unknown codes, then
 * `rate-limited` without a look-up (known codes never count; 0 means no limit); it subscribes as the
 * connection's player; and it leaves every race room when the socket closes, even one it was still
 * joining.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelSession } from '../../../src/core/feature-module.js';
import type { Subscriber } from '../../../src/core/rooms/game-rooms.js';
import {
  raceChannel,
  type RaceChannelService,
  type RaceFrameType,
} from '../../../src/features/races/channel.js';
import { ApiError } from '../../../src/infra/errors.js';
import { FakeConnection } from '../../support/fake-connection.js';

/** Race rooms reduced to their members; codes starting with `OPEN` exist. */
class FakeRaces implements RaceChannelService {
  readonly members = new Map<string, Map<Subscriber, string | null>>();
  lookups = 0;
  /** Subscribe calls wait for this when set (a subscribe in flight). */
  gate: Promise<void> | undefined;

  async subscribe(code: string, sub: Subscriber, player: string | null): Promise<void> {
    this.lookups++;
    if (this.gate) await this.gate;
    if (!code.startsWith('OPEN')) throw new ApiError('not-found', `no race ${code}`);
    let m = this.members.get(code);
    if (m === undefined) this.members.set(code, (m = new Map<Subscriber, string | null>()));
    m.set(sub, player);
  }
  unsubscribe(code: string, sub: Subscriber): void {
    this.members.get(code)?.delete(sub);
  }
  leaveAll(sub: Subscriber): void {
    for (const code of this.members.keys()) this.unsubscribe(code, sub);
  }
  /** Codes `sub` is a member of. */
  rooms(sub: Subscriber): string[] {
    return [...this.members].filter(([, m]) => m.has(sub)).map(([code]) => code);
  }
}

function open(lookups: number, playerId: string | null = null) {
  const races = new FakeRaces();
  const conn = new FakeConnection(playerId);
  const session: ChannelSession<RaceFrameType> = raceChannel(races, { lookups }).open(conn);
  const subscribe = async (code: string): Promise<string | undefined> => {
    try {
      await session.handle({ type: 'race-subscribe', code });
      return undefined;
    } catch (e) {
      return e instanceof ApiError ? e.code : String(e);
    }
  };
  return { races, conn, session, subscribe };
}

describe('the races channel', () => {
  it('allows `lookups` unknown codes, then rate-limited without a look-up, even for a known code', async () => {
    const { races, subscribe } = open(2);
    expect(await subscribe('NOPE000001')).toBe('not-found');
    expect(await subscribe('OPEN000001')).toBeUndefined();
    expect(await subscribe('NOPE000002')).toBe('not-found');
    expect(races.lookups).toBe(3);
    expect(await subscribe('NOPE000003')).toBe('rate-limited');
    expect(await subscribe('OPEN000002')).toBe('rate-limited');
    expect(races.lookups).toBe(3);
  });

  it('known codes never count against the allowance', async () => {
    const { subscribe } = open(1);
    for (let i = 0; i < 5; i++) expect(await subscribe(`OPEN00000${i}`)).toBeUndefined();
    expect(await subscribe('NOPE000001')).toBe('not-found');
    expect(await subscribe('OPEN000009')).toBe('rate-limited');
  });

  it('lookups 0 is no limit', async () => {
    const { subscribe } = open(0);
    for (let i = 0; i < 20; i++) expect(await subscribe(`NOPE0000${i}`)).toBe('not-found');
  });

  it('the error names the cause', async () => {
    const { session, subscribe } = open(1);
    await subscribe('NOPE000001');
    await expect(session.handle({ type: 'race-subscribe', code: 'OPEN000001' })).rejects.toMatchObject({
      code: 'rate-limited',
      message: 'too many unknown race codes on this connection',
    });
  });

  it('subscribes as the connection’s player; race-unsubscribe leaves one room', async () => {
    const { races, conn, session, subscribe } = open(0, 'racer-1');
    await subscribe('OPEN000001');
    await subscribe('OPEN000002');
    expect(races.members.get('OPEN000001')?.get(conn)).toBe('racer-1');
    await session.handle({ type: 'race-unsubscribe', code: 'OPEN000001' });
    expect(races.rooms(conn)).toEqual(['OPEN000002']);
  });

  it('close leaves every room; a subscribe in flight at the close is undone', async () => {
    const { races, conn, session, subscribe } = open(0);
    await subscribe('OPEN000001');
    let release: () => void = () => {};
    races.gate = new Promise((resolve) => (release = resolve));
    const late = subscribe('OPEN000002');
    conn.closed = true;
    session.close();
    expect(races.rooms(conn)).toEqual([]);
    release();
    await late;
    expect(races.rooms(conn)).toEqual([]);
  });
});
