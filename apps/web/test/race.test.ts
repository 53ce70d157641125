import type { Race } from '@klondike/protocol';
import { describe, expect, it } from 'vitest';
import {
  canJoin,
  canStart,
  clockOffset,
  countdownFace,
  inviteLink,
  msUntilStart,
  ordinal,
  progressPercent,
  racePath,
  racerTime,
  standings,
  statsLine,
  timeLeft,
  withProgress,
  type RaceProgress,
  type Racer,
} from '../src/lib/race';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');

function progress(p: Partial<RaceProgress> = {}): RaceProgress {
  return { foundationCards: 0, faceDown: 21, moves: 0, score: 0, elapsedMs: 0, status: 'playing', ...p };
}

function racer(name: string, p: Partial<RaceProgress> | null = {}, placement: number | null = null): Racer {
  return {
    playerId: `id-${name}`,
    name,
    bot: false,
    host: false,
    ready: true,
    presence: 'here',
    progress: p === null ? null : progress(p),
    placement,
    berserk: false,
  };
}

function room(over: Partial<Race> = {}): Race {
  return {
    code: 'ABCDEFGHJK',
    url: '/race/ABCDEFGHJK',
    status: 'lobby',
    preset: 'classic-draw1',
    options: {
      draw: 1,
      redeals: null,
      tableauMoves: 'anyRun',
      foundationToTableau: true,
      scoring: 'standard',
      timed: true,
      undo: true,
      hints: false,
      finalSinglePass: false,
    },
    knownDeal: false,
    rated: false,
    arenaId: null,
    dealCommitment: null,
    maxPlayers: 2,
    timeLimitMs: null,
    startsAt: null,
    endedAt: null,
    serverNow: new Date(T0).toISOString(),
    countdownMs: 3000,
    racers: [racer('Ann')],
    spectators: 0,
    you: 'id-Ann',
    yourGameId: null,
    rematchCode: null,
    ...over,
  };
}

describe('race clock sync', () => {
  it('measures the server clock offset from serverNow', () => {
    // The server is 5 s ahead of this machine.
    expect(clockOffset(new Date(T0 + 5000).toISOString(), T0)).toBe(5000);
    expect(clockOffset(new Date(T0 - 1200).toISOString(), T0)).toBe(-1200);
    expect(clockOffset('not a date', T0)).toBe(0);
  });

  it('counts down to startsAt on the server clock, whatever the local clock says', () => {
    const startsAt = new Date(T0 + 3000).toISOString();
    // Local clock 10 s behind: offset +10 s.
    const local = T0 - 10_000;
    const offset = clockOffset(new Date(T0).toISOString(), local);
    expect(msUntilStart(startsAt, local, offset)).toBe(3000);
    expect(msUntilStart(startsAt, local + 2500, offset)).toBe(500);
    expect(msUntilStart(null, local, offset)).toBeNull();
  });

  it('shows 3, 2, 1, then GO for a moment, then nothing', () => {
    expect(countdownFace(3000, 3000)).toEqual({ kind: 'digit', n: 3 });
    expect(countdownFace(2001, 3000)).toEqual({ kind: 'digit', n: 3 });
    expect(countdownFace(2000, 3000)).toEqual({ kind: 'digit', n: 2 });
    expect(countdownFace(1, 3000)).toEqual({ kind: 'digit', n: 1 });
    expect(countdownFace(0, 3000)).toEqual({ kind: 'go' });
    expect(countdownFace(-500, 3000)).toEqual({ kind: 'go' });
    expect(countdownFace(-1000, 3000)).toEqual({ kind: 'none' });
    expect(countdownFace(null, 3000)).toEqual({ kind: 'none' });
  });

  it('never shows a digit above the countdown length, however late the frame arrived', () => {
    // A frame that spent 400 ms in transit makes the local estimate 400 ms late: 3400 ms "left" of a 3 s count.
    expect(countdownFace(3400, 3000)).toEqual({ kind: 'digit', n: 3 });
    expect(countdownFace(9000, 3000)).toEqual({ kind: 'digit', n: 3 });
    expect(countdownFace(5500, 5000)).toEqual({ kind: 'digit', n: 5 });
    expect(countdownFace(800, 0)).toEqual({ kind: 'digit', n: 1 });
  });

  it('race time: the running clock while playing, the final time once done', () => {
    const startsAt = new Date(T0).toISOString();
    expect(racerTime(progress({ elapsedMs: 1000 }), startsAt, T0 + 4200, 0)).toBe(4200);
    expect(racerTime(progress({ elapsedMs: 9000, status: 'won' }), startsAt, T0 + 60_000, 0)).toBe(9000);
    expect(racerTime(null, startsAt, T0 - 2000, 0)).toBe(0); // not started yet
    expect(racerTime(null, null, T0, 0)).toBe(0);
  });

  it('time left under a limit', () => {
    const startsAt = new Date(T0).toISOString();
    expect(timeLeft({ timeLimitMs: null, startsAt }, T0, 0)).toBeNull();
    expect(timeLeft({ timeLimitMs: 60_000, startsAt }, T0 + 15_000, 0)).toBe(45_000);
    expect(timeLeft({ timeLimitMs: 60_000, startsAt }, T0 - 3000, 0)).toBe(60_000);
    expect(timeLeft({ timeLimitMs: 60_000, startsAt }, T0 + 99_000, 0)).toBe(0);
  });
});

