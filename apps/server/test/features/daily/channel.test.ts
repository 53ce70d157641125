/**
 * The daily's socket channel without Fastify: `watch-leaderboard` answers with the current row count and
 * the connection then hears the daily's `leaderboard` frames until it closes; a watch still in flight when
 * the socket closes is undone.
 */
import type { ServerFrame } from '@klondike/protocol';
import { describe, expect, it } from 'vitest';
import type { Subscriber } from '../../../src/core/rooms/game-rooms.js';
import { dailyChannel, type DailyChannelService } from '../../../src/features/daily/channel.js';
import { LeaderboardWatchers } from '../../../src/features/daily/leaderboard.js';
import { ApiError } from '../../../src/infra/errors.js';
import { FakeConnection } from '../../support/fake-connection.js';

type Preset = 'classic-draw1' | 'classic-draw3';

/** The daily service reduced to its watchers and a row count; only 2026-12-06 is published. */
class FakeDaily implements Omit<DailyChannelService, 'attempt'> {
  readonly watchers = new LeaderboardWatchers();
  /** `watch` waits for this when set (a watch in flight). */
  gate: Promise<void> | undefined;

  async watch(date: string, preset: Preset, subscriber: Subscriber): Promise<number> {
    if (this.gate) await this.gate;
    if (date !== '2026-12-06') throw new ApiError('not-found', `no daily ${date}`);
    this.watchers.add(date, preset, subscriber);
    return 7;
  }
}

/** No game is opened in these tests (test/features/daily/socket-attempt.test.ts opens them). */
const rooms = { follow: () => Promise.reject(new Error('no game here')), unsubscribe: () => {} };

const frame = { type: 'watch-leaderboard', date: '2026-12-06', preset: 'classic-draw1' } as const;
const update: ServerFrame = { type: 'leaderboard', date: '2026-12-06', preset: 'classic-draw1', total: 8 };

describe('the daily channel', () => {
  it('answers with the row count, then relays the daily’s leaderboard frames until closed', async () => {
    const daily = new FakeDaily();
    const conn = new FakeConnection();
    const session = dailyChannel(daily as unknown as DailyChannelService, rooms).open(conn);
    await session.handle(frame);
    daily.watchers.send('2026-12-06', 'classic-draw1', update);
    daily.watchers.send('2026-12-06', 'classic-draw3', { ...update, preset: 'classic-draw3' });
    session.close();
    daily.watchers.send('2026-12-06', 'classic-draw1', { ...update, total: 9 });
    expect(conn.frames).toEqual([{ ...update, total: 7 }, update]);
    expect(daily.watchers.watched('2026-12-06', 'classic-draw1')).toBe(false);
  });

  it('an unknown daily is not-found, and nothing is watched', async () => {
    const daily = new FakeDaily();
    const session = dailyChannel(daily as unknown as DailyChannelService, rooms).open(new FakeConnection());
    await expect(session.handle({ ...frame, date: '2026-01-01' })).rejects.toMatchObject({
      code: 'not-found',
    });
    expect(daily.watchers.watched('2026-01-01', 'classic-draw1')).toBe(false);
  });

  it('a watch in flight when the socket closes is undone, with no answer', async () => {
    const daily = new FakeDaily();
    const conn = new FakeConnection();
    const session = dailyChannel(daily as unknown as DailyChannelService, rooms).open(conn);
    let release: () => void = () => {};
    daily.gate = new Promise((resolve) => (release = resolve));
    const late = session.handle(frame);
    conn.closed = true;
    session.close();
    release();
    await late;
    expect(daily.watchers.watched('2026-12-06', 'classic-draw1')).toBe(false);
    expect(conn.frames).toEqual([]);
  });
});
