/**
 * The pure parts of moderation: the refunds a mark gives (moderation/refunds.ts) and the published figures
 * by month (moderation/stats.ts).
 */
import { describe, expect, it } from 'vitest';
import { refundsOf, type RatedRace } from '../../../src/features/moderation/refunds.js';
import { fairPlayStats } from '../../../src/features/moderation/stats.js';

const racer = (playerId: string, placement: number | null, before: number | null, after: number | null) => ({
  playerId,
  placement,
  ratingBefore: before,
  ratingAfter: after,
});

describe('refundsOf', () => {
  it('gives back before − after to each opponent placed below the marked player who lost rating', () => {
    const races: RatedRace[] = [
      {
        raceCode: 'A',
        pool: 'race-classic-draw1',
        racers: [
          racer('cheat', 1, 1500, 1520),
          racer('bob', 2, 1600, 1590.5),
          racer('carol', 3, 1400, 1402), // gained: nothing
          racer('dave', 4, null, null), // not rated: nothing
        ],
      },
      // The marked player lost: nobody placed below them.
      {
        raceCode: 'B',
        pool: 'race-classic-draw3',
        racers: [racer('bob', 1, 1590, 1600), racer('cheat', 2, 1520, 1510)],
      },
      // The marked player has no place (void): nothing.
      {
        raceCode: 'C',
        pool: 'race-classic-draw1',
        racers: [racer('cheat', null, 1510, 1510), racer('eve', 1, 1500, 1490)],
      },
      // Placed above the marked player, even with a loss: not theirs to refund.
      {
        raceCode: 'D',
        pool: 'race-classic-draw1',
        racers: [racer('eve', 1, 1500, 1495), racer('cheat', 2, 1510, 1515), racer('bob', 3, 1590.5, 1580)],
      },
    ];
    expect(refundsOf('cheat', races)).toEqual([
      { playerId: 'bob', raceCode: 'A', pool: 'race-classic-draw1', points: 9.5 },
      { playerId: 'bob', raceCode: 'D', pool: 'race-classic-draw1', points: 10.5 },
    ]);
  });

  it('a tie (same placement) and a race without the player give nothing', () => {
    expect(
      refundsOf('cheat', [
        { raceCode: 'T', pool: 'p', racers: [racer('cheat', 1, 1500, 1500), racer('bob', 1, 1500, 1490)] },
        { raceCode: 'X', pool: 'p', racers: [racer('amy', 1, 1500, 1510), racer('bob', 2, 1500, 1490)] },
      ]),
    ).toEqual([]);
  });
});

describe('fairPlayStats', () => {
  it('adds counts by kind and month, newest month first, zero for the kinds a month lacks', () => {
    expect(
      fairPlayStats([
        { kind: 'reportReceived', month: '2026-11', count: 2 },
        { kind: 'mark', month: '2026-12', count: 1 },
        { kind: 'reportReceived', month: '2026-12', count: 3 },
        { kind: 'reportReceived', month: '2026-12', count: 1 },
        { kind: 'appealGranted', month: '2026-11', count: 1 },
      ]),
    ).toEqual({
      months: [
        {
          month: '2026-12',
          reportsReceived: 4,
          reportsClosed: 0,
          flags: 0,
          marks: 1,
          unmarks: 0,
          appeals: 0,
          appealsGranted: 0,
        },
        {
          month: '2026-11',
          reportsReceived: 2,
          reportsClosed: 0,
          flags: 0,
          marks: 0,
          unmarks: 0,
          appeals: 0,
          appealsGranted: 1,
        },
      ],
    });
    expect(fairPlayStats([])).toEqual({ months: [] });
  });
});
