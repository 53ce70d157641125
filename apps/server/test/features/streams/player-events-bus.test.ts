/**
 * The events streams' deliveries across nodes (streams/player-events.ts) on a real Redis: two nodes' buses in
 * one process, each with its own streams. An invitation made on A reaches the invited player's stream on B
 * and nobody else's; a day opening found by A reaches B's streams once, and B finding the same day itself
 * (or a restarted A announcing it again) sends nothing more; a forged bus message is dropped.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBus } from '../../../src/infra/bus/event-bus.js';
import { PlayerEvents } from '../../../src/features/streams/player-events.js';
import { TEST_REDIS_URL } from '../../support/helpers.js';

/** A stream's lines, parsed. */
class Sink {
  readonly lines: Record<string, unknown>[] = [];
  line(json: string): void {
    this.lines.push(JSON.parse(json) as Record<string, unknown>);
  }
}

/** Resolves once `ready()` holds (polled; the test's own timeout bounds it). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.skipIf(TEST_REDIS_URL === undefined)('events streams across nodes (Redis bus)', () => {
  const prefix = `pe-${randomBytes(4).toString('hex')}:`;
  let busA: RedisBus;
  let busB: RedisBus;
  let a: PlayerEvents;
  let b: PlayerEvents;
  /** Heard on B after every channel of `b`: once it arrives, B's earlier subscriptions are live too. */
  const probe: unknown[] = [];

  beforeAll(async () => {
    const url = TEST_REDIS_URL ?? '';
    busA = new RedisBus(url, prefix, () => {});
    busB = new RedisBus(url, prefix, () => {});
    await Promise.all([busA.ready(), busB.ready()]);
    a = new PlayerEvents(busA);
    b = new PlayerEvents(busB);
    busB.subscribe('probe', (m) => probe.push(m));
    while (probe.length === 0) {
      busA.publish('probe', 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }, 30_000);
  afterAll(async () => {
    a.close();
    b.close();
    await Promise.all([busA.close(), busB.close()]);
  });

  it("an invitation made on A reaches the invited player's stream on B, and nobody else's", async () => {
    const invited = new Sink();
    const other = new Sink();
    const onA = new Sink();
    const stops = [b.listen('guest', invited), b.listen('stranger', other), a.listen('guest', onA)];
    a.invite({
      kind: 'rematch',
      code: 'ABCDEFGHJK',
      rematchOf: 'ABCDEFGHJM',
      from: { id: 'host', name: 'Host' },
      playerIds: ['guest'],
    });
    const line = {
      type: 'race-invitation',
      kind: 'rematch',
      code: 'ABCDEFGHJK',
      from: { id: 'host', name: 'Host' },
      rematchOf: 'ABCDEFGHJM',
    };
    await until(() => invited.lines.length > 0);
    expect(invited.lines).toEqual([line]);
    expect(onA.lines).toEqual([line]); // the guest's stream on A too, once
    // A forged message (not an invitation line) is dropped; then a real one proves the channel still flows.
    busA.publish('player-events', { playerIds: ['stranger'], line: { type: 'paired', code: 'ABCDEFGHJK' } });
    busA.publish('player-events', { playerIds: ['stranger'], line: { type: 'race-invitation', code: 'x' } });
    a.invite({ ...line, playerIds: ['guest'] } as Parameters<PlayerEvents['invite']>[0]);
    await until(() => invited.lines.length > 1);
    expect(other.lines).toEqual([]);
    for (const stop of stops) stop();
  });

  it('a day opening found on A reaches B once; B finding it too, or A again, sends nothing more', async () => {
    const onB = new Sink();
    const onA = new Sink();
    const stops = [b.listen('p', onB), a.listen('q', onA)];
    a.opened('2026-12-07');
    const line = { type: 'daily-opened', date: '2026-12-07', presets: ['classic-draw1', 'classic-draw3'] };
    await until(() => onB.lines.length > 0);
    b.opened('2026-12-07'); // B's own schedule finds the same day
    a.opened('2026-12-07'); // A again (its memo forgot, or it restarted)
    busA.publish('daily-opened', { date: 'not a date' }); // a forged message
    a.opened('2026-12-08'); // the next day: one more line each, after the repeats
    await until(() => onB.lines.length > 1);
    expect(onB.lines).toEqual([line, { ...line, date: '2026-12-08' }]);
    expect(onA.lines).toEqual([line, { ...line, date: '2026-12-08' }]);
    for (const stop of stops) stop();
  });
});
