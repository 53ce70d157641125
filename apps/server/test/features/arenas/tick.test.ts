/**
 * The arena tick's decisions (arenas/tick.ts), without a database: scoring a finished race and the players'
 * return to the pool, stale claims, the pairs to claim (ratings, last opponents, players racing), the end
 * of an arena, the berserkers whose half time is up, and the deals its pairings may need soon.
 */
import { describe, expect, it } from 'vitest';
import {
  type ArenaPlayerState,
  CLAIM_TIMEOUT_MS,
  arenaSettles,
  berserkersToStop,
  expireClaims,
  pairsAhead,
  pairsToClaim,
  scoreRaces,
  waitingPlayers,
} from '../../../src/features/arenas/tick.js';
import { REMATCH_AFTER_MS } from '../../../src/features/arenas/pairing.js';

const NOW = Date.UTC(2026, 0, 2, 12);
const at = (ms: number): Date => new Date(ms);

/** An arena player in no race, not waiting, with no score. */
function player(playerId: string, set: Partial<ArenaPlayerState> = {}): ArenaPlayerState {
  return {
    playerId,
    points: 0,
    games: 0,
    wins: 0,
    streak: 0,
    paused: false,
    raceCode: null,
    waitingSince: null,
    lastOpponent: null,
    ...set,
  };
}