describe('placements', () => {
  it('orders by the server placement when there is one', () => {
    const list = [racer('Cy', {}, 3), racer('Ann', {}, 1), racer('Bo', {}, 2), racer('Dee', {}, null)];
    expect(standings(list).map((r) => r.name)).toEqual(['Ann', 'Bo', 'Cy', 'Dee']);
  });

  it('live: winners first (faster first), then cards home, face-down left, status', () => {
    const list = [
      racer('Slow', { foundationCards: 10, faceDown: 5 }),
      racer('Ahead', { foundationCards: 20, faceDown: 9 }),
      racer('Won2', { foundationCards: 52, faceDown: 0, status: 'won', elapsedMs: 90_000 }),
      racer('Won1', { foundationCards: 52, faceDown: 0, status: 'won', elapsedMs: 80_000 }),
      racer('Fewer', { foundationCards: 10, faceDown: 2 }),
      racer('Quit', { foundationCards: 10, faceDown: 2, status: 'resigned' }),
      racer('Nobody', null),
    ];
    expect(standings(list).map((r) => r.name)).toEqual([
      'Won1',
      'Won2',
      'Ahead',
      'Fewer',
      'Quit',
      'Slow',
      'Nobody',
    ]);
    expect(list[0]?.name).toBe('Slow'); // a copy, the input is untouched
  });

  it('formats places and stats', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
    expect(statsLine(progress({ foundationCards: 34, moves: 120, score: 85, elapsedMs: 245_000 }))).toBe(
      '34/52 · 120 moves · 85 pts · 4:05',
    );
  });
});

describe('progress bar', () => {
  it('is the share of the 52 cards home, clamped', () => {
    expect(progressPercent(null)).toBe(0);
    expect(progressPercent(progress({ foundationCards: 0 }))).toBe(0);
    expect(progressPercent(progress({ foundationCards: 13 }))).toBe(25);
    expect(progressPercent(progress({ foundationCards: 1 }))).toBe(1.9);
    expect(progressPercent(progress({ foundationCards: 52 }))).toBe(100);
  });
});

describe('rooms', () => {
  it('applies a progress frame to one racer', () => {
    const r = room({ racers: [racer('Ann'), racer('Bo')] });
    const next = withProgress(r, 'id-Bo', progress({ foundationCards: 7 }));
    expect(next.racers[1]?.progress?.foundationCards).toBe(7);
    expect(next.racers[0]).toBe(r.racers[0]);
    expect(withProgress(r, 'id-Zed', progress())).toBe(r);
  });

  it('who may start and join', () => {
    expect(canStart(room())).toBe(false);
    expect(canStart(room({ racers: [racer('Ann'), racer('Bo')] }))).toBe(true);
    expect(canStart(room({ racers: [racer('Ann'), racer('Bo')], status: 'running' }))).toBe(false);
    expect(canJoin(room({ you: null }))).toBe(true);
    expect(canJoin(room())).toBe(false); // already a racer
    expect(canJoin(room({ you: null, racers: [racer('Ann'), racer('Bo')] }))).toBe(false); // full
    expect(canJoin(room({ you: null, status: 'countdown' }))).toBe(false);
  });

  it('paths and links', () => {
    expect(racePath('ABCDEFGHJK')).toBe('/race/ABCDEFGHJK');
    expect(inviteLink('https://k.example', '/race/ABCDEFGHJK')).toBe('https://k.example/race/ABCDEFGHJK');
  });
});