describe('arena tick decisions (arenas/tick.ts)', () => {
  describe('scoreRaces', () => {
    const race = {
      code: 'R1',
      racers: [
        { playerId: 'a', placement: 1, berserk: true },
        { playerId: 'b', placement: 2, berserk: false },
      ],
    };

    it('the sole winner scores (berserk bonus), both count a game and face each other last; back to waiting', () => {
      const players = [
        player('a', { raceCode: 'R1', streak: 1, points: 2, games: 1, wins: 1 }),
        player('b', { raceCode: 'R1' }),
      ];
      const { players: after, writes } = scoreRaces(players, [race], true, NOW);
      expect(writes).toEqual([
        {
          playerId: 'a',
          set: {
            points: 5,
            games: 2,
            wins: 2,
            streak: 2,
            lastOpponent: 'b',
            raceCode: null,
            waitingSince: at(NOW),
          },
        },
        {
          playerId: 'b',
          set: {
            points: 0,
            games: 1,
            wins: 0,
            streak: 0,
            lastOpponent: 'a',
            raceCode: null,
            waitingSince: at(NOW),
          },
        },
      ]);
      expect(after.map((p) => [p.playerId, p.points, p.raceCode])).toEqual([
        ['a', 5, null],
        ['b', 0, null],
      ]);
    });

    it('a tie has no winner; a paused player or an arena past its end leaves the pool', () => {
      const tie = { code: 'R1', racers: race.racers.map((r) => ({ ...r, placement: 1 })) };
      const players = [player('a', { raceCode: 'R1', paused: true }), player('b', { raceCode: 'R1' })];
      const running = scoreRaces(players, [tie], true, NOW).writes;
      expect(running.map((w) => [w.playerId, w.set.points, w.set.wins, w.set.waitingSince])).toEqual([
        ['a', 0, 0, null],
        ['b', 0, 0, at(NOW)],
      ]);
      const ended = scoreRaces(players, [tie], false, NOW).writes;
      expect(ended.map((w) => w.set.waitingSince)).toEqual([null, null]);
    });

    it("a race that is no longer a player's current one keeps their current race and wait", () => {
      const players = [
        player('a', { raceCode: 'R2', waitingSince: null }),
        player('b', { waitingSince: at(NOW - 5) }),
      ];
      const { writes } = scoreRaces(players, [race], true, NOW);
      expect(writes.map((w) => [w.playerId, w.set.raceCode, w.set.waitingSince])).toEqual([
        ['a', 'R2', null],
        ['b', null, at(NOW - 5)],
      ]);
    });

    it('racers not of the arena are skipped', () => {
      expect(
        scoreRaces([player('a', { raceCode: 'R1' })], [race], true, NOW).writes.map((w) => w.playerId),
      ).toEqual(['a']);
    });
  });

  it('expireClaims: a claim older than CLAIM_TIMEOUT_MS waits again; a fresh one stays', () => {
    const stale = player('a', { raceCode: '', waitingSince: at(NOW - CLAIM_TIMEOUT_MS - 1) });
    const fresh = player('b', { raceCode: '', waitingSince: at(NOW - CLAIM_TIMEOUT_MS) });
    const { players, writes } = expireClaims([stale, fresh, player('c', { raceCode: 'R1' })], NOW);
    expect(writes).toEqual([{ playerId: 'a', set: { raceCode: null, waitingSince: at(NOW) } }]);
    expect(waitingPlayers(players).map((p) => p.playerId)).toEqual(['a']);
  });

  describe('pairsToClaim', () => {
    const long = at(NOW - REMATCH_AFTER_MS);

    it('pairs the waiting players (not paused, in no race) by points then rating; a new player rates 1500', () => {
      const players = [
        player('a', { waitingSince: long, points: 4 }),
        player('b', { waitingSince: long }),
        player('c', { waitingSince: long }),
        player('d', { waitingSince: long }),
        player('e', { waitingSince: long, paused: true }),
        player('f', { raceCode: 'R9' }),
      ];
      const ratings = new Map([
        ['c', 1600],
        ['d', 1400],
      ]);
      expect(pairsToClaim(players, ratings, NOW)).toEqual([
        ['a', 'c'],
        ['b', 'd'],
      ]);
    });

    it('last opponents meet again only alone, after REMATCH_AFTER_MS, and while nobody else races', () => {
      const a = player('a', { waitingSince: long, lastOpponent: 'b' });
      const b = player('b', { waitingSince: long, lastOpponent: 'a' });
      expect(pairsToClaim([a, b], new Map(), NOW)).toEqual([['a', 'b']]);
      expect(pairsToClaim([a, b, player('c', { raceCode: 'R9' })], new Map(), NOW)).toEqual([]);
      expect(pairsToClaim([a, { ...b, waitingSince: at(NOW - 1) }], new Map(), NOW)).toEqual([]);
    });
  });

  it('arenaSettles: past its end, every race scored and no race being made', () => {
    const idle = [player('a'), player('b', { raceCode: '', waitingSince: at(NOW - CLAIM_TIMEOUT_MS - 1) })];
    expect(arenaSettles(idle, false, 0, NOW)).toBe(true);
    expect(arenaSettles(idle, true, 0, NOW)).toBe(false);
    expect(arenaSettles(idle, false, 1, NOW)).toBe(false);
    expect(arenaSettles([player('a', { raceCode: '', waitingSince: at(NOW - 1) })], false, 0, NOW)).toBe(
      false,
    );
  });

  it('berserkersToStop: games still playing past half the time limit', () => {
    const game = {
      gameId: 'g1',
      playerId: 'a',
      startsAt: at(NOW - 60_000),
      timeLimitMs: 120_000,
      gameStatus: 'playing',
    };
    expect(berserkersToStop([game], NOW)).toEqual([{ gameId: 'g1', playerId: 'a' }]);
    expect(berserkersToStop([{ ...game, timeLimitMs: 120_002 }], NOW)).toEqual([]);
    expect(berserkersToStop([{ ...game, gameStatus: 'won' }], NOW)).toEqual([]);
    expect(
      berserkersToStop(
        [
          { ...game, startsAt: null },
          { ...game, gameId: null },
        ],
        NOW,
      ),
    ).toEqual([]);
  });

  it('pairsAhead: one deal for each two players not paused while the arena runs, none after', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id) => player(id, { raceCode: id < 'c' ? 'R1' : null }));
    const cases: [ArenaPlayerState[], boolean, number][] = [
      [[], true, 0],
      [five.slice(0, 1), true, 1],
      [five.slice(0, 4), true, 2],
      [five, true, 3],
      [[...five.slice(0, 4), player('e', { paused: true })], true, 2],
      [five, false, 0],
    ];
    for (const [players, running, want] of cases) expect(pairsAhead(players, running)).toBe(want);
  });
});
